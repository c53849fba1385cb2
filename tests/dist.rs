//! The release archive (scripts/dist.sh), built from the binaries at hand: it holds both
//! binaries, the completions, the manual pages and the licences, its checksum matches, and the
//! abapdbg in it runs.

use std::path::Path;
use std::process::Command;

use e2e::abapdbg_bin;

#[test]
fn the_archive_holds_what_a_user_installs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let bin_dir = abapdbg_bin()
        .parent()
        .expect("binary directory")
        .to_path_buf();
    assert!(
        bin_dir.join("nu_plugin_abap").exists(),
        "{} not found: build it first with `cargo build -p nu_plugin_abap` (the test script does)",
        bin_dir.join("nu_plugin_abap").display()
    );
    let out = std::env::temp_dir().join(format!("abapdbg-dist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("bash")
        .arg(root.join("scripts/dist.sh"))
        .args(["--bin-dir".as_ref(), bin_dir.as_os_str()])
        .args(["--out".as_ref(), out.as_os_str()])
        .args(["--target", "x86_64-unknown-linux-gnu"])
        .output()
        .expect("run scripts/dist.sh");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "dist.sh: {stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let name = format!(
        "abapdbg-{}-x86_64-unknown-linux-gnu",
        env!("CARGO_PKG_VERSION")
    );
    let archive = format!("{name}.tar.gz");
    assert!(out.join(&archive).is_file(), "{stdout}");

    let check = Command::new("sha256sum")
        .args(["-c", &format!("{archive}.sha256")])
        .current_dir(&out)
        .output()
        .expect("run sha256sum");
    assert!(check.status.success(), "the checksum matches the archive");

    let list = Command::new("tar")
        .args(["-tzf", &archive])
        .current_dir(&out)
        .output()
        .expect("run tar");
    let list = String::from_utf8_lossy(&list.stdout);
    for file in [
        "bin/abapdbg",
        "bin/nu_plugin_abap",
        "completions/abapdbg.bash",
        "completions/_abapdbg",
        "completions/abapdbg.fish",
        "man/man1/abapdbg.1",
        "man/man1/abapdbg-bp-set.1",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "README.md",
    ] {
        assert!(
            list.lines().any(|l| l == format!("{name}/{file}")),
            "{file} is in the archive:\n{list}"
        );
    }

    let unpacked = Command::new("tar")
        .args(["-xzf", &archive])
        .current_dir(&out)
        .status()
        .expect("run tar");
    assert!(unpacked.success());
    let version = Command::new(out.join(&name).join("bin/abapdbg"))
        .arg("--version")
        .output()
        .expect("run the archive's abapdbg");
    assert!(
        String::from_utf8_lossy(&version.stdout).contains("(protocol "),
        "{version:?}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
