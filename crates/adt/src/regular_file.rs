//! Reading a file the user named only when it is a regular file, and only so much of it: a
//! FIFO there would hang every command at its open, a device such as `/dev/zero` would be read
//! until memory ran out (issue 25).

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("it is larger than {0} bytes; is it the right file?")]
    TooLarge(u64),
}

/// The bytes of the regular file at `path` (symbolic links followed), at most `max` of them.
/// Opened without blocking, so a FIFO is refused at once instead of waiting for a writer.
pub(crate) fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(FileError::NotRegular(if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_socket() {
            "a socket"
        } else if kind.is_dir() {
            "a directory"
        } else {
            "something else"
        }));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(FileError::TooLarge(max));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn fifo(name: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a NUL-terminated path; mkfifo only reads it.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        path
    }

    #[test]
    fn fifos_and_devices_are_refused_at_once_and_files_are_bounded() {
        let started = Instant::now();
        let path = fifo("abapdbg-regular-fifo");
        let e = read_regular(&path, 1024).expect_err("a FIFO is refused");
        assert!(matches!(e, FileError::NotRegular("a FIFO")), "{e}");
        let _ = std::fs::remove_file(&path);
        let e = read_regular(Path::new("/dev/zero"), 1024).expect_err("a device is refused");
        assert!(
            matches!(e, FileError::NotRegular("a character device")),
            "{e}"
        );
        assert!(started.elapsed() < Duration::from_secs(2));

        let big = std::env::temp_dir().join(format!("abapdbg-regular-big-{}", std::process::id()));
        std::fs::write(&big, vec![b'x'; 2048]).expect("write");
        assert!(matches!(
            read_regular(&big, 1024),
            Err(FileError::TooLarge(1024))
        ));
        assert_eq!(read_regular(&big, 4096).expect("read").len(), 2048);
        let _ = std::fs::remove_file(&big);
    }
}
