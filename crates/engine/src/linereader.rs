//! Reads request lines with a size bound, so a client cannot make us buffer without limit.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub(crate) enum LineRead {
    Line(Vec<u8>),
    /// A line longer than the bound; its bytes were discarded up to the newline.
    TooLong,
    Eof,
}

pub(crate) async fn read_line_bounded<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> std::io::Result<LineRead> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => LineRead::TooLong,
                (false, true) => LineRead::Eof,
                (false, false) => LineRead::Line(line),
            });
        }
        let (chunk, consumed, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(consumed);
        if done {
            if too_long {
                return Ok(LineRead::TooLong);
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(LineRead::Line(line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], max: usize) -> Vec<String> {
        let mut r = tokio::io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            match read_line_bounded(&mut r, max).await.expect("io") {
                LineRead::Line(l) => out.push(String::from_utf8_lossy(&l).into_owned()),
                LineRead::TooLong => out.push("<too long>".into()),
                LineRead::Eof => return out,
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_strips_cr() {
        assert_eq!(all(b"ab\r\ncd\nlast", 100).await, ["ab", "cd", "last"]);
    }

    #[tokio::test]
    async fn long_lines_are_reported_and_skipped() {
        assert_eq!(
            all(b"short\nthis one is far too long\nok\n", 8).await,
            ["short", "<too long>", "ok"]
        );
    }
}
