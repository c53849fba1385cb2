//! Parsing `LOOP AT … GROUP BY`, `LOOP AT GROUP` and the control levels `AT FIRST|LAST|NEW|END
//! OF`.

use crate::ast::GroupLoop;
use crate::ast::Level;
use crate::ast::Path;
use crate::ast::TableStmt;
use crate::lexer::Token;
use crate::lexer::TokenKind;
use crate::lexer::upper_word;
use crate::parser::group_key::{group_key, members_var};
/// Index of the top-level `GROUP BY` in a `LOOP AT` statement.
pub fn group_by_at(toks: &[Token]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokenKind::LParen => depth += 1,
            TokenKind::RParen => depth = depth.saturating_sub(1),
            _ if depth == 0 && t.is_kw("GROUP") && upper_word(toks.get(i + 1)) == "BY" => {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// `LOOP AT GROUP g …`: the statement as a loop over the members variable.
pub fn parse_group_members_loop(toks: &[Token]) -> Result<TableStmt, String> {
    let name_tok = toks.get(3).ok_or("LOOP AT GROUP without a group")?;
    let name = upper_word(Some(name_tok));
    let mut rewritten: Vec<Token> = toks.iter().take(2).cloned().collect();
    rewritten.extend(toks.iter().skip(3).cloned());
    if group_by_at(&rewritten).is_some() {
        return Err("LOOP AT GROUP … GROUP BY".into());
    }
    match crate::parser::tables::parse_loop(&rewritten)? {
        TableStmt::Loop {
            target,
            from,
            to,
            cond,
            key,
            body,
            ..
        } => Ok(TableStmt::Loop {
            table: Path {
                base: members_var(&name),
                rest: Vec::new(),
            },
            source: None,
            target,
            from,
            to,
            cond,
            key,
            body,
        }),
        _ => Err("LOOP AT GROUP".into()),
    }
}

/// `LOOP AT itab … GROUP BY …` without the body (`at`: index of `GROUP`).
pub fn parse_group_loop(toks: &[Token], at: usize) -> Result<GroupLoop, String> {
    let head = toks.get(..at).unwrap_or(&[]);
    let (table, target, cond) = match crate::parser::tables::parse_loop(head)? {
        TableStmt::Loop {
            table,
            source: None,
            target,
            from: None,
            to: None,
            cond,
            ..
        } => (table, target, cond),
        _ => return Err("LOOP AT … FROM/TO … GROUP BY".into()),
    };
    let tail = toks.get(at + 2..).unwrap_or(&[]);
    let end = {
        let mut depth = 0usize;
        let mut end = tail.len();
        for (i, t) in tail.iter().enumerate() {
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth = depth.saturating_sub(1),
                _ if depth == 0
                    && i > 0
                    && matches!(
                        upper_word(Some(t)).as_str(),
                        "ASCENDING" | "DESCENDING" | "WITHOUT" | "INTO" | "ASSIGNING" | "REFERENCE"
                    ) =>
                {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        end
    };
    let key_toks = tail.get(..end).unwrap_or(&[]);
    let key = group_key(key_toks)?;
    let mut order = None;
    let mut group = None;
    let mut i = end;
    while let Some(t) = tail.get(i) {
        match upper_word(Some(t)).as_str() {
            "ASCENDING" => {
                order = Some(false);
                i += 1;
            }
            "DESCENDING" => {
                order = Some(true);
                i += 1;
            }
            "AS" if upper_word(tail.get(i + 1)) == "TEXT" => i += 2,
            "WITHOUT" if upper_word(tail.get(i + 1)) == "MEMBERS" => i += 2,
            "INTO" => {
                let rest = tail.get(i + 1..).unwrap_or(&[]);
                if let Some((name, n)) = crate::parser::words::inline_decl(rest) {
                    group = Some((
                        Path {
                            base: name,
                            rest: Vec::new(),
                        },
                        true,
                    ));
                    i += 1 + n;
                } else {
                    let p = rest
                        .first()
                        .and_then(Token::word)
                        .and_then(crate::parser::words::parse_path)
                        .ok_or("GROUP BY … INTO")?;
                    group = Some((p, false));
                    i += 2;
                }
            }
            other => return Err(format!("GROUP BY … {other}")),
        }
    }
    Ok(GroupLoop {
        table,
        target,
        cond,
        key,
        order,
        group,
        body: Vec::new(),
    })
}

/// `AT FIRST|LAST|NEW comp|END OF comp`.
pub fn parse_level(toks: &[Token]) -> Result<Level, String> {
    let w = |i: usize| upper_word(toks.get(i));
    match (w(1).as_str(), toks.len()) {
        ("FIRST", 2) => Ok(Level::First),
        ("LAST", 2) => Ok(Level::Last),
        ("NEW", 3) if crate::parser::words::is_name(&w(2)) => Ok(Level::New(w(2))),
        ("END", 4) if w(2) == "OF" && crate::parser::words::is_name(&w(3)) => {
            Ok(Level::EndOf(w(3)))
        }
        _ => Err("AT in a LOOP".into()),
    }
}
