//! Where `export` writes: a file of ours alone, never one another local user can point us at.
//!
//! Without a `file`, an export goes into a directory this session made for itself (a fresh
//! random name, 0700, created exclusively: `tempfile`'s `mkdtemp`), in a file created
//! exclusively (`O_EXCL`, 0600); the directory goes when the session ends. A `file` the user
//! names is opened without following a link in its last component and without blocking (a
//! FIFO there fails at once instead of hanging the request), and written only when it is a
//! regular file of this user; a new one is made 0600.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The session's own directory for exports, made at the first export that needs it.
#[derive(Debug, Default)]
pub(crate) struct ExportDir {
    dir: Mutex<Option<tempfile::TempDir>>,
}

impl ExportDir {
    /// A new file of ours for an export of `stem` (`LT_ITEMS`) in format `ext`: its path and
    /// the open file.
    pub(crate) fn create(&self, stem: &str, ext: &str) -> io::Result<(PathBuf, File)> {
        let mut dir = self.dir.lock().unwrap_or_else(|p| p.into_inner());
        // Made again when something removed it under us.
        if dir.as_ref().is_none_or(|d| !d.path().is_dir()) {
            *dir = Some(private_builder("abapdbg-exports-", "", 0o700).tempdir()?);
        }
        let Some(d) = dir.as_ref() else {
            return Err(io::Error::other("no export directory"));
        };
        let (file, path) = private_builder(&format!("{stem}-"), &format!(".{ext}"), 0o600)
            .tempfile_in(d.path())?
            .keep()
            .map_err(|e| e.error)?;
        Ok((path, file))
    }

    /// Removes the directory and what is left in it (the session ends).
    pub(crate) fn remove(&self) {
        let taken = self.dir.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(d) = taken {
            let _ = d.close();
        }
    }
}

/// A builder of names nobody can guess, for a directory (0700) or a file (0600) made
/// exclusively.
fn private_builder<'a>(prefix: &'a str, suffix: &'a str, mode: u32) -> tempfile::Builder<'a, 'a> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix).suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = mode;
    b
}

/// Opens the file a user named for an export: a new file is created 0600; an existing one
/// is written only when it is a regular file of this user (not a link, a FIFO or a device).
pub(crate) fn open_named(path: &Path) -> io::Result<File> {
    let file = open_no_follow(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a directory)",
        ));
    }
    check_owner(&meta)?;
    file.set_len(0)?;
    Ok(file)
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                io::Error::new(io::ErrorKind::InvalidInput, "it is a symbolic link")
            } else if e.raw_os_error() == Some(libc::ENXIO) {
                io::Error::new(io::ErrorKind::InvalidInput, "it is a FIFO nobody reads")
            } else {
                e
            }
        })
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .open(path)
}

/// Reads a file of ours (a cache): refused when it is a link, not a regular file, or
/// another user's.
pub(crate) fn read_own(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    check_owner(&meta)?;
    let mut out = Vec::new();
    // A cache is small; a bigger file is not one of ours.
    file.take(1 << 20).read_to_end(&mut out)?;
    Ok(out)
}

/// Replaces `path` with `bytes` in a new 0600 file made exclusively beside it and renamed
/// over it: a link at `path` is replaced, never followed.
pub(crate) fn write_own(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("no directory"))?;
    let mut tmp = private_builder(".discovery-", ".tmp", 0o600).tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(unix)]
fn check_owner(meta: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("it belongs to another user (uid {})", meta.uid()),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_meta: &std::fs::Metadata) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_of_our_own_are_0600_in_a_0700_directory_and_go_with_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = ExportDir::default();
        let (a, _) = dir.create("LT_X", "csv").expect("a");
        let (b, _) = dir.create("LT_X", "csv").expect("b");
        assert_ne!(a, b, "each export a file of its own");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&a), 0o600);
        assert_eq!(mode(a.parent().expect("dir")), 0o700);
        dir.remove();
        assert!(!a.exists() && !a.parent().expect("dir").exists());
        // Made again on the next export.
        let (c, _) = dir.create("LT_X", "json").expect("c");
        assert!(c.exists());
        dir.remove();
    }

    #[test]
    fn a_named_file_is_never_a_link_a_fifo_or_another_users() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("tmp");
        let new = root.path().join("new.csv");
        drop(open_named(&new).expect("new"));
        assert_eq!(
            std::fs::metadata(&new).expect("m").permissions().mode() & 0o777,
            0o600
        );
        let target = root.path().join("precious");
        std::fs::write(&target, "keep").expect("w");
        let link = root.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).expect("ln");
        assert!(open_named(&link).is_err());
        assert_eq!(std::fs::read_to_string(&target).expect("r"), "keep");
        let fifo = root.path().join("fifo.csv");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("c");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        assert!(open_named(&fifo).is_err());
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // An existing regular file of ours is written over.
        std::fs::write(&new, "old content").expect("w");
        drop(open_named(&new).expect("again"));
        assert_eq!(std::fs::read_to_string(&new).expect("r"), "");
    }
}
