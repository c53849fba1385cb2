//! DAP's base protocol: `Content-Length: N\r\n\r\n` and N bytes of JSON, in both directions.
//!
//! Reading never panics and never waits for bytes a header did not announce: every malformed
//! message is a typed [`FramingError`]. Sizes are bounded, so a hostile length cannot make the
//! adapter allocate without limit.

use std::io::{BufRead, Write};

use serde_json::Value;

/// Largest message body accepted (a `setBreakpoints` of a huge file is far below this).
pub const MAX_CONTENT_BYTES: usize = 16 * 1024 * 1024;
/// Longest header line accepted, and most header lines in one message.
const MAX_HEADER_LINE: usize = 1024;
const MAX_HEADER_LINES: usize = 32;

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FramingError {
    #[error("reading the input: {0}")]
    Io(#[from] std::io::Error),
    /// A header without `Content-Length`.
    #[error("a message header without Content-Length")]
    MissingLength,
    #[error("Content-Length '{0}' is not a number")]
    BadLength(String),
    #[error("a message of {0} bytes is over the limit of {MAX_CONTENT_BYTES}")]
    TooLarge(usize),
    #[error("a header line is not 'Name: value': {0:?}")]
    BadHeader(String),
    #[error("a header line or header is too long")]
    HeaderTooLong,
    /// The input ended inside a message.
    #[error("the input ended inside a message")]
    Truncated,
    #[error("the message body is not UTF-8 JSON: {0}")]
    BadJson(String),
}

impl FramingError {
    /// Whether reading can go on after this error: only when the whole message was read and
    /// just its body was bad. After any other error the stream is out of step (where the next
    /// message starts is unknown), so the adapter ends, releasing what it holds.
    pub fn recoverable(&self) -> bool {
        matches!(self, FramingError::BadJson(_))
    }
}

/// Reads one header line (up to `\n`), bounded; `None` at the end of the input before any byte.
fn header_line(input: &mut impl BufRead) -> Result<Option<String>, FramingError> {
    let mut line = Vec::new();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return if line.is_empty() {
                Ok(None)
            } else {
                Err(FramingError::Truncated)
            };
        }
        match buf.iter().position(|b| *b == b'\n') {
            Some(i) => {
                line.extend_from_slice(&buf[..i]);
                input.consume(i + 1);
                break;
            }
            None => {
                let n = buf.len();
                line.extend_from_slice(buf);
                input.consume(n);
            }
        }
        if line.len() > MAX_HEADER_LINE {
            return Err(FramingError::HeaderTooLong);
        }
    }
    if line.len() > MAX_HEADER_LINE {
        return Err(FramingError::HeaderTooLong);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Reads the next message body; `Ok(None)` at a clean end of the input.
pub fn read_body(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut length: Option<Result<usize, FramingError>> = None;
    let mut lines = 0;
    loop {
        let Some(line) = header_line(input)? else {
            return if lines == 0 {
                Ok(None)
            } else {
                Err(FramingError::Truncated)
            };
        };
        if line.is_empty() {
            if lines == 0 {
                // Blank lines between messages are tolerated.
                continue;
            }
            break;
        }
        lines += 1;
        if lines > MAX_HEADER_LINES {
            return Err(FramingError::HeaderTooLong);
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(FramingError::BadHeader(line));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            length = Some(match value.parse::<usize>() {
                Ok(n) if n > MAX_CONTENT_BYTES => Err(FramingError::TooLarge(n)),
                Ok(n) => Ok(n),
                Err(_) => Err(FramingError::BadLength(value.to_string())),
            });
        }
    }
    let length = length.ok_or(FramingError::MissingLength)??;
    let mut body = vec![0u8; length];
    let mut filled = 0;
    while filled < length {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Err(FramingError::Truncated);
        }
        let n = buf.len().min(length - filled);
        body[filled..filled + n].copy_from_slice(&buf[..n]);
        input.consume(n);
        filled += n;
    }
    Ok(Some(body))
}

/// Reads the next message as JSON; `Ok(None)` at a clean end of the input.
pub fn read_message(input: &mut impl BufRead) -> Result<Option<Value>, FramingError> {
    match read_body(input)? {
        None => Ok(None),
        Some(body) => serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| FramingError::BadJson(e.to_string())),
    }
}

/// The bytes of one message: header and body.
pub fn encode(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Writes one message and flushes it.
pub fn write_message(output: &mut impl Write, message: &Value) -> std::io::Result<()> {
    output.write_all(&encode(message))?;
    output.flush()
}
