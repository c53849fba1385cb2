//! `abapdbg bp set <location>… [--condition] [--kind]`, and the seed forms `--objects`,
//! `--files`, `--object --line` with `--include`.

use abapgit::{ClassPart, SourceUnit};
use clap::{ArgGroup, ValueEnum};
use jsonl::args::{BpSetArgs, MessageArgs};
use jsonl::cmd;
use jsonl::results::Breakpoint;

use crate::oneshot::ctx::{Ctx, Failure};
use crate::oneshot::{OneShot, Output};

#[derive(Debug, clap::Args)]
#[command(
    group(ArgGroup::new("where").required(true).multiple(true)
        .args(["locations", "objects", "files", "object"])),
    after_help = "Locations: ZCL_X:42 (a line of the class's main source), ZCL_X/testclasses:12 \
    (also locals_imp, locals_def, macros), PROG:ZREP:9, or an abapGit file such as \
    src/zcl_x.clas.abap:42. With --kind statement the location is an ABAP keyword (CATCH), with \
    exception an exception class (CX_SY_ZERODIVIDE), with message ID:NUMBER:TYPE (00:001:E).\n\n\
    Each breakpoint is verified, rejected (with the system's reason; exit 1) or pending (the \
    system could not be reached; set as soon as it answers)."
)]
pub struct SetArgs {
    /// Where to stop, e.g. ZCL_ORDER:42.
    #[arg(value_name = "LOCATION", add = crate::oneshot::complete::locations())]
    locations: Vec<String>,
    /// Objects and lines, comma-separated: ZCL_FOO:42,ZCL_BAR:7.
    #[arg(long, value_delimiter = ',', value_name = "OBJECT:LINE")]
    objects: Vec<String>,
    /// abapGit files and lines, comma-separated: src/zcl_foo.clas.abap:42.
    #[arg(long, value_delimiter = ',', value_name = "FILE:LINE")]
    files: Vec<String>,
    /// One object, with --line.
    #[arg(long, requires = "line", add = crate::oneshot::complete::objects())]
    object: Option<String>,
    /// The line in --object.
    #[arg(long, requires = "object")]
    line: Option<u32>,
    /// The class sub-include the lines count in (lines as in that abapGit file).
    #[arg(long, value_enum)]
    include: Option<Include>,
    /// Stop only when this ABAP condition holds, e.g. 'LV_COUNT > 2'.
    #[arg(long, short)]
    condition: Option<String>,
    /// What the location names.
    #[arg(long, short, value_enum, default_value_t = Kind::Line)]
    kind: Kind,
    #[command(flatten)]
    out: Output,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Kind {
    Line,
    Statement,
    Exception,
    Message,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Include {
    /// Unit test classes (.clas.testclasses.abap).
    Testclasses,
    /// Local class implementations (.clas.locals_imp.abap).
    #[value(name = "locals_imp")]
    LocalsImp,
    /// Local class definitions (.clas.locals_def.abap).
    #[value(name = "locals_def")]
    LocalsDef,
    /// Macros (.clas.macros.abap).
    Macros,
}

impl Include {
    fn part(self) -> ClassPart {
        match self {
            Include::Testclasses => ClassPart::TestClasses,
            Include::LocalsImp => ClassPart::LocalsImp,
            Include::LocalsDef => ClassPart::LocalsDef,
            Include::Macros => ClassPart::Macros,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Include::Testclasses => "testclasses",
            Include::LocalsImp => "locals_imp",
            Include::LocalsDef => "locals_def",
            Include::Macros => "macros",
        }
    }
}

impl OneShot for SetArgs {
    fn json(&self) -> bool {
        self.out.json
    }

    fn run(&self, ctx: &Ctx) -> Result<(), Failure> {
        let mut args = self.request_args()?;
        args.condition.clone_from(&self.condition);
        let result = ctx.call::<cmd::BpSet>(&args)?;
        super::print(ctx, &result, &result.breakpoints, false)?;
        if let Some(w) = &result.warning {
            eprintln!("abapdbg: warning: {w}");
        }
        refused(&result.breakpoints).map_or(Ok(()), Err)
    }
}

impl SetArgs {
    /// The `bp.set` arguments: line locations, or one breakpoint of another kind.
    fn request_args(&self) -> Result<BpSetArgs, Failure> {
        if self.kind != Kind::Line {
            let [what] = self.locations.as_slice() else {
                return Err(Failure::usage(
                    "--kind statement, exception or message takes exactly one LOCATION",
                ));
            };
            if !self.objects.is_empty() || !self.files.is_empty() || self.object.is_some() {
                return Err(Failure::usage(
                    "--objects, --files and --object name source lines (--kind line)",
                ));
            }
            let mut args = BpSetArgs {
                enabled: true,
                ..BpSetArgs::default()
            };
            match self.kind {
                Kind::Statement => args.statement = Some(what.trim().to_uppercase()),
                Kind::Exception => args.exception = Some(what.trim().to_uppercase()),
                _ => args.message = Some(message(what)?),
            }
            return Ok(args);
        }
        let mut locations = Vec::new();
        for l in self.locations.iter().chain(&self.objects) {
            locations.push(with_include(l.trim(), self.include)?);
        }
        for f in &self.files {
            locations.push(file_with_include(f.trim(), self.include)?);
        }
        if let (Some(object), Some(line)) = (&self.object, self.line) {
            locations.push(with_include(
                &format!("{}:{line}", object.trim()),
                self.include,
            )?);
        }
        if locations.iter().any(String::is_empty) {
            return Err(Failure::usage("an empty location"));
        }
        Ok(BpSetArgs {
            locations,
            enabled: true,
            ..BpSetArgs::default()
        })
    }
}

/// `ZCL_X:12` with `--include testclasses` → `ZCL_X/testclasses:12`.
fn with_include(location: &str, include: Option<Include>) -> Result<String, Failure> {
    let Some(include) = include else {
        return Ok(location.to_string());
    };
    match location.split_once(':') {
        Some((object, line)) if !object.contains('/') && !line.contains(':') => {
            Ok(format!("{object}/{}:{line}", include.name()))
        }
        _ => Err(Failure::usage(format!(
            "--include needs OBJECT:LINE, not '{location}'"
        ))),
    }
}

/// `src/zcl_x.clas.abap:12` with `--include testclasses` → `CLAS:ZCL_X/testclasses:12` (the
/// abapGit names are crates/abapgit's); without `--include` the path goes as it is (the
/// session reads abapGit paths).
fn file_with_include(location: &str, include: Option<Include>) -> Result<String, Failure> {
    let Some(include) = include else {
        return Ok(location.to_string());
    };
    let (path, line) = location
        .rsplit_once(':')
        .ok_or_else(|| Failure::usage(format!("'{location}' has no :LINE")))?;
    let line: u32 = line
        .trim()
        .parse()
        .map_err(|_| Failure::usage(format!("'{location}': '{line}' is not a line number")))?;
    match SourceUnit::from_path(path) {
        Ok(SourceUnit::Class {
            name,
            part: ClassPart::Main,
        }) => Ok(SourceUnit::Class {
            name,
            part: include.part(),
        }
        .location(line)),
        Ok(_) => Err(Failure::usage(format!(
            "--include goes with a class's main file (NAME.clas.abap), not '{path}'"
        ))),
        Err(e) => Err(Failure::usage(e.to_string())),
    }
}

/// `ID:NUMBER:TYPE` → the protocol's message object. The system needs all three parts (the
/// protocol's `MessageArgs`), so a missing type is refused here, before any request.
fn message(text: &str) -> Result<MessageArgs, Failure> {
    let parts: Vec<&str> = text.split([':', '/']).map(str::trim).collect();
    match parts.as_slice() {
        [id, number, ty] if !id.is_empty() && !number.is_empty() && !ty.is_empty() => {
            Ok(MessageArgs {
                id: id.to_uppercase(),
                number: number.to_string(),
                ty: ty.to_uppercase(),
            })
        }
        _ => Err(Failure::usage(
            "a message breakpoint needs ID:NUMBER:TYPE, e.g. 00:001:E",
        )),
    }
}

/// The breakpoints the system refused, as one failure (exit 1) naming each.
fn refused(breakpoints: &[Breakpoint]) -> Option<Failure> {
    let rejected: Vec<&Breakpoint> = breakpoints
        .iter()
        .filter(|bp| bp.status == "rejected")
        .collect();
    let first = rejected.first()?;
    let code = first.code.as_deref().unwrap_or("breakpoint.rejected");
    let each: Vec<String> = rejected
        .iter()
        .map(|bp| format!("{}: {}", super::location(bp), super::detail(bp)))
        .collect();
    let message = if rejected.len() == 1 {
        each.join("")
    } else {
        format!(
            "{} breakpoints refused: {}",
            rejected.len(),
            each.join("; ")
        )
    };
    let failure = Failure::new(code, message);
    Some(match refusal_hint(code) {
        Some(hint) => failure.with_hint(hint),
        None => failure,
    })
}

/// What to do about a refusal, by its code: only a line the system has but cannot stop at
/// asks for another line.
fn refusal_hint(code: &str) -> Option<&'static str> {
    match code {
        "breakpoint.not_executable" => Some("choose a line with an executable statement"),
        "breakpoint.object_not_found" => Some(
            "the system has no such object: check its name ('abapdbg bp set ZCL_<Tab>' \
             completes the names it has) and that it is activated",
        ),
        "breakpoint.condition_error" => {
            Some("the system could not read the condition: check it (--condition)")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_go_into_the_location() {
        assert_eq!(
            with_include("ZCL_X:12", Some(Include::Testclasses)).ok(),
            Some("ZCL_X/testclasses:12".into())
        );
        assert_eq!(
            with_include("ZCL_X:12", Some(Include::LocalsImp)).ok(),
            Some("ZCL_X/locals_imp:12".into())
        );
        assert_eq!(with_include("ZCL_X:12", None).ok(), Some("ZCL_X:12".into()));
        assert!(with_include("PROG:ZREP:9", Some(Include::Macros)).is_err());
        assert_eq!(
            file_with_include("src/zcl_x.clas.abap:5", Some(Include::LocalsDef)).ok(),
            Some("CLAS:ZCL_X/locals_def:5".into())
        );
        assert_eq!(
            file_with_include("src/#ns#cl_x.clas.abap:7", Some(Include::Testclasses)).ok(),
            Some("CLAS:/NS/CL_X/testclasses:7".into()),
            "a namespaced class"
        );
        assert!(
            file_with_include("zcl_x.clas.testclasses.abap:5", Some(Include::Macros)).is_err(),
            "not the main file"
        );
        assert!(file_with_include("zcl_x.clas.abap:x", Some(Include::Macros)).is_err());
        assert_eq!(
            file_with_include("src/zcl_x.clas.abap:5", None).ok(),
            Some("src/zcl_x.clas.abap:5".into())
        );
        assert!(file_with_include("zrep.prog.abap:5", Some(Include::Testclasses)).is_err());
    }

    #[test]
    fn messages() {
        assert_eq!(
            message("00:001:e").ok(),
            Some(MessageArgs {
                id: "00".into(),
                number: "001".into(),
                ty: "E".into()
            })
        );
        assert!(message("00").is_err());
        assert!(message("00:001").is_err(), "the system needs the type");
    }

    #[test]
    fn refusals_become_one_failure() {
        let r = [
            Breakpoint {
                id: 1,
                status: "verified".into(),
                location: "ZCL_X:48".into(),
                ..Breakpoint::default()
            },
            Breakpoint {
                id: 2,
                status: "rejected".into(),
                location: "ZCL_X:30".into(),
                code: Some("breakpoint.not_executable".into()),
                reason: Some("Cannot create a breakpoint at this position".into()),
                ..Breakpoint::default()
            },
        ];
        let f = refused(&r).expect("a failure");
        assert_eq!(f.code, "breakpoint.not_executable");
        assert_eq!(
            f.message,
            "ZCL_X:30: Cannot create a breakpoint at this position"
        );
        assert_eq!(
            f.hint.as_deref(),
            Some("choose a line with an executable statement")
        );
        assert!(refused(&[]).is_none());
        let unknown = [Breakpoint {
            id: 3,
            status: "rejected".into(),
            location: "ZCL_NOPE:5".into(),
            code: Some("breakpoint.object_not_found".into()),
            reason: Some("no such object".into()),
            ..Breakpoint::default()
        }];
        let f = refused(&unknown).expect("a failure");
        let hint = f.hint.unwrap_or_default();
        assert!(hint.contains("no such object"), "{hint}");
        assert!(!hint.contains("executable"), "{hint}");
    }
}
