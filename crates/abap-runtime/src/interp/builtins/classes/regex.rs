//! The system classes `CL_ABAP_REGEX` and `CL_ABAP_MATCHER`: a regular expression object
//! (`NEW cl_abap_regex( pattern … )`, `cl_abap_regex=>create_pcre( … )`) makes matchers
//! (`->create_matcher( text = … )`, or `cl_abap_matcher=>create( pattern text )`) that walk
//! through the matches of one text: `find_next( )`, `match( )`, `get_offset( )`,
//! `get_length( )`, `get_submatch( )`, `find_all( )`, `replace_all( )`; plus the static
//! `cl_abap_matcher=>matches( )` and `=>contains( )`.
//!
//! The state lives in the objects' attributes (pattern, flavor, case, text, where the next
//! search starts, the current match), so the debugger shows it. Patterns run through
//! `abap_regex` with the match order of `FIND … REGEX`; patterns it refuses, `simple_regex`,
//! table texts and a missing current match end the run as not supported.

use crate::interp::abap_regex;
use crate::interp::bound::Bound;
use crate::interp::builtins::classes::native::{NativeClass, Results, method, param};
use crate::interp::{Exec, Interp};
use abap_data::value::{ObjId, Type, Value};
use abap_syntax::ast::Flavor;
use abap_syntax::ast::{ClassDef, DataDecl, ParamDecl, ParamKind, Visibility};

pub const REGEX_CLASS: &str = "CL_ABAP_REGEX";
pub const MATCHER_CLASS: &str = "CL_ABAP_MATCHER";

/// The matcher's state lives in private attributes.
fn attr(name: &str, ty: Type) -> DataDecl {
    crate::interp::builtins::classes::native::attribute(name, ty, Visibility::Private)
}

fn imp(name: &str, kind: Type) -> ParamDecl {
    param(name, ParamKind::Importing, kind, true)
}

fn ret(name: &str, ty: Type) -> ParamDecl {
    param(name, ParamKind::Returning, ty, false)
}

fn bool_type() -> Type {
    Type::C(1)
}

fn matcher_ref() -> Type {
    Type::Ref(MATCHER_CLASS.into())
}

/// The class definitions (declarations only; the methods run in [`Interp::regex_method`]).
pub fn classes() -> Vec<ClassDef> {
    let state = |c: &mut ClassDef| {
        for (n, t) in [
            ("PATTERN", Type::String),
            ("FLAVOR", Type::C(4)),
            ("IGNORE_CASE", bool_type()),
        ] {
            c.attributes.push(attr(n, t));
        }
    };
    let mut regex = ClassDef::new(REGEX_CLASS, REGEX_CLASS, "");
    regex.builtin = true;
    state(&mut regex);
    regex.methods = vec![
        method(
            "CONSTRUCTOR",
            false,
            vec![
                param("PATTERN", ParamKind::Importing, Type::Any, false),
                imp("IGNORE_CASE", bool_type()),
                imp("SIMPLE_REGEX", bool_type()),
                imp("NO_SUBMATCHES", bool_type()),
            ],
        ),
        method(
            "CREATE_PCRE",
            true,
            vec![
                param("PATTERN", ParamKind::Importing, Type::Any, false),
                imp("IGNORE_CASE", bool_type()),
                ret("REGEX", Type::Ref(REGEX_CLASS.into())),
            ],
        ),
        method(
            "CREATE_MATCHER",
            false,
            vec![
                imp("TEXT", Type::Any),
                imp("TABLE", Type::Any),
                ret("MATCHER", matcher_ref()),
            ],
        ),
    ];
    let mut matcher = ClassDef::new(MATCHER_CLASS, MATCHER_CLASS, "");
    matcher.builtin = true;
    state(&mut matcher);
    matcher
        .attributes
        .push(crate::interp::builtins::classes::native::attribute(
            "TEXT",
            Type::String,
            Visibility::Public,
        ));
    for (n, t) in [
        ("POSITION", Type::I),
        ("MATCH_OFFSET", Type::I),
        ("MATCH_LENGTH", Type::I),
    ] {
        matcher.attributes.push(attr(n, t));
    }
    let index = || imp("INDEX", Type::I);
    let pattern_text = |result: &str, result_ty: Type| {
        vec![
            param("PATTERN", ParamKind::Importing, Type::Any, false),
            param("TEXT", ParamKind::Importing, Type::Any, false),
            imp("IGNORE_CASE", bool_type()),
            ret(result, result_ty),
        ]
    };
    matcher.methods = vec![
        method("CREATE", true, pattern_text("MATCHER", matcher_ref())),
        method("CREATE_PCRE", true, pattern_text("MATCHER", matcher_ref())),
        method("MATCHES", true, pattern_text("SUCCESS", bool_type())),
        method("CONTAINS", true, pattern_text("SUCCESS", bool_type())),
        method("FIND_NEXT", false, vec![ret("SUCCESS", bool_type())]),
        method("MATCH", false, vec![ret("SUCCESS", bool_type())]),
        method("GET_OFFSET", false, vec![index(), ret("OFFSET", Type::I)]),
        method("GET_LENGTH", false, vec![index(), ret("LENGTH", Type::I)]),
        method(
            "GET_SUBMATCH",
            false,
            vec![index(), ret("SUBMATCH", Type::String)],
        ),
        method(
            "FIND_ALL",
            false,
            vec![ret(
                "MATCHES",
                abap_data::ddic::ddic_type("MATCH_RESULT_TAB").unwrap_or(Type::Any),
            )],
        ),
        method(
            "REPLACE_ALL",
            false,
            vec![
                param("NEWTEXT", ParamKind::Importing, Type::Any, false),
                ret("COUNT", Type::I),
            ],
        ),
    ];
    vec![regex, matcher]
}

/// Regular expression settings of a regex or matcher object.
struct Setting {
    pattern: String,
    flavor: Flavor,
    ignore_case: bool,
}

fn returning(name: &str, v: Value) -> Results {
    vec![(name.into(), ParamKind::Returning, v)]
}

fn abap_bool(b: bool) -> Value {
    Value::C(if b { "X" } else { " " }.into())
}

fn int(n: usize) -> Value {
    Value::I(i32::try_from(n).unwrap_or(i32::MAX))
}

pub(crate) const CLASS: NativeClass = NativeClass {
    name: "regex",
    knows: |name| name == REGEX_CLASS || name == MATCHER_CLASS,
    static_call: None,
    method: Some(|interp, class, me, method, bound| interp.regex_method(class, me, method, bound)),
};

impl<'r> Interp<'r, '_> {
    /// Methods of `CL_ABAP_REGEX`/`CL_ABAP_MATCHER`; `None` for other classes.
    pub fn regex_method(
        &mut self,
        class: &ClassDef,
        me: Option<ObjId>,
        method: &str,
        bound: &Bound,
    ) -> Exec<Option<Results>> {
        if class.name != REGEX_CLASS && class.name != MATCHER_CLASS {
            return Ok(None);
        }
        let input = |n: &str| bound.inputs.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        let text_of = |it: &Self, v: Option<&Value>| -> Exec<Option<String>> {
            v.map(|v| v.to_abap_string().map_err(|e| it.conv_error(e)))
                .transpose()
        };
        let flag = |it: &Self, n: &str| -> Exec<bool> {
            Ok(text_of(it, input(n))?.is_some_and(|s| !s.trim().is_empty()))
        };
        let setting_from_inputs = |it: &Self, flavor: Flavor| -> Exec<Setting> {
            Ok(Setting {
                pattern: text_of(it, input("PATTERN"))?.unwrap_or_default(),
                flavor,
                ignore_case: flag(it, "IGNORE_CASE")?,
            })
        };
        let results = match (class.name.as_str(), method) {
            (REGEX_CLASS, "CONSTRUCTOR") => {
                if flag(self, "SIMPLE_REGEX")? {
                    return Err(self.not_supported("cl_abap_regex with simple_regex"));
                }
                let s = setting_from_inputs(self, Flavor::Posix)?;
                self.check_pattern(&s)?;
                if let Some(id) = me {
                    self.store_setting(id, &s);
                }
                Vec::new()
            }
            (REGEX_CLASS, "CREATE_PCRE") => {
                let s = setting_from_inputs(self, Flavor::Pcre)?;
                self.check_pattern(&s)?;
                let id = self.new_builtin_object(REGEX_CLASS)?;
                self.store_setting(id, &s);
                returning("REGEX", self.object_ref(REGEX_CLASS, id))
            }
            (REGEX_CLASS, "CREATE_MATCHER") => {
                if input("TABLE").is_some() {
                    return Err(self.not_supported("cl_abap_regex->create_matcher( table = … )"));
                }
                let text = text_of(self, input("TEXT"))?.unwrap_or_default();
                let Some(s) = me.and_then(|id| self.setting_of(id)) else {
                    return Err(self.not_supported("create_matcher( ) without a regex object"));
                };
                let id = self.new_matcher(&s, text)?;
                returning("MATCHER", self.object_ref(MATCHER_CLASS, id))
            }
            (MATCHER_CLASS, "CREATE" | "CREATE_PCRE" | "MATCHES" | "CONTAINS") => {
                let flavor = if method == "CREATE_PCRE" {
                    Flavor::Pcre
                } else {
                    Flavor::Posix
                };
                let s = setting_from_inputs(self, flavor)?;
                let text = text_of(self, input("TEXT"))?.unwrap_or_default();
                match method {
                    "MATCHES" | "CONTAINS" => {
                        let re = self.compile_setting(&s, method == "MATCHES")?;
                        let hit = re.is_match(&text).map_err(|_| self.regex_too_complex())?;
                        returning("SUCCESS", abap_bool(hit))
                    }
                    _ => {
                        self.check_pattern(&s)?;
                        let id = self.new_matcher(&s, text)?;
                        returning("MATCHER", self.object_ref(MATCHER_CLASS, id))
                    }
                }
            }
            (MATCHER_CLASS, _) => {
                let Some(id) = me else {
                    return Err(self.not_supported(&format!("{MATCHER_CLASS}=>{method}")));
                };
                self.matcher_method(id, method, bound)?
            }
            _ => return Err(self.not_supported(&format!("method {}=>{method}", class.name))),
        };
        Ok(Some(results))
    }

    fn matcher_method(&mut self, id: ObjId, method: &str, bound: &Bound) -> Exec<Results> {
        let Some(s) = self.setting_of(id) else {
            return Err(self.not_supported("a matcher without its regular expression"));
        };
        let text = self.attr_text(id, "TEXT");
        let index = match bound.inputs.iter().find(|(k, _)| k == "INDEX") {
            Some((_, v)) => match v.convert(&Type::I) {
                Ok(Value::I(i)) => usize::try_from(i).ok(),
                _ => None,
            },
            None => Some(0),
        };
        let re = self.compile_setting(&s, method == "MATCH")?;
        Ok(match method {
            "FIND_NEXT" => {
                let from = usize::try_from(self.attr_int(id, "POSITION")).unwrap_or(0);
                let byte = byte_of(&text, from);
                // The search sees the whole text (for `^` and `\b`) but starts at `from`.
                let found = if from <= text.chars().count() {
                    re.captures_at(&text, byte)
                        .map_err(|_| self.regex_too_complex())?
                } else {
                    None
                };
                match found.and_then(|c| c.get(0).map(|m| (m.start(), m.end()))) {
                    Some((a, b)) => {
                        let (start, end) = (char_of(&text, a), char_of(&text, b));
                        // After an empty match the next search starts one character later.
                        let next = if end > start { end } else { end + 1 };
                        self.set_attr(id, "MATCH_OFFSET", int(start));
                        self.set_attr(id, "MATCH_LENGTH", int(end - start));
                        self.set_attr(id, "POSITION", int(next));
                        returning("SUCCESS", abap_bool(true))
                    }
                    None => {
                        self.set_attr(id, "MATCH_OFFSET", Value::I(-1));
                        returning("SUCCESS", abap_bool(false))
                    }
                }
            }
            "MATCH" => {
                let hit = re.is_match(&text).map_err(|_| self.regex_too_complex())?;
                if hit {
                    self.set_attr(id, "MATCH_OFFSET", Value::I(0));
                    self.set_attr(id, "MATCH_LENGTH", int(text.chars().count()));
                }
                returning("SUCCESS", abap_bool(hit))
            }
            "GET_OFFSET" | "GET_LENGTH" | "GET_SUBMATCH" => {
                let off = self.attr_int(id, "MATCH_OFFSET");
                let Ok(off) = usize::try_from(off) else {
                    return Err(self.not_supported(&format!("{method}( ) without a current match")));
                };
                let Some(index) = index else {
                    return Err(self.not_supported(&format!("{method}( ) of a negative index")));
                };
                let Some(caps) = re
                    .captures_at(&text, byte_of(&text, off))
                    .map_err(|_| self.regex_too_complex())?
                else {
                    return Err(self.not_supported(&format!("{method}( ) without a current match")));
                };
                let Some(group) = caps.get(index) else {
                    // A group that took no part: offset -1, length 0, empty text.
                    return Ok(match method {
                        "GET_OFFSET" => returning("OFFSET", Value::I(-1)),
                        "GET_LENGTH" => returning("LENGTH", Value::I(0)),
                        _ => returning("SUBMATCH", Value::Str(String::new().into())),
                    });
                };
                match method {
                    "GET_OFFSET" => returning("OFFSET", int(char_of(&text, group.start()))),
                    "GET_LENGTH" => returning("LENGTH", int(group.as_str().chars().count())),
                    _ => returning("SUBMATCH", Value::Str(group.as_str().to_string().into())),
                }
            }
            "FIND_ALL" => {
                let chars: Vec<char> = text.chars().collect();
                let search = abap_syntax::ast::Search {
                    all: true,
                    sub: abap_syntax::ast::Expr::Lit(Value::Str(s.pattern.clone().into())),
                    regex: Some(s.flavor),
                    ignoring_case: s.ignore_case,
                    section: None,
                };
                let hits = self.locate(&search, &chars, "FIND", true)?;
                let Some(Type::Table(tt)) = abap_data::ddic::ddic_type("MATCH_RESULT_TAB") else {
                    return Err(self.not_supported("find_all( )"));
                };
                self.room_for_rows(hits.len())?;
                let rows = crate::interp::match_results::result_rows(&hits);
                returning("MATCHES", Value::Table(tt, rows.into()))
            }
            "REPLACE_ALL" => {
                let new = bound
                    .inputs
                    .iter()
                    .find(|(k, _)| k == "NEWTEXT")
                    .map(|(_, v)| v.to_abap_string())
                    .transpose()
                    .map_err(|e| self.conv_error(e))?
                    .unwrap_or_default();
                let cap = self.match_cap(crate::interp::text::MATCH_BYTES);
                let all = abap_regex::matches_in_order(&re, &text, false, cap)
                    .map_err(|_| self.regex_too_complex())?;
                if all.len() >= cap {
                    return Err(self.matches_fill_memory(all.len()));
                }
                let count = all.len();
                let mut out = String::new();
                let mut last = 0;
                for caps in &all {
                    let Some(m) = caps.get(0) else { continue };
                    out.push_str(text.get(last..m.start()).unwrap_or(""));
                    let groups: Vec<Option<&str>> =
                        caps.iter().map(|g| g.map(|g| g.as_str())).collect();
                    out.push_str(&abap_regex::expand(&new, &groups));
                    last = m.end();
                }
                out.push_str(text.get(last..).unwrap_or(""));
                self.set_attr(id, "TEXT", Value::Str(out.into()));
                returning("COUNT", int(count))
            }
            other => return Err(self.not_supported(&format!("{MATCHER_CLASS}->{other}( )"))),
        })
    }

    // ------------------------------------------------------------ object state

    fn new_builtin_object(&mut self, class: &str) -> Exec<ObjId> {
        let Some(def) = crate::interp::builtins::classes::class(class) else {
            return Err(self.not_supported(class));
        };
        // The caller sets the attributes after the (argument-free) construction.
        self.create_object(def, None)
    }

    fn new_matcher(&mut self, s: &Setting, text: String) -> Exec<ObjId> {
        let id = self.new_builtin_object(MATCHER_CLASS)?;
        self.store_setting(id, s);
        self.set_attr(id, "TEXT", Value::Str(text.into()));
        self.set_attr(id, "MATCH_OFFSET", Value::I(-1));
        Ok(id)
    }

    fn object_ref(&self, class: &str, id: ObjId) -> Value {
        Value::Ref {
            static_type: class.into(),
            target: Some(id),
        }
    }

    fn store_setting(&mut self, id: ObjId, s: &Setting) {
        self.set_attr(id, "PATTERN", Value::Str(s.pattern.clone().into()));
        let flavor = match s.flavor {
            Flavor::Pcre => "PCRE",
            Flavor::Posix => "",
        };
        self.set_attr(id, "FLAVOR", Value::C(format!("{flavor:<4}").into()));
        self.set_attr(id, "IGNORE_CASE", abap_bool(s.ignore_case));
    }

    fn setting_of(&self, id: ObjId) -> Option<Setting> {
        let o = self.st.heap.get(id)?;
        let get = |n: &str| o.attrs.iter().find(|a| a.name == n).map(|a| &a.val);
        let text = |v: Option<&Value>| match v {
            Some(Value::Str(s) | Value::C(s)) => s.clone(),
            _ => String::new().into(),
        };
        Some(Setting {
            pattern: text(get("PATTERN")).to_string(),
            flavor: if text(get("FLAVOR")).trim() == "PCRE" {
                Flavor::Pcre
            } else {
                Flavor::Posix
            },
            ignore_case: text(get("IGNORE_CASE")).trim() == "X",
        })
    }

    fn attr_text(&self, id: ObjId, name: &str) -> String {
        self.st
            .heap
            .get(id)
            .and_then(|o| o.attrs.iter().find(|a| a.name == name))
            .and_then(|a| a.val.to_abap_string().ok())
            .unwrap_or_default()
    }

    fn attr_int(&self, id: ObjId, name: &str) -> i32 {
        match self
            .st
            .heap
            .get(id)
            .and_then(|o| o.attrs.iter().find(|a| a.name == name))
            .map(|a| &a.val)
        {
            Some(Value::I(i)) => *i,
            _ => 0,
        }
    }

    fn set_attr(&mut self, id: ObjId, name: &str, v: Value) {
        if let Some(a) = self
            .st
            .heap
            .get_mut(id)
            .and_then(|o| o.attrs.iter_mut().find(|a| a.name == name))
        {
            a.val = v;
        }
    }

    fn check_pattern(&self, s: &Setting) -> Exec<()> {
        self.compile_setting(s, false).map(|_| ())
    }

    fn compile_setting(&self, s: &Setting, whole: bool) -> Exec<abap_regex::AbapRegex> {
        let compiled = if whole {
            abap_regex::compile_whole(&s.pattern, s.flavor, s.ignore_case)
        } else {
            abap_regex::compile(&s.pattern, s.flavor, s.ignore_case)
        };
        compiled.map_err(|_| self.not_supported(&format!("regular expression {}", s.pattern)))
    }
}

/// Byte offset of character `n` of `text` (the end when beyond).
fn byte_of(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(b, _)| b)
}

/// Character offset of byte `b` of `text`.
fn char_of(text: &str, b: usize) -> usize {
    text.get(..b).map_or(0, |t| t.chars().count())
}
