//! Where a frame's source comes from: the local abapGit file when the workspace has it, else a
//! `sourceReference` that the `source` request answers from the system.
//!
//! The workspace is the launch configuration's `sourceRoot` folders (searched once, bounded)
//! plus every file the client set breakpoints in.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::abapgit::SourceUnit;

/// Folders deeper than this, and more entries than this, are not searched.
const MAX_DEPTH: usize = 12;
const MAX_ENTRIES: usize = 200_000;
/// Folders never worth searching.
const SKIP: &[&str] = &[".git", "node_modules", "target"];

/// Local abapGit files by file name, and sources handed out by reference.
#[derive(Debug, Default)]
pub struct Sources {
    /// Lower-case file name → path.
    files: HashMap<String, PathBuf>,
    /// `sourceReference` → the source it stands for; lives as long as the adapter.
    by_ref: Vec<SourceUnit>,
}

impl Sources {
    /// Indexes the abapGit files under `roots`.
    pub fn index(roots: &[PathBuf]) -> Sources {
        let mut sources = Sources::default();
        let mut seen = 0usize;
        for root in roots {
            sources.walk(root, 0, &mut seen);
        }
        sources
    }

    fn walk(&mut self, dir: &Path, depth: usize, seen: &mut usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            *seen += 1;
            if *seen > MAX_ENTRIES {
                return;
            }
            let name = entry.file_name().to_string_lossy().to_lowercase();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !SKIP.contains(&name.as_str()) {
                    self.walk(&entry.path(), depth + 1, seen);
                }
            } else if name.ends_with(".abap") {
                self.files.entry(name).or_insert_with(|| entry.path());
            }
        }
    }

    /// Remembers a file the client named (breakpoints), so frames in it show that file; only
    /// when it exists here (a client may name files of another machine).
    pub fn remember(&mut self, path: &str) {
        if !Path::new(path).is_file() {
            return;
        }
        if let Some(name) = Path::new(path).file_name() {
            self.files
                .insert(name.to_string_lossy().to_lowercase(), PathBuf::from(path));
        }
    }

    /// The local file holding `unit`, if the workspace has it.
    pub fn local_file(&self, unit: &SourceUnit) -> Option<&Path> {
        self.local_file_named(&unit.file_name())
    }

    /// The local file of this abapGit file name (a frame's `file`), if the workspace has it.
    pub fn local_file_named(&self, file: &str) -> Option<&Path> {
        self.files.get(&file.to_lowercase()).map(PathBuf::as_path)
    }

    /// A reference for `unit` (the same one each time).
    pub fn reference(&mut self, unit: &SourceUnit) -> i64 {
        match self.by_ref.iter().position(|u| u == unit) {
            Some(i) => i as i64 + 1,
            None => {
                self.by_ref.push(unit.clone());
                self.by_ref.len() as i64
            }
        }
    }

    /// The source a reference stands for.
    pub fn by_reference(&self, reference: i64) -> Option<&SourceUnit> {
        usize::try_from(reference - 1)
            .ok()
            .and_then(|i| self.by_ref.get(i))
    }
}

/// A local path as a `file://` URI (for clients that said `pathFormat: "uri"`).
pub fn path_to_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/._~-".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `file://` URI as a local path; other text is taken as a path already.
pub fn uri_to_path(text: &str) -> String {
    let Some(rest) = text.strip_prefix("file://") else {
        return text.to_string();
    };
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
