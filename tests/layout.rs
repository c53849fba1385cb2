//! Every crate of the workspace that builds its integration tests as one binary
//! (`autotests = false` with a `[[test]]` root that declares the test files as modules) has
//! no test file left out: with `autotests = false`, a file in the tests folder that no root
//! declares is silently never compiled, and its tests never run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the e2e crate lives in the workspace root")
        .to_path_buf()
}

/// The `members` of the workspace's Cargo.toml.
fn members(root: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).expect("workspace Cargo.toml");
    let list = text
        .split_once("members")
        .and_then(|(_, rest)| rest.split_once('['))
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("a members list");
    list.split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m))
        .collect()
}

/// The values of `key = "…"` lines in the sections named `section` (`[lib]`, `[[test]]`).
fn section_values(manifest: &str, section: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == section;
        } else if inside
            && let Some((k, v)) = line.split_once('=')
            && k.trim() == key
        {
            out.push(v.trim().trim_matches('"').to_string());
        }
    }
    out
}

/// The modules a root file declares from files: `mod name;` lines (a comment may follow).
fn declared_modules(root_file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root_file)
        .unwrap_or_else(|e| panic!("{}: {e}", root_file.display()));
    text.lines()
        .map(str::trim)
        .filter_map(|l| {
            l.strip_prefix("mod ")
                .or_else(|| l.strip_prefix("pub mod "))
        })
        .filter_map(|l| l.split_once(';'))
        .map(|(name, _)| name.trim().to_string())
        .collect()
}

#[test]
fn every_test_file_is_declared_in_its_crates_test_root() {
    let root = workspace_root();
    let mut checked = 0;
    let mut stray = Vec::new();
    for member in members(&root) {
        let Ok(manifest) = std::fs::read_to_string(member.join("Cargo.toml")) else {
            continue;
        };
        let one_binary = manifest
            .lines()
            .any(|l| l.replace(' ', "") == "autotests=false");
        if !one_binary {
            continue;
        }
        let roots: Vec<PathBuf> = section_values(&manifest, "[[test]]", "path")
            .iter()
            .map(|p| member.join(p))
            .collect();
        assert!(
            !roots.is_empty(),
            "{} has autotests = false but no [[test]]",
            member.display()
        );
        let lib: Option<PathBuf> = section_values(&manifest, "[lib]", "path")
            .first()
            .map(|p| member.join(p));
        let mut declared = BTreeSet::new();
        for r in &roots {
            declared.extend(declared_modules(r));
        }
        let folders: BTreeSet<PathBuf> = roots
            .iter()
            .filter_map(|r| r.parent().map(Path::to_path_buf))
            .collect();
        for folder in folders {
            for entry in std::fs::read_dir(&folder).expect("test folder readable") {
                let path = entry.expect("directory entry").path();
                if path.extension().is_none_or(|e| e != "rs")
                    || roots.contains(&path)
                    || lib.as_ref() == Some(&path)
                {
                    continue;
                }
                checked += 1;
                let name = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default()
                    .to_string();
                if !declared.contains(&name) {
                    stray.push(path.display().to_string());
                }
            }
        }
    }
    assert!(checked > 0, "no test files found under {}", root.display());
    assert!(
        stray.is_empty(),
        "test files no [[test]] root declares (add `mod <name>;` to the crate's tests/tests.rs): {stray:?}"
    );
}
