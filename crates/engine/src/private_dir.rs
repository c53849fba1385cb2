//! The directory of our own that sockets, locks and state files live in.
//!
//! The directory a variable names (`ABAPDBG_RUNTIME_DIR`, `ABAPDBG_STATE_DIR`, which may be a
//! shared `/tmp`) is never changed: abapdbg keeps its files in a subdirectory it names
//! (`abapdbg`, the session client's rule), created 0700. An existing one is used only when it
//! is a real directory of this user; one that others can enter is tightened only then.

use std::io;
use std::path::Path;

/// Makes `dir` (and any missing parent, with the default mode) or checks the one there: a
/// directory, not a link, owned by this user, entered by nobody else.
pub(crate) fn ensure(dir: &Path) -> io::Result<()> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    match create_private(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    check_existing(dir)
}

#[cfg(unix)]
fn create_private(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn create_private(dir: &Path) -> io::Result<()> {
    std::fs::create_dir(dir)
}

#[cfg(unix)]
fn check_existing(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.file_type().is_dir() {
        return Err(refuse(dir, "is not a directory (a link or a file)"));
    }
    if let Some(uid) = own_uid()
        && meta.uid() != uid
    {
        return Err(refuse(
            dir,
            &format!("belongs to another user (uid {})", meta.uid()),
        ));
    }
    if meta.mode() & 0o077 != 0 {
        // Ours by name and by owner (an older abapdbg, or a tool that made it before us):
        // close it to others before anything of ours goes in.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_existing(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// This process's user: the owner of its `/proc` entry (Linux). Elsewhere unknown, and a
/// directory of another user is then refused by the system when we write into it.
#[cfg(unix)]
fn own_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").ok().map(|m| m.uid())
}

fn refuse(dir: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "{} {why}: abapdbg keeps its sockets and records only in a directory of its own; \
             remove it or point ABAPDBG_RUNTIME_DIR / ABAPDBG_STATE_DIR elsewhere",
            dir.display()
        ),
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).expect("metadata").permissions().mode() & 0o7777
    }

    #[test]
    fn a_shared_parent_keeps_its_mode_and_ours_is_private() {
        let base = std::env::temp_dir().join(format!("abapdbg-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).expect("base");
        std::fs::set_permissions(&base, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
        let ours = base.join("abapdbg");
        ensure(&ours).expect("made");
        assert_eq!(mode(&base), 0o1777);
        assert_eq!(mode(&ours), 0o700);
        // Again: found and accepted as it is.
        ensure(&ours).expect("found");
        // A file or a link where our directory should be is refused.
        let link = base.join("link");
        std::os::unix::fs::symlink(&ours, &link).expect("symlink");
        assert!(ensure(&link).is_err());
        let file = base.join("file");
        std::fs::write(&file, b"x").expect("file");
        assert!(ensure(&file).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }
}
