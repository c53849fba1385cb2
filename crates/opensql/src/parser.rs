//! The parser: one statement's text (without the final period, comments removed) into the
//! model of [`crate::ast`]. Old and strict syntax are both accepted; a form the model has no
//! place for is refused as not supported, never guessed.

use crate::ast::*;
use crate::error::{Error, Result};
use crate::lexer::{Tok, Token, lex};

/// Parse one Open SQL statement.
pub fn parse(text: &str) -> Result<Statement> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
        predicates: 0,
        nesting: 0,
    };
    let stmt = p.statement()?;
    if let Some(t) = p.toks.get(p.pos) {
        return Err(Error::Syntax {
            offset: t.at,
            message: format!("unexpected {}", describe(&t.tok)),
        });
    }
    Ok(stmt)
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Word(w) => w.clone(),
        Tok::Text(s) => format!("'{s}'"),
        Tok::Str(s) => format!("`{s}`"),
        Tok::Int(i) => i.to_string(),
        Tok::Sym(s) => (*s).to_string(),
    }
}

/// Words that end a select list, a column list or an operand sequence.
const CLAUSE_WORDS: &[&str] = &[
    "FROM",
    "INTO",
    "APPENDING",
    "WHERE",
    "GROUP",
    "HAVING",
    "ORDER",
    "UP",
    "OFFSET",
    "FOR",
    "FIELDS",
    "CLIENT",
    "USING",
    "BYPASSING",
    "CONNECTION",
    "PACKAGE",
    "UNION",
    "INNER",
    "LEFT",
    "RIGHT",
    "CROSS",
    "JOIN",
    "ON",
];

const AGGREGATES: &[(&str, AggFunc)] = &[
    ("COUNT", AggFunc::Count),
    ("SUM", AggFunc::Sum),
    ("MIN", AggFunc::Min),
    ("MAX", AggFunc::Max),
    ("AVG", AggFunc::Avg),
];

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    end: usize,
    /// Predicates parsed so far: a condition tree deeper than the database (and a bounded
    /// stack) can take is refused.
    predicates: usize,
    /// Levels of `NOT`, parentheses and subqueries open around the current position.
    nesting: usize,
}

/// Most levels of `NOT`, parentheses and subqueries around a condition.
const MAX_NESTING: usize = 32;

/// Most predicates in one statement.
const MAX_PREDICATES: usize = 250;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.at)
    }

    fn err<T>(&self, message: impl std::convert::Into<String>) -> Result<T> {
        Err(Error::Syntax {
            offset: self.offset(),
            message: message.into(),
        })
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w == kw)
    }

    fn is_kw_at(&self, n: usize, kw: &str) -> bool {
        matches!(self.peek_at(n), Some(Tok::Word(w)) if w == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            self.err(format!("{kw} expected"))
        }
    }

    fn eat_kws(&mut self, kws: &[&str]) -> bool {
        if kws.iter().enumerate().all(|(i, k)| self.is_kw_at(i, k)) {
            self.pos += kws.len();
            true
        } else {
            false
        }
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if *x == s)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &str) -> Result<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            self.err(format!("{s} expected"))
        }
    }

    fn word(&mut self) -> Result<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.err("name expected"),
        }
    }

    fn at_clause_word(&self) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if CLAUSE_WORDS.contains(&w.as_str()))
    }

    /// True where a list (select list, GROUP BY, ORDER BY) ends: a clause word, the end, or
    /// the parenthesis closing a subquery.
    fn at_list_end(&self) -> bool {
        self.at_clause_word() || self.peek().is_none() || self.is_sym(")")
    }

    fn statement(&mut self) -> Result<Statement> {
        let kw = self.word()?;
        match kw.as_str() {
            "SELECT" => Ok(Statement::Select(Box::new(self.select(false)?))),
            "INSERT" => self.insert(),
            "UPDATE" => self.update(),
            "MODIFY" => {
                let w = self.write_from()?;
                Ok(Statement::Modify(w))
            }
            "DELETE" => self.delete(),
            "COMMIT" => {
                self.expect_kw("WORK")?;
                // `AND WAIT`: updates run synchronously here anyway.
                let _ = self.eat_kws(&["AND", "WAIT"]);
                Ok(Statement::CommitWork)
            }
            "ROLLBACK" => {
                self.expect_kw("WORK")?;
                Ok(Statement::RollbackWork)
            }
            "OPEN" | "FETCH" | "CLOSE" => Err(Error::NotSupported(format!("{kw} CURSOR"))),
            "WITH" => Err(Error::NotSupported(
                "WITH (common table expressions)".into(),
            )),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                self.err(format!("{kw} is not an Open SQL statement"))
            }
        }
    }

    // ---- SELECT ------------------------------------------------------------------------

    /// `SELECT` after its keyword; `sub`: a subquery, which ends at its closing parenthesis.
    fn select(&mut self, sub: bool) -> Result<Select> {
        let single = self.eat_kw("SINGLE");
        if single {
            // `SELECT SINGLE FOR UPDATE`: the lock is irrelevant to a single session.
            let _ = self.eat_kws(&["FOR", "UPDATE"]);
        }
        let distinct = self.eat_kw("DISTINCT");
        let mut fields = None;
        let mut fields_given = false;
        if !self.is_kw("FROM") {
            fields = self.select_list()?;
            fields_given = true;
        }
        let mut sel = Select {
            single,
            distinct,
            fields,
            from: From {
                table: TableRef {
                    name: String::new(),
                    alias: None,
                },
                joins: Vec::new(),
            },
            client: ClientHandling::Automatic,
            into: None,
            for_all_entries: None,
            where_: None,
            group_by: Vec::new(),
            having: None,
            order_by: None,
            up_to: None,
            offset: None,
        };
        let mut from_seen = false;
        while let Some(tok) = self.peek() {
            if sub && matches!(tok, Tok::Sym(")")) {
                break;
            }
            let Tok::Word(w) = tok else {
                return self.err(format!("unexpected {}", describe(tok)));
            };
            match w.as_str() {
                "FROM" if !from_seen => {
                    self.pos += 1;
                    sel.from = self.from(&mut sel.client)?;
                    from_seen = true;
                }
                "FIELDS" if !fields_given => {
                    self.pos += 1;
                    sel.fields = self.select_list()?;
                    fields_given = true;
                }
                "INTO" | "APPENDING" if sel.into.is_none() => sel.into = Some(self.into()?),
                "FOR" if self.is_kw_at(1, "ALL") => {
                    self.pos += 1;
                    self.expect_kw("ALL")?;
                    self.expect_kw("ENTRIES")?;
                    self.expect_kw("IN")?;
                    sel.for_all_entries = Some(self.host_name()?);
                }
                "WHERE" if sel.where_.is_none() => {
                    self.pos += 1;
                    sel.where_ = Some(self.cond()?);
                }
                "GROUP" if sel.group_by.is_empty() => {
                    self.pos += 1;
                    self.expect_kw("BY")?;
                    loop {
                        let w = self.word()?;
                        sel.group_by.push(col_ref(&w));
                        if !self.eat_sym(",") && self.at_list_end() {
                            break;
                        }
                    }
                }
                "HAVING" if sel.having.is_none() => {
                    self.pos += 1;
                    sel.having = Some(self.cond()?);
                }
                "ORDER" if sel.order_by.is_none() => {
                    self.pos += 1;
                    self.expect_kw("BY")?;
                    sel.order_by = Some(self.order_by()?);
                }
                "UP" if sel.up_to.is_none() => {
                    self.pos += 1;
                    self.expect_kw("TO")?;
                    sel.up_to = Some(self.operand()?);
                    self.expect_kw("ROWS")?;
                }
                "OFFSET" if sel.offset.is_none() => {
                    self.pos += 1;
                    sel.offset = Some(self.operand()?);
                }
                "CLIENT" | "USING" => self.client_clause(&mut sel.client)?,
                "BYPASSING" => {
                    self.pos += 1;
                    self.expect_kw("BUFFER")?;
                }
                "CONNECTION" | "PACKAGE" | "UNION" | "INTERSECT" | "EXCEPT" | "EXTENDED"
                | "PRIVILEGED" | "WITH" => {
                    return Err(Error::NotSupported(format!("SELECT … {w}")));
                }
                _ => return self.err(format!("unexpected {w}")),
            }
        }
        if !from_seen {
            return self.err("FROM expected");
        }
        if !fields_given {
            return self.err("FIELDS expected");
        }
        if sub {
            if sel.into.is_some() {
                return self.err("a subquery has no INTO");
            }
            if sel.single
                || sel.for_all_entries.is_some()
                || sel.order_by.is_some()
                || sel.up_to.is_some()
                || sel.offset.is_some()
            {
                return Err(Error::NotSupported(
                    "subqueries with SINGLE, FOR ALL ENTRIES, ORDER BY, UP TO or OFFSET".into(),
                ));
            }
            return Ok(sel);
        }
        if sel.into.is_none() && sel.fields.is_none() && sel.from.joins.is_empty() {
            // `SELECT [SINGLE] * FROM dbtab …`: into the `TABLES` work area.
            sel.into = Some(Into {
                kind: IntoKind::Row,
                corresponding: false,
                target: Target::WorkArea(sel.from.table.name.clone()),
            });
        }
        if sel.into.is_none() {
            let count_only = sel.fields.as_ref().is_some_and(|f| {
                matches!(
                    f.as_slice(),
                    [SelectItem {
                        expr: SelectExpr::Aggregate(Aggregate {
                            func: AggFunc::Count,
                            arg: None,
                            ..
                        }),
                        ..
                    }]
                )
            });
            if !count_only {
                return self.err("INTO expected");
            }
        }
        Ok(sel)
    }

    /// `*` (→ `None`) or items until a clause word.
    fn select_list(&mut self) -> Result<Option<Vec<SelectItem>>> {
        if self.eat_sym("*") {
            return Ok(None);
        }
        let mut items = Vec::new();
        loop {
            let value = self.is_sym("@")
                || matches!(self.peek(), Some(Tok::Text(_) | Tok::Str(_) | Tok::Int(_)));
            let expr = if let Some(agg) = self.aggregate()? {
                SelectExpr::Aggregate(agg)
            } else if value {
                // `SELECT SINGLE @abap_true FROM …`: a value for every row.
                SelectExpr::Value(self.operand()?)
            } else {
                let w = self.word()?;
                if self.is_sym("(") {
                    return Err(Error::NotSupported(format!("SQL function {w}( )")));
                }
                if let Some(t) = w.strip_suffix("~*") {
                    SelectExpr::AllOf(t.to_string())
                } else {
                    SelectExpr::Column(col_ref(&w))
                }
            };
            let alias = if self.eat_kw("AS") {
                Some(self.word()?)
            } else {
                None
            };
            items.push(SelectItem { expr, alias });
            let comma = self.eat_sym(",");
            if !comma && self.at_list_end() {
                break;
            }
        }
        Ok(Some(items))
    }

    /// An aggregate expression if one starts here.
    fn aggregate(&mut self) -> Result<Option<Aggregate>> {
        let Some(Tok::Word(w)) = self.peek() else {
            return Ok(None);
        };
        let Some(&(_, func)) = AGGREGATES.iter().find(|(n, _)| n == w) else {
            return Ok(None);
        };
        if !matches!(self.peek_at(1), Some(Tok::Sym("("))) {
            return Ok(None);
        }
        self.pos += 2;
        let distinct = self.eat_kw("DISTINCT");
        let arg = if self.eat_sym("*") {
            if func != AggFunc::Count || distinct {
                return self.err("* only in COUNT( * )");
            }
            None
        } else {
            let w = self.word()?;
            Some(col_ref(&w))
        };
        if self.is_kw("AS") {
            return Err(Error::NotSupported("aggregate with AS type".into()));
        }
        self.expect_sym(")")?;
        if func == AggFunc::Count && arg.is_some() && !distinct {
            return Err(Error::NotSupported(
                "COUNT( column ) without DISTINCT".into(),
            ));
        }
        Ok(Some(Aggregate {
            func,
            distinct,
            arg,
        }))
    }

    fn client_clause(&mut self, client: &mut ClientHandling) -> Result<()> {
        if self.eat_kws(&["CLIENT", "SPECIFIED"]) {
            *client = ClientHandling::Specified;
            Ok(())
        } else if self.eat_kws(&["USING", "CLIENT"]) {
            *client = ClientHandling::Using(self.operand()?);
            Ok(())
        } else if self.is_kw("USING") {
            Err(Error::NotSupported("USING with other than CLIENT".into()))
        } else {
            self.err("CLIENT SPECIFIED or USING CLIENT expected")
        }
    }

    fn table_ref(&mut self) -> Result<TableRef> {
        if self.is_sym("(") {
            return Err(Error::NotSupported(
                "dynamic table names and parenthesised joins".into(),
            ));
        }
        let name = self.word()?;
        if name.contains('-') || name.contains('~') {
            return self.err(format!("{name} is not a table name"));
        }
        let alias = if self.eat_kw("AS") {
            Some(self.word()?)
        } else {
            None
        };
        Ok(TableRef { name, alias })
    }

    fn from(&mut self, client: &mut ClientHandling) -> Result<From> {
        let table = self.table_ref()?;
        if self.is_kw("CLIENT") {
            self.client_clause(client)?;
        }
        let mut joins = Vec::new();
        loop {
            let kind = if self.eat_kws(&["INNER", "JOIN"]) || self.eat_kw("JOIN") {
                JoinKind::Inner
            } else if self.eat_kws(&["LEFT", "OUTER", "JOIN"]) || self.eat_kws(&["LEFT", "JOIN"]) {
                JoinKind::LeftOuter
            } else if self.is_kw("RIGHT") || self.is_kw("CROSS") {
                return Err(Error::NotSupported(
                    "RIGHT OUTER JOIN and CROSS JOIN".into(),
                ));
            } else {
                break;
            };
            let t = self.table_ref()?;
            self.expect_kw("ON")?;
            let on = self.cond()?;
            joins.push(Join { kind, table: t, on });
        }
        Ok(From { table, joins })
    }

    fn into(&mut self) -> Result<Into> {
        let appending = self.word()? == "APPENDING";
        let corresponding = self.eat_kws(&["CORRESPONDING", "FIELDS", "OF"]);
        let table = self.eat_kw("TABLE");
        if appending && !table {
            return self.err("APPENDING needs TABLE");
        }
        let kind = match (appending, table) {
            (true, _) => IntoKind::Appending,
            (false, true) => IntoKind::Table,
            (false, false) => IntoKind::Row,
        };
        let target = if self.eat_sym("(") {
            if corresponding || table {
                return self.err("a list of targets cannot be a table");
            }
            let mut list = Vec::new();
            loop {
                list.push(self.target()?);
                if self.eat_sym(")") {
                    break;
                }
                let _ = self.eat_sym(",");
                if self.peek().is_none() {
                    return self.err(") expected");
                }
            }
            Target::List(list)
        } else {
            self.target()?
        };
        if self.is_kw("PACKAGE") || self.is_kw("INDICATORS") || self.is_kw("NEW") {
            return Err(Error::NotSupported(
                "PACKAGE SIZE, INDICATORS and NEW targets".into(),
            ));
        }
        Ok(Into {
            kind,
            corresponding,
            target,
        })
    }

    fn target(&mut self) -> Result<Target> {
        if self.eat_sym("@") {
            if (self.is_kw("DATA") || self.is_kw("FINAL"))
                && matches!(self.peek_at(1), Some(Tok::Sym("(")))
            {
                self.pos += 2;
                let name = self.word()?;
                self.expect_sym(")")?;
                return Ok(Target::Inline(name));
            }
            return Ok(Target::Host(self.word()?));
        }
        let w = self.word()?;
        if CLAUSE_WORDS.contains(&w.as_str()) {
            self.pos -= 1;
            return self.err("target expected");
        }
        Ok(Target::Host(w))
    }

    fn order_by(&mut self) -> Result<OrderBy> {
        if self.eat_kws(&["PRIMARY", "KEY"]) {
            return Ok(OrderBy::PrimaryKey);
        }
        let mut keys = Vec::new();
        loop {
            let key = match self.aggregate()? {
                Some(a) => OrderKey::Aggregate(a),
                None => OrderKey::Column(col_ref(&self.word()?)),
            };
            let desc = if self.eat_kw("DESCENDING") {
                true
            } else {
                let _ = self.eat_kw("ASCENDING");
                false
            };
            if self.is_kw("NULLS") {
                return Err(Error::NotSupported("NULLS FIRST/LAST".into()));
            }
            keys.push((key, desc));
            if !self.eat_sym(",") && self.at_list_end() {
                break;
            }
        }
        Ok(OrderBy::Columns(keys))
    }

    // ---- conditions --------------------------------------------------------------------

    fn cond(&mut self) -> Result<Cond> {
        let mut left = self.and_cond()?;
        while self.eat_kw("OR") {
            let right = self.and_cond()?;
            left = Cond::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and_cond(&mut self) -> Result<Cond> {
        let mut left = self.not_cond()?;
        while self.eat_kw("AND") {
            let right = self.not_cond()?;
            left = Cond::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// Enters one level of `NOT`, parentheses or subquery: the levels of a statement are
    /// bounded together, so no input nests deeper than the stack allows.
    fn enter(&mut self) -> Result<()> {
        if self.nesting >= MAX_NESTING {
            return Err(Error::NotSupported(format!(
                "conditions nested more than {MAX_NESTING} levels deep"
            )));
        }
        self.nesting += 1;
        Ok(())
    }

    fn not_cond(&mut self) -> Result<Cond> {
        if self.eat_kw("NOT") {
            self.enter()?;
            let inner = self.not_cond();
            self.nesting -= 1;
            return Ok(Cond::Not(Box::new(inner?)));
        }
        if self.eat_sym("(") {
            self.enter()?;
            let c = self.cond();
            self.nesting -= 1;
            let c = c?;
            self.expect_sym(")")?;
            return Ok(c);
        }
        if self.eat_kw("EXISTS") {
            if !self.is_sym("(") {
                return self.err("( SELECT … ) expected after EXISTS");
            }
            return Ok(Cond::Exists(self.subquery()?));
        }
        self.predicate()
    }

    fn predicate(&mut self) -> Result<Cond> {
        self.predicates += 1;
        if self.predicates > MAX_PREDICATES {
            return Err(Error::NotSupported(format!(
                "more than {MAX_PREDICATES} comparisons in one statement"
            )));
        }
        let operand = self.operand()?;
        let cmp = match self.peek() {
            Some(Tok::Sym("=")) => Some(CmpOp::Eq),
            Some(Tok::Sym("<>")) => Some(CmpOp::Ne),
            Some(Tok::Sym("<")) => Some(CmpOp::Lt),
            Some(Tok::Sym(">")) => Some(CmpOp::Gt),
            Some(Tok::Sym("<=")) => Some(CmpOp::Le),
            Some(Tok::Sym(">=")) => Some(CmpOp::Ge),
            Some(Tok::Word(w)) => match w.as_str() {
                "EQ" => Some(CmpOp::Eq),
                "NE" => Some(CmpOp::Ne),
                "LT" => Some(CmpOp::Lt),
                "GT" => Some(CmpOp::Gt),
                "LE" => Some(CmpOp::Le),
                "GE" => Some(CmpOp::Ge),
                _ => None,
            },
            _ => None,
        };
        if let Some(op) = cmp {
            self.pos += 1;
            if self.is_kw("ANY") || self.is_kw("ALL") || self.is_kw("SOME") {
                return Err(Error::NotSupported(
                    "subqueries with ANY, ALL or SOME".into(),
                ));
            }
            if self.is_sym("(") && self.is_kw_at(1, "SELECT") {
                let query = self.subquery()?;
                return Ok(Cond::CompareQuery { operand, op, query });
            }
            let rhs = self.operand()?;
            return Ok(Cond::Compare(operand, op, rhs));
        }
        if self.eat_kw("IS") {
            let negated = self.eat_kw("NOT");
            if self.eat_kw("NULL") {
                return Ok(Cond::IsNull { operand, negated });
            }
            if self.eat_kw("INITIAL") {
                return Ok(Cond::IsInitial { operand, negated });
            }
            return self.err("NULL or INITIAL expected");
        }
        let negated = self.eat_kw("NOT");
        if self.eat_kw("BETWEEN") {
            let low = self.operand()?;
            self.expect_kw("AND")?;
            let high = self.operand()?;
            return Ok(Cond::Between {
                operand,
                low,
                high,
                negated,
            });
        }
        if self.eat_kw("LIKE") {
            let pattern = self.operand()?;
            let escape = if self.eat_kw("ESCAPE") {
                Some(self.operand()?)
            } else {
                None
            };
            return Ok(Cond::Like {
                operand,
                pattern,
                escape,
                negated,
            });
        }
        if self.eat_kw("IN") {
            if self.is_sym("(") && self.is_kw_at(1, "SELECT") {
                let query = self.subquery()?;
                return Ok(Cond::InQuery {
                    operand,
                    query,
                    negated,
                });
            }
            if self.eat_sym("(") {
                let mut list = Vec::new();
                loop {
                    list.push(self.operand()?);
                    if self.eat_sym(")") {
                        break;
                    }
                    if !self.eat_sym(",") {
                        return self.err(", or ) expected");
                    }
                }
                return Ok(Cond::InList {
                    operand,
                    list,
                    negated,
                });
            }
            let range = self.host_name()?;
            return Ok(Cond::InRange {
                operand,
                range,
                negated,
            });
        }
        self.err("comparison expected")
    }

    /// `( SELECT … )`, at its opening parenthesis.
    fn subquery(&mut self) -> Result<Box<Select>> {
        self.expect_sym("(")?;
        self.expect_kw("SELECT")?;
        self.enter()?;
        let query = self.select(true);
        self.nesting -= 1;
        let query = query?;
        self.expect_sym(")")?;
        Ok(Box::new(query))
    }

    /// `@name` or (old syntax) `name`.
    fn host_name(&mut self) -> Result<String> {
        if self.eat_sym("@") && self.is_sym("(") {
            return Err(Error::NotSupported("host expressions @( … )".into()));
        }
        let w = self.word()?;
        if w.contains('~') {
            return self.err(format!("{w} is not a data object"));
        }
        Ok(w)
    }

    fn operand(&mut self) -> Result<Operand> {
        if self.eat_sym("@") {
            return match self.peek().cloned() {
                Some(Tok::Word(w)) => {
                    self.pos += 1;
                    Ok(Operand::Host(w))
                }
                Some(Tok::Text(s)) => {
                    self.pos += 1;
                    Ok(Operand::Text(s))
                }
                Some(Tok::Str(s)) => {
                    self.pos += 1;
                    Ok(Operand::StringLit(s))
                }
                Some(Tok::Int(i)) => {
                    self.pos += 1;
                    Ok(Operand::Number(i))
                }
                Some(Tok::Sym("(")) => Err(Error::NotSupported("host expressions @( … )".into())),
                _ => self.err("host variable expected"),
            };
        }
        if let Some(a) = self.aggregate()? {
            return Ok(Operand::Aggregate(a));
        }
        match self.peek().cloned() {
            Some(Tok::Word(w)) => {
                self.pos += 1;
                if matches!(self.peek(), Some(Tok::Sym("("))) {
                    return Err(Error::NotSupported(format!("SQL function {w}( )")));
                }
                if w.contains('~') {
                    Ok(Operand::Column(col_ref(&w)))
                } else {
                    Ok(Operand::Name(w))
                }
            }
            Some(Tok::Text(s)) => {
                self.pos += 1;
                Ok(Operand::Text(s))
            }
            Some(Tok::Str(s)) => {
                self.pos += 1;
                Ok(Operand::StringLit(s))
            }
            Some(Tok::Int(i)) => {
                self.pos += 1;
                Ok(Operand::Number(i))
            }
            Some(Tok::Sym("-")) => {
                self.pos += 1;
                match self.peek() {
                    Some(Tok::Int(i)) => {
                        let i = -*i;
                        self.pos += 1;
                        Ok(Operand::Number(i))
                    }
                    _ => self.err("number expected after -"),
                }
            }
            Some(Tok::Sym("(")) => {
                Err(Error::NotSupported("SQL expressions in parentheses".into()))
            }
            _ => self.err("operand expected"),
        }
    }

    // ---- writes ------------------------------------------------------------------------

    /// `dbtab [client] FROM [TABLE] source` (INSERT, MODIFY, UPDATE, DELETE).
    fn write_from(&mut self) -> Result<Write> {
        let table = self.table_ref()?;
        if table.alias.is_some() {
            return self.err("no alias in a write");
        }
        let mut client = ClientHandling::Automatic;
        if self.is_kw("CLIENT") || self.is_kw("USING") {
            self.client_clause(&mut client)?;
        }
        if !self.eat_kw("FROM") {
            if self.peek().is_none() {
                // `INSERT dbtab.` (the obsolete short form): from the `TABLES` work area,
                // named like the table.
                return Ok(Write {
                    source: Source::Row(table.name.clone()),
                    table: table.name,
                    client,
                    accepting_duplicates: false,
                });
            }
            return self.err("FROM expected");
        }
        let source = if self.eat_kw("TABLE") {
            Source::Table(self.host_name()?)
        } else {
            if self.is_sym("(") {
                return Err(Error::NotSupported("writes from a subquery".into()));
            }
            Source::Row(self.host_name()?)
        };
        Ok(Write {
            table: table.name,
            client,
            source,
            accepting_duplicates: false,
        })
    }

    fn insert(&mut self) -> Result<Statement> {
        if self.eat_kw("INTO") {
            let table = self.table_ref()?;
            let mut client = ClientHandling::Automatic;
            if self.is_kw("CLIENT") || self.is_kw("USING") {
                self.client_clause(&mut client)?;
            }
            self.expect_kw("VALUES")?;
            let row = self.host_name()?;
            return Ok(Statement::Insert(Write {
                table: table.name,
                client,
                source: Source::Row(row),
                accepting_duplicates: false,
            }));
        }
        let mut w = self.write_from()?;
        if self.eat_kws(&["ACCEPTING", "DUPLICATE", "KEYS"]) {
            if !matches!(w.source, Source::Table(_)) {
                return self.err("ACCEPTING DUPLICATE KEYS needs FROM TABLE");
            }
            w.accepting_duplicates = true;
        }
        Ok(Statement::Insert(w))
    }

    fn update(&mut self) -> Result<Statement> {
        let save = self.pos;
        let table = self.table_ref()?;
        let mut client = ClientHandling::Automatic;
        if self.is_kw("CLIENT") || self.is_kw("USING") {
            self.client_clause(&mut client)?;
        }
        if !self.eat_kw("SET") {
            self.pos = save;
            return Ok(Statement::Update(Update::From(self.write_from()?)));
        }
        let mut sets = Vec::new();
        loop {
            let field = self.word()?;
            if field.contains('~') || field.contains('-') {
                return self.err(format!("{field} is not a column of {}", table.name));
            }
            self.expect_sym("=")?;
            let first = self.operand()?;
            let value = if self.is_sym("+") || self.is_sym("-") {
                let add = self.eat_sym("+");
                if !add {
                    self.pos += 1;
                }
                let col = match first {
                    Operand::Name(n) => col_ref(&n),
                    Operand::Column(c) => c,
                    _ => {
                        return Err(Error::NotSupported(
                            "SET with arithmetic other than column + / - operand".into(),
                        ));
                    }
                };
                let second = self.operand()?;
                if self.is_sym("+") || self.is_sym("-") || self.is_sym("*") {
                    return Err(Error::NotSupported(
                        "SET with more than one arithmetic operation".into(),
                    ));
                }
                if add {
                    SetValue::Add(col, second)
                } else {
                    SetValue::Sub(col, second)
                }
            } else if self.is_sym("*") {
                return Err(Error::NotSupported("SET with * or /".into()));
            } else {
                SetValue::Operand(first)
            };
            sets.push(SetItem { field, value });
            let comma = self.eat_sym(",");
            if !comma && (self.is_kw("WHERE") || self.peek().is_none()) {
                break;
            }
        }
        let where_ = if self.eat_kw("WHERE") {
            Some(self.cond()?)
        } else {
            None
        };
        Ok(Statement::Update(Update::Set {
            table: table.name,
            client,
            sets,
            where_,
        }))
    }

    fn delete(&mut self) -> Result<Statement> {
        if self.eat_kw("FROM") {
            let table = self.table_ref()?;
            let mut client = ClientHandling::Automatic;
            if self.is_kw("CLIENT") || self.is_kw("USING") {
                self.client_clause(&mut client)?;
            }
            let where_ = if self.eat_kw("WHERE") {
                Some(self.cond()?)
            } else {
                None
            };
            return Ok(Statement::Delete(Delete::Where {
                table: table.name,
                client,
                where_,
            }));
        }
        Ok(Statement::Delete(Delete::From(self.write_from()?)))
    }
}

/// `f` or `tab~f`.
fn col_ref(w: &str) -> ColRef {
    match w.split_once('~') {
        Some((t, f)) => ColRef {
            table: Some(t.to_string()),
            field: f.to_string(),
        },
        None => ColRef {
            table: None,
            field: w.to_string(),
        },
    }
}
