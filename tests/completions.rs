//! Shell completion and the coproc recipe, as a shell user meets them: the checked-in bash and
//! zsh scripts are what the binary generates; real bash and real zsh in a pseudo-terminal
//! (tmux) complete live variable names, components, breakpoint ids and object names from a
//! session stopped on the embedded simulator; with no session, a completion is silent, quick
//! and starts nothing; the coproc example under examples/ runs.
//! Each test has its own runtime and state directories and ends its session on drop.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use e2e::abapdbg_bin;

/// Variables of the caller that would choose another system or session; cleared for every call.
const INHERITED: &[&str] = &[
    "ABAPDBG_URL",
    "ABAPDBG_USER",
    "ABAPDBG_PASSWORD",
    "ABAPDBG_CLIENT",
    "ABAPDBG_LANGUAGE",
    "ABAPDBG_ALLOW_WRITES",
    "ABAPDBG_PROFILE",
    "ABAPDBG_LOG",
    "COMPLETE",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// `abapdbg` as the shell runs it from PATH (argv[0] = `abapdbg`, which the generated scripts
/// name), with only the variables given.
fn abapdbg(env: &[(&str, String)]) -> Command {
    let mut cmd = Command::new(abapdbg_bin());
    cmd.arg0("abapdbg").stdin(Stdio::null());
    for k in INHERITED {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The checked-in scripts are exactly what `COMPLETE=<shell> abapdbg` prints: they never go
/// stale. `ABAPDBG_BLESS=1` rewrites them.
#[test]
fn checked_in_scripts_are_what_the_binary_generates() {
    for (shell, file) in [("bash", "abapdbg.bash"), ("zsh", "_abapdbg")] {
        let out = abapdbg(&[("COMPLETE", shell.to_string())])
            .output()
            .expect("run abapdbg");
        assert!(out.status.success(), "COMPLETE={shell}: {}", text(&out));
        let generated = String::from_utf8(out.stdout).expect("script is UTF-8");
        assert!(
            generated.contains("abapdbg"),
            "the {shell} script names the binary: {generated}"
        );
        let path = repo().join("completions").join(file);
        if std::env::var_os("ABAPDBG_BLESS").is_some() {
            std::fs::write(&path, &generated).expect("write script");
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == generated,
            "{} is stale: regenerate it with `COMPLETE={shell} abapdbg > completions/{file}` \
             (or ABAPDBG_BLESS=1 cargo test -p e2e --test completions)",
            path.display()
        );
    }
}
