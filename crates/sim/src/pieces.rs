//! A response body made of pieces sent one after another, its length known before the first
//! is sent (so it goes out with a `content-length`, as a body written in one piece does).
//! The batch answer hands each part's document to hyper as it is instead of copying it into
//! one string: a page of table rows is a megabyte.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};

/// The pieces not sent yet, in order, and their length.
#[derive(Debug, Default)]
pub(crate) struct Pieces {
    queue: VecDeque<Bytes>,
    remaining: u64,
}

impl Pieces {
    /// Appends `piece` (an empty one is left out: it would be an empty frame).
    pub fn push(&mut self, piece: impl Into<Bytes>) {
        let piece = piece.into();
        if piece.is_empty() {
            return;
        }
        self.remaining += piece.len() as u64;
        self.queue.push_back(piece);
    }
}

impl Body for Pieces {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        Poll::Ready(this.queue.pop_front().map(|piece| {
            this.remaining -= piece.len() as u64;
            Ok(Frame::data(piece))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.queue.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_pieces_are_the_body_in_order_with_their_length() {
        let mut p = Pieces::default();
        p.push("--b\r\n");
        p.push(String::new());
        p.push(String::from("<a/>"));
        p.push(Bytes::from_static(b"\r\n--b--\r\n"));
        assert_eq!(p.size_hint().exact(), Some(18));
        assert!(!p.is_end_stream());
        let body = axum::body::to_bytes(axum::body::Body::new(p), usize::MAX)
            .await
            .unwrap();
        assert_eq!(&body[..], b"--b\r\n<a/>\r\n--b--\r\n");
        assert!(Pieces::default().is_end_stream());
        assert_eq!(Pieces::default().size_hint().exact(), Some(0));
    }
}
