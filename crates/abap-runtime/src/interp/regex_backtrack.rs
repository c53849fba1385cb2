//! Regular expressions with back references (`(\w)\1` in a pattern), which the `regex` crate
//! cannot run: a backtracking matcher over a small instruction program, bounded by a budget of
//! steps per search. A search that needs more steps ends with `CX_SY_REGEX_TOO_COMPLEX`, as a
//! real system's does when a pattern needs too many transitions; it never hangs.
//!
//! POSIX (`REGEX`, `regex =`) takes the longest match at the leftmost position where one
//! starts (every way through the pattern is tried there); PCRE takes the first one the
//! pattern's order finds (lazy quantifiers `*?` included). What the matcher does not know
//! (look-around, named groups, `\p{…}`, unknown escapes) is refused when compiling.

/// Steps one search may take (each instruction executed and each backtrack counts), at the
/// least; a search over a longer text may take `STEPS_PER_BYTE` per byte it can reach, so
/// work that grows with the text (POSIX trying every length of `(x+)` over a long word)
/// stays possible while a pattern that explodes still ends within a bound.
const STEP_LIMIT: u64 = 2_000_000;
const STEPS_PER_BYTE: u64 = 16;
/// Instructions a compiled pattern may have (counted repetitions are written out).
const MAX_PROGRAM: usize = 50_000;
/// Nesting of groups in a pattern.
const MAX_NESTING: usize = 64;

/// The byte spans of a match's groups (group 0: the whole match; `None`: took no part).
pub type Spans = Vec<Option<(usize, usize)>>;

/// The search needed more steps than its budget (`budget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooComplex;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Backtrack {
    prog: Vec<Inst>,
    /// Capture groups, group 0 (the whole match) included.
    groups: usize,
    /// Loop registers (one per unbounded repetition).
    marks: usize,
    ignore_case: bool,
    longest: bool,
}

#[derive(Debug, Clone)]
enum Inst {
    Char(char),
    /// `.`: any character but a line feed.
    Any,
    Class(Box<Class>),
    /// Try the first target, on failure the second.
    Split(usize, usize),
    Jmp(usize),
    /// Record the position in a capture slot.
    Save(usize),
    /// Record the position in a loop register (an iteration must consume something).
    Mark(usize),
    /// Fail when the position is still the one the register recorded.
    Progress(usize),
    BackRef(usize),
    TextStart,
    TextEnd,
    WordBoundary(bool),
    Match,
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    items: Vec<ClassItem>,
}

#[derive(Debug, Clone)]
enum ClassItem {
    Range(char, char),
    Digit(bool),
    Word(bool),
    Space(bool),
    Alpha,
    Alnum,
    Upper,
    Lower,
    Punct,
    XDigit,
    Blank,
    Cntrl,
}

impl ClassItem {
    fn holds(&self, c: char) -> bool {
        match self {
            ClassItem::Range(a, b) => (*a..=*b).contains(&c),
            ClassItem::Digit(yes) => c.is_ascii_digit() == *yes,
            ClassItem::Word(yes) => is_word(c) == *yes,
            ClassItem::Space(yes) => c.is_whitespace() == *yes,
            ClassItem::Alpha => c.is_alphabetic(),
            ClassItem::Alnum => c.is_alphanumeric(),
            ClassItem::Upper => c.is_uppercase(),
            ClassItem::Lower => c.is_lowercase(),
            ClassItem::Punct => c.is_ascii_punctuation(),
            ClassItem::XDigit => c.is_ascii_hexdigit(),
            ClassItem::Blank => c == ' ' || c == '\t',
            ClassItem::Cntrl => c.is_control(),
        }
    }
}

impl Class {
    fn holds(&self, c: char, ignore_case: bool) -> bool {
        let hit = |c: char| self.items.iter().any(|i| i.holds(c));
        let found = hit(c) || (ignore_case && (hit(lower(c)) || hit(upper(c))));
        found != self.negated
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn lower(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

fn upper(c: char) -> char {
    let mut u = c.to_uppercase();
    match (u.next(), u.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// Does `pattern` refer back to a group (`\1` … `\9` outside a bracket expression)?
pub fn has_back_reference(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match (in_class, c) {
            (_, '\\') => {
                if let Some(n) = chars.next()
                    && !in_class
                    && ('1'..='9').contains(&n)
                {
                    return true;
                }
            }
            (false, '[') => in_class = true,
            (true, ']') => in_class = false,
            _ => {}
        }
    }
    false
}

// ---------------------------------------------------------------- parsing

#[derive(Debug, Clone)]
enum Ast {
    Empty,
    Char(char),
    Any,
    Class(Class),
    TextStart,
    TextEnd,
    WordBoundary(bool),
    Group(Option<usize>, Box<Ast>),
    Concat(Vec<Ast>),
    Alt(Vec<Ast>),
    Repeat {
        ast: Box<Ast>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    BackRef(usize),
}

struct Parser<'p> {
    chars: Vec<char>,
    pos: usize,
    groups: usize,
    pcre: bool,
    depth: usize,
    _pattern: &'p str,
}

type PResult<T> = Result<T, String>;

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn alternation(&mut self) -> PResult<Ast> {
        let mut alts = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            alts.push(self.concat()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Ast::Empty)
        } else {
            Ast::Alt(alts)
        })
    }

    fn concat(&mut self) -> PResult<Ast> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Ok(Ast::Concat(items))
    }

    fn quantified(&mut self, atom: Ast) -> PResult<Ast> {
        let mut ast = atom;
        loop {
            let (min, max) = match self.peek() {
                Some('*') => {
                    self.pos += 1;
                    (0, None)
                }
                Some('+') => {
                    self.pos += 1;
                    (1, None)
                }
                Some('?') => {
                    self.pos += 1;
                    (0, Some(1))
                }
                Some('{') if self.counted_follows() => self.counted()?,
                _ => return Ok(ast),
            };
            let mut greedy = true;
            if self.peek() == Some('?') {
                if !self.pcre {
                    return Err("lazy quantifier in a POSIX regular expression".into());
                }
                self.pos += 1;
                greedy = false;
            } else if self.peek() == Some('+') && self.pcre {
                return Err("possessive quantifier".into());
            }
            if max.is_some_and(|m| m < min) {
                return Err("quantifier {n,m} with m < n".into());
            }
            ast = Ast::Repeat {
                ast: Box::new(ast),
                min,
                max,
                greedy,
            };
            // `a**`: no meaning in either flavour (and a long run of them would nest the
            // tree without bound).
            if matches!(self.peek(), Some('*' | '+' | '?'))
                || (self.peek() == Some('{') && self.counted_follows())
            {
                return Err("quantifier on a quantifier".into());
            }
        }
    }

    /// `{` starts a counted repetition (`{2}`, `{2,}`, `{2,5}`), else it is a character.
    fn counted_follows(&self) -> bool {
        let rest: String = self
            .chars
            .get(self.pos + 1..)
            .unwrap_or(&[])
            .iter()
            .collect();
        let Some(end) = rest.find('}') else {
            return false;
        };
        let inner = &rest[..end];
        !inner.is_empty()
            && inner.chars().all(|c| c.is_ascii_digit() || c == ',')
            && inner.starts_with(|c: char| c.is_ascii_digit())
            && inner.matches(',').count() <= 1
    }

    fn counted(&mut self) -> PResult<(u32, Option<u32>)> {
        self.pos += 1;
        let mut inner = String::new();
        while let Some(c) = self.bump() {
            if c == '}' {
                break;
            }
            inner.push(c);
        }
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| format!("repetition {{{inner}}}"))
        };
        match inner.split_once(',') {
            None => {
                let n = number(&inner)?;
                Ok((n, Some(n)))
            }
            Some((a, "")) => Ok((number(a)?, None)),
            Some((a, b)) => Ok((number(a)?, Some(number(b)?))),
        }
    }

    fn atom(&mut self) -> PResult<Ast> {
        let Some(c) = self.bump() else {
            return Ok(Ast::Empty);
        };
        Ok(match c {
            '.' => Ast::Any,
            '^' => Ast::TextStart,
            '$' => Ast::TextEnd,
            '[' => Ast::Class(self.class()?),
            '(' => self.group()?,
            '\\' => self.escape()?,
            '*' | '+' | '?' => return Err("quantifier without an operand".into()),
            c => Ast::Char(c),
        })
    }

    fn group(&mut self) -> PResult<Ast> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err("groups nested too deeply".into());
        }
        let capture = if self.peek() == Some('?') {
            if self.chars.get(self.pos + 1) == Some(&':') {
                self.pos += 2;
                None
            } else {
                return Err("group (?…)".into());
            }
        } else {
            self.groups += 1;
            Some(self.groups)
        };
        let inner = self.alternation()?;
        if self.bump() != Some(')') {
            return Err("group without )".into());
        }
        self.depth -= 1;
        Ok(Ast::Group(capture, Box::new(inner)))
    }

    fn escape(&mut self) -> PResult<Ast> {
        let Some(c) = self.bump() else {
            return Err("\\ at the end".into());
        };
        let class = |item: ClassItem| {
            Ast::Class(Class {
                negated: false,
                items: vec![item],
            })
        };
        Ok(match c {
            '1'..='9' => Ast::BackRef(c.to_digit(10).map_or(0, |d| d as usize)),
            'd' => class(ClassItem::Digit(true)),
            'D' => class(ClassItem::Digit(false)),
            'w' => class(ClassItem::Word(true)),
            'W' => class(ClassItem::Word(false)),
            's' => class(ClassItem::Space(true)),
            'S' => class(ClassItem::Space(false)),
            // POSIX (ABAP's table of special characters): `\l`/`\L` a lower-case letter or
            // not, `\u`/`\U` an upper-case one or not, `\C` any character.
            'l' | 'L' | 'u' | 'U' if !self.pcre => Ast::Class(Class {
                negated: c.is_ascii_uppercase(),
                items: vec![if c.eq_ignore_ascii_case(&'l') {
                    ClassItem::Lower
                } else {
                    ClassItem::Upper
                }],
            }),
            'C' if !self.pcre => Ast::Any,
            'b' => Ast::WordBoundary(true),
            'B' => Ast::WordBoundary(false),
            'n' => Ast::Char('\n'),
            't' => Ast::Char('\t'),
            'r' => Ast::Char('\r'),
            c if c.is_ascii_alphanumeric() => return Err(format!("escape \\{c}")),
            c => Ast::Char(c),
        })
    }

    /// After `[`: a bracket expression up to its `]`.
    fn class(&mut self) -> PResult<Class> {
        let mut negated = false;
        if self.peek() == Some('^') {
            self.pos += 1;
            negated = true;
        }
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.bump() else {
                return Err("bracket expression without ]".into());
            };
            match c {
                ']' if !first => break,
                '[' if self.peek() == Some(':') => items.push(self.posix_class()?),
                '[' if matches!(self.peek(), Some('.' | '=')) => {
                    return Err("collating element in a bracket expression".into());
                }
                '\\' => {
                    let Some(e) = self.bump() else {
                        return Err("\\ at the end".into());
                    };
                    let item = match e {
                        'd' => ClassItem::Digit(true),
                        'D' => ClassItem::Digit(false),
                        'w' => ClassItem::Word(true),
                        'W' => ClassItem::Word(false),
                        's' => ClassItem::Space(true),
                        'S' => ClassItem::Space(false),
                        'n' => ClassItem::Range('\n', '\n'),
                        't' => ClassItem::Range('\t', '\t'),
                        e if e.is_ascii_alphanumeric() => {
                            return Err(format!("escape \\{e} in a bracket expression"));
                        }
                        e => self.range_from(e)?,
                    };
                    items.push(item);
                }
                c => items.push(self.range_from(c)?),
            }
            first = false;
        }
        Ok(Class { negated, items })
    }

    /// `c` or `c-d`.
    fn range_from(&mut self, c: char) -> PResult<ClassItem> {
        if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|n| *n != ']') {
            self.pos += 1;
            let Some(mut end) = self.bump() else {
                return Err("bracket expression without ]".into());
            };
            if end == '\\' {
                end = self.bump().ok_or("\\ at the end")?;
            }
            if end < c {
                return Err("range out of order in a bracket expression".into());
            }
            return Ok(ClassItem::Range(c, end));
        }
        Ok(ClassItem::Range(c, c))
    }

    /// After `[` with `:` next: `[:alpha:]` and its kin.
    fn posix_class(&mut self) -> PResult<ClassItem> {
        self.pos += 1;
        let mut name = String::new();
        while let Some(c) = self.bump() {
            if c == ':' {
                break;
            }
            name.push(c);
        }
        if self.bump() != Some(']') {
            return Err("class [:…:] without ]".into());
        }
        Ok(match name.as_str() {
            "alpha" => ClassItem::Alpha,
            "digit" => ClassItem::Digit(true),
            "alnum" => ClassItem::Alnum,
            "upper" => ClassItem::Upper,
            "lower" => ClassItem::Lower,
            "space" => ClassItem::Space(true),
            "punct" => ClassItem::Punct,
            "xdigit" => ClassItem::XDigit,
            "blank" => ClassItem::Blank,
            "cntrl" => ClassItem::Cntrl,
            "word" => ClassItem::Word(true),
            other => return Err(format!("class [:{other}:]")),
        })
    }
}

// ---------------------------------------------------------------- compiling

struct Compiler {
    prog: Vec<Inst>,
    marks: usize,
}

impl Compiler {
    fn emit(&mut self, i: Inst) -> PResult<usize> {
        if self.prog.len() >= MAX_PROGRAM {
            return Err("regular expression too large".into());
        }
        self.prog.push(i);
        Ok(self.prog.len() - 1)
    }

    fn patch(&mut self, at: usize, i: Inst) {
        if let Some(slot) = self.prog.get_mut(at) {
            *slot = i;
        }
    }

    fn compile(&mut self, ast: &Ast, ignore_case: bool) -> PResult<()> {
        match ast {
            Ast::Empty => {}
            Ast::Char(c) => {
                self.emit(Inst::Char(if ignore_case { lower(*c) } else { *c }))?;
            }
            Ast::Any => {
                self.emit(Inst::Any)?;
            }
            Ast::Class(c) => {
                self.emit(Inst::Class(Box::new(c.clone())))?;
            }
            Ast::TextStart => {
                self.emit(Inst::TextStart)?;
            }
            Ast::TextEnd => {
                self.emit(Inst::TextEnd)?;
            }
            Ast::WordBoundary(b) => {
                self.emit(Inst::WordBoundary(*b))?;
            }
            Ast::BackRef(n) => {
                self.emit(Inst::BackRef(*n))?;
            }
            Ast::Group(capture, inner) => {
                if let Some(n) = capture {
                    self.emit(Inst::Save(2 * n))?;
                }
                self.compile(inner, ignore_case)?;
                if let Some(n) = capture {
                    self.emit(Inst::Save(2 * n + 1))?;
                }
            }
            Ast::Concat(items) => {
                for a in items {
                    self.compile(a, ignore_case)?;
                }
            }
            Ast::Alt(alts) => {
                let mut jumps = Vec::new();
                for (i, a) in alts.iter().enumerate() {
                    if i + 1 < alts.len() {
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.compile(a, ignore_case)?;
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.patch(split, Inst::Split(split + 1, next));
                    } else {
                        self.compile(a, ignore_case)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.patch(j, Inst::Jmp(end));
                }
            }
            Ast::Repeat {
                ast,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.compile(ast, ignore_case)?;
                }
                match max {
                    None => self.star(ast, *greedy, ignore_case)?,
                    Some(max) => {
                        // Optional copies: each may be skipped, which skips the rest too.
                        let mut skips = Vec::new();
                        for _ in *min..*max {
                            skips.push(self.emit(Inst::Split(0, 0))?);
                            self.compile(ast, ignore_case)?;
                        }
                        let end = self.prog.len();
                        for s in skips {
                            let (a, b) = if *greedy { (s + 1, end) } else { (end, s + 1) };
                            self.patch(s, Inst::Split(a, b));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `ast*`: each pass must consume a character, so a pass that matches empty ends the loop.
    fn star(&mut self, ast: &Ast, greedy: bool, ignore_case: bool) -> PResult<()> {
        let mark = self.marks;
        self.marks += 1;
        let split = self.emit(Inst::Split(0, 0))?;
        self.emit(Inst::Mark(mark))?;
        self.compile(ast, ignore_case)?;
        self.emit(Inst::Progress(mark))?;
        self.emit(Inst::Jmp(split))?;
        let end = self.prog.len();
        let (a, b) = if greedy {
            (split + 1, end)
        } else {
            (end, split + 1)
        };
        self.patch(split, Inst::Split(a, b));
        Ok(())
    }
}

/// Compiles `pattern`; `Err` says what is not supported.
pub fn compile(pattern: &str, pcre: bool, ignore_case: bool) -> Result<Backtrack, String> {
    let mut p = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
        groups: 0,
        pcre,
        depth: 0,
        _pattern: pattern,
    };
    let ast = p.alternation()?;
    if p.pos < p.chars.len() {
        return Err("unbalanced )".into());
    }
    let groups = p.groups + 1;
    if uses_missing_group(&ast, groups) {
        return Err("back reference to a group that does not exist".into());
    }
    let mut c = Compiler {
        prog: Vec::new(),
        marks: 0,
    };
    c.emit(Inst::Save(0))?;
    c.compile(&ast, ignore_case)?;
    c.emit(Inst::Save(1))?;
    c.emit(Inst::Match)?;
    Ok(Backtrack {
        prog: c.prog,
        groups,
        marks: c.marks,
        ignore_case,
        longest: !pcre,
    })
}

fn uses_missing_group(ast: &Ast, groups: usize) -> bool {
    match ast {
        Ast::BackRef(n) => *n >= groups,
        Ast::Group(_, a) | Ast::Repeat { ast: a, .. } => uses_missing_group(a, groups),
        Ast::Concat(items) | Ast::Alt(items) => items.iter().any(|a| uses_missing_group(a, groups)),
        _ => false,
    }
}

// ---------------------------------------------------------------- matching

/// The steps a search from byte `at` of `text` may take.
fn budget(text: &str, at: usize) -> u64 {
    let reach = u64::try_from(text.len().saturating_sub(at)).unwrap_or(u64::MAX);
    STEP_LIMIT.max(reach.saturating_mul(STEPS_PER_BYTE))
}

/// Group `g`'s span in the capture slots, when the group took part.
fn group_span(slots: &[Option<usize>], g: usize) -> Option<(usize, usize)> {
    match (slots.get(2 * g), slots.get(2 * g + 1)) {
        (Some(Some(a)), Some(Some(b))) if a <= b => Some((*a, *b)),
        _ => None,
    }
}

/// Whether the match `new` beats `best` (both starting at the same position) under POSIX's
/// leftmost-longest rule as ABAP's regular expressions (the Boost.Regex library, named in the
/// ABAP documentation's copyright note) decide it: the longer match wins; on equal length
/// the groups decide one after the other: a group that took part beats one that did not,
/// then the one that starts further left, then the longer one. A full tie keeps the match
/// found first.
fn posix_better(new: &[Option<usize>], best: &[Option<usize>]) -> bool {
    let groups = new.len() / 2;
    for g in 0..groups {
        match (group_span(new, g), group_span(best, g)) {
            (None, None) => continue,
            (Some(_), None) => return true,
            (None, Some(_)) => return false,
            (Some((ns, ne)), Some((bs, be))) => {
                if ns != bs {
                    return ns < bs;
                }
                if ne != be {
                    return ne > be;
                }
            }
        }
    }
    false
}

/// What backtracking undoes.
enum Undo {
    /// Go on at `pc` with the position `pos`.
    Try {
        pc: usize,
        pos: usize,
    },
    Slot {
        slot: usize,
        old: Option<usize>,
    },
    Mark {
        mark: usize,
        old: usize,
    },
}

impl Backtrack {
    /// The first match starting at or after byte `at`: the byte spans of its groups.
    pub fn search(&self, text: &str, at: usize) -> Result<Option<Spans>, TooComplex> {
        let mut steps = 0;
        let limit = budget(text, at);
        let mut start = at;
        while start <= text.len() {
            if let Some(slots) = self.run(text, start, &mut steps, limit)? {
                return Ok(Some(self.spans(&slots)));
            }
            match text.get(start..).and_then(|t| t.chars().next()) {
                Some(c) => start += c.len_utf8(),
                None => break,
            }
        }
        Ok(None)
    }

    /// The match starting exactly at byte `start`, if one does.
    pub fn match_at(&self, text: &str, start: usize) -> Result<Option<Spans>, TooComplex> {
        let mut steps = 0;
        Ok(self
            .run(text, start, &mut steps, budget(text, start))?
            .map(|slots| self.spans(&slots)))
    }

    fn spans(&self, slots: &[Option<usize>]) -> Spans {
        (0..self.groups).map(|g| group_span(slots, g)).collect()
    }

    /// The capture slots of a match starting exactly at `start`.
    fn run(
        &self,
        text: &str,
        start: usize,
        steps: &mut u64,
        limit: u64,
    ) -> Result<Option<Vec<Option<usize>>>, TooComplex> {
        let mut slots: Vec<Option<usize>> = vec![None; 2 * self.groups];
        let mut marks: Vec<usize> = vec![usize::MAX; self.marks];
        let mut undo: Vec<Undo> = Vec::new();
        let mut best: Option<Vec<Option<usize>>> = None;
        let (mut pc, mut pos) = (0usize, start);
        loop {
            *steps += 1;
            if *steps > limit {
                return Err(TooComplex);
            }
            let next = text.get(pos..).and_then(|t| t.chars().next());
            let ok = match self.prog.get(pc) {
                None => false,
                Some(Inst::Char(c)) => match next {
                    Some(n) if n == *c || (self.ignore_case && lower(n) == *c) => {
                        pos += n.len_utf8();
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Any) => match next {
                    Some(n) if n != '\n' => {
                        pos += n.len_utf8();
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Class(class)) => match next {
                    Some(n) if class.holds(n, self.ignore_case) => {
                        pos += n.len_utf8();
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Split(a, b)) => {
                    undo.push(Undo::Try { pc: *b, pos });
                    pc = *a;
                    true
                }
                Some(Inst::Jmp(to)) => {
                    pc = *to;
                    true
                }
                Some(Inst::Save(slot)) => {
                    let old = slots.get(*slot).copied().flatten();
                    undo.push(Undo::Slot { slot: *slot, old });
                    if let Some(s) = slots.get_mut(*slot) {
                        *s = Some(pos);
                    }
                    pc += 1;
                    true
                }
                Some(Inst::Mark(m)) => {
                    let old = marks.get(*m).copied().unwrap_or(usize::MAX);
                    undo.push(Undo::Mark { mark: *m, old });
                    if let Some(r) = marks.get_mut(*m) {
                        *r = pos;
                    }
                    pc += 1;
                    true
                }
                Some(Inst::Progress(m)) => {
                    let moved = marks.get(*m).is_some_and(|r| *r != pos);
                    pc += 1;
                    moved
                }
                Some(Inst::BackRef(n)) => {
                    match (
                        slots.get(2 * n).copied().flatten(),
                        slots.get(2 * n + 1).copied().flatten(),
                    ) {
                        (Some(a), Some(b)) if a <= b => {
                            let group = text.get(a..b).unwrap_or("");
                            match self.starts_with(text.get(pos..).unwrap_or(""), group) {
                                Some(len) => {
                                    pos += len;
                                    pc += 1;
                                    true
                                }
                                None => false,
                            }
                        }
                        // A group that took part in no match: the reference fails.
                        _ => false,
                    }
                }
                Some(Inst::TextStart) => {
                    pc += 1;
                    pos == 0
                }
                Some(Inst::TextEnd) => {
                    pc += 1;
                    pos == text.len()
                }
                Some(Inst::WordBoundary(want)) => {
                    let before = text.get(..pos).and_then(|t| t.chars().next_back());
                    let at_boundary = before.is_some_and(is_word) != next.is_some_and(is_word);
                    pc += 1;
                    at_boundary == *want
                }
                Some(Inst::Match) => {
                    if !self.longest {
                        return Ok(Some(slots));
                    }
                    if best.as_ref().is_none_or(|b| posix_better(&slots, b)) {
                        best = Some(slots.clone());
                    }
                    false
                }
            };
            if ok {
                continue;
            }
            // Backtrack to the last choice, undoing what came after it.
            loop {
                match undo.pop() {
                    None => return Ok(best),
                    Some(Undo::Try { pc: p, pos: q }) => {
                        pc = p;
                        pos = q;
                        break;
                    }
                    Some(Undo::Slot { slot, old }) => {
                        if let Some(s) = slots.get_mut(slot) {
                            *s = old;
                        }
                    }
                    Some(Undo::Mark { mark, old }) => {
                        if let Some(r) = marks.get_mut(mark) {
                            *r = old;
                        }
                    }
                }
                *steps += 1;
                if *steps > limit {
                    return Err(TooComplex);
                }
            }
        }
    }

    /// Length in bytes of `group` at the start of `rest` (case folded when the pattern is).
    fn starts_with(&self, rest: &str, group: &str) -> Option<usize> {
        if !self.ignore_case {
            return rest.starts_with(group).then_some(group.len());
        }
        let mut len = 0;
        let mut r = rest.chars();
        for g in group.chars() {
            let c = r.next()?;
            if lower(c) != lower(g) {
                return None;
            }
            len += c.len_utf8();
        }
        Some(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(pattern: &str, pcre: bool, text: &str) -> Option<Spans> {
        compile(pattern, pcre, false)
            .expect("compiles")
            .search(text, 0)
            .expect("not too complex")
    }

    #[test]
    fn back_references_match_the_groups_text() {
        assert_eq!(
            spans(r"(\w)(\w)\2\1", true, "xx abba"),
            Some(vec![Some((3, 7)), Some((3, 4)), Some((4, 5))])
        );
        // No match at 0 to 2 (`aab` would need `aa` after it); at 4 `aa` `b` `aa`.
        assert_eq!(
            spans(r"(a+)b\1", false, "aab aabaa"),
            Some(vec![Some((4, 9)), Some((4, 6))])
        );
        assert_eq!(spans(r"(a)\1", true, "ab"), None);
    }

    #[test]
    fn posix_takes_the_longest_and_pcre_the_first_match() {
        // The first way through stops after `xaa`; the longest goes on through `ab` and `x`.
        let whole = |pcre| spans(r"(x)a*(ab)?\1?", pcre, "xaabx").map(|v| v[0]);
        assert_eq!(whole(false), Some(Some((0, 5))));
        assert_eq!(whole(true), Some(Some((0, 3))));
    }

    #[test]
    fn posix_groups_follow_the_leftmost_longest_rule_for_each_group() {
        // Equal length however `a*` splits: the group that starts further left wins.
        assert_eq!(
            spans("a*(a*)", false, "aa"),
            Some(vec![Some((0, 2)), Some((0, 2))])
        );
        // The longest whole match decides before the groups: `a` + `bcd`.
        assert_eq!(
            spans("(ab|a)(c|bcd)", false, "abcd"),
            Some(vec![Some((0, 4)), Some((0, 1)), Some((1, 4))])
        );
        // Only the alternative that matched has its group: the first took no part.
        assert_eq!(
            spans("(x)|(y)", false, "y"),
            Some(vec![Some((0, 1)), None, Some((0, 1))])
        );
        // ABAP's `\l`, `\u`, `\C` are POSIX escapes, refused in PCRE.
        assert_eq!(spans(r"\u\l+\C", false, "xAbc!"), Some(vec![Some((1, 5))]));
        assert!(compile(r"\l", true, false).is_err());
    }

    #[test]
    fn catastrophic_patterns_end_as_too_complex() {
        let re = compile(r"(a*)*b\1", true, false).expect("compiles");
        let text = "a".repeat(40);
        assert_eq!(re.search(&text, 0), Err(TooComplex));
    }

    #[test]
    fn stacked_quantifiers_are_refused_not_nested() {
        let pattern = format!("(a)\\1{}", "*".repeat(100_000));
        assert!(compile(&pattern, true, false).is_err());
        assert!(compile(&format!("{}a)\\1", "(".repeat(1000)), true, false).is_err());
    }

    #[test]
    fn unknown_constructs_are_refused() {
        assert!(compile(r"(?=a)\1", true, false).is_err());
        assert!(compile(r"(a)\2", true, false).is_err());
        assert!(compile(r"\p{L}(a)\1", true, false).is_err());
    }
}
