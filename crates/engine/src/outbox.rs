//! The single writer of protocol lines: assigns `seq` in write order, so it strictly increases.
//!
//! What waits to be written to one client is bounded ([`MAX_QUEUED_BYTES`]): a client that
//! does not read its answers is dropped once its backlog passes the bound, so it can neither
//! grow the process nor hold back anyone else.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use jsonl::Outgoing;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, watch};

/// Most bytes of lines waiting behind the one being written to a client. The line being
/// written does not count, so one answer of any size reaches a client that reads.
pub(crate) const MAX_QUEUED_BYTES: usize = 32 * 1024 * 1024;

enum Item {
    Line(String),
    Close,
}

/// Lines numbered and not yet written.
#[derive(Default)]
struct Backlog {
    seq: u64,
    /// Sizes of the queued lines, oldest (the one being written) first.
    sizes: VecDeque<usize>,
    total: usize,
}

impl Backlog {
    /// Bytes waiting behind the line being written.
    fn behind_head(&self) -> usize {
        self.total - self.sizes.front().copied().unwrap_or(0)
    }
}

/// What the handles of one client share with its writer task.
struct Shared {
    /// Also serialises numbering and queueing, so lines are queued in `seq` order.
    backlog: Mutex<Backlog>,
    dropped: AtomicBool,
    /// Turns true when the client is dropped for not reading.
    dropped_tx: watch::Sender<bool>,
    writer: Mutex<Option<tokio::task::AbortHandle>>,
}

/// Handle to queue lines for the writer task. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Outbox {
    tx: mpsc::UnboundedSender<Item>,
    shared: Arc<Shared>,
}

impl Outbox {
    /// Starts the writer task; it ends after [`Outbox::close`] once everything queued before it
    /// is written and flushed, or at once when the client is dropped.
    pub(crate) fn start<W>(mut writer: W) -> (Outbox, tokio::task::JoinHandle<()>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, mut rx) = mpsc::unbounded_channel::<Item>();
        let shared = Arc::new(Shared {
            backlog: Mutex::new(Backlog::default()),
            dropped: AtomicBool::new(false),
            dropped_tx: watch::channel(false).0,
            writer: Mutex::new(None),
        });
        let task_shared = shared.clone();
        let task = tokio::spawn(async move {
            while let Some(item) = rx.recv().await {
                let Item::Line(line) = item else { break };
                let written =
                    writer.write_all(line.as_bytes()).await.is_ok() && writer.flush().await.is_ok();
                {
                    let mut backlog = lock(&task_shared.backlog);
                    if let Some(size) = backlog.sizes.pop_front() {
                        backlog.total -= size;
                    }
                }
                if !written {
                    // The client is gone; nobody can read what we would write.
                    break;
                }
            }
            let _ = writer.flush().await;
        });
        *lock(&shared.writer) = Some(task.abort_handle());
        (Outbox { tx, shared }, task)
    }

    pub(crate) fn send(&self, out: Outgoing) {
        if self.shared.dropped.load(Ordering::Acquire) {
            return;
        }
        let mut backlog = lock(&self.shared.backlog);
        let mut line = out.to_line(backlog.seq + 1);
        line.push('\n');
        let waiting = if backlog.sizes.is_empty() {
            0
        } else {
            backlog.behind_head() + line.len()
        };
        if waiting > MAX_QUEUED_BYTES {
            drop(backlog);
            self.drop_client();
            return;
        }
        let size = line.len();
        // A closed writer means the client went away; dropping the line is all we can do.
        if self.tx.send(Item::Line(line)).is_ok() {
            backlog.seq += 1;
            backlog.sizes.push_back(size);
            backlog.total += size;
        }
    }

    pub(crate) fn close(&self) {
        let _ = self.tx.send(Item::Close);
    }

    /// Resolves once the client was dropped for not reading what it asked for.
    pub(crate) async fn dropped(&self) {
        let mut rx = self.shared.dropped_tx.subscribe();
        let _ = rx.wait_for(|d| *d).await;
    }

    /// Gives up on a client that does not read: what was queued for it is freed and its
    /// connection closed (the writer task ends, and with it the stream's write side).
    fn drop_client(&self) {
        if self.shared.dropped.swap(true, Ordering::AcqRel) {
            return;
        }
        tracing::warn!(
            "a client left more than {MAX_QUEUED_BYTES} bytes of answers unread: disconnecting it"
        );
        if let Some(writer) = lock(&self.shared.writer).take() {
            writer.abort();
        }
        // Aborting drops the queue's receiver with the task; forget the sizes too.
        *lock(&self.shared.backlog) = Backlog::default();
        self.shared.dropped_tx.send_replace(true);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonl::{Event, State};
    use serde_json::json;

    fn event(bytes: usize) -> Outgoing {
        Outgoing::Event(Event {
            event: "output".into(),
            state: State::Idle,
            body: json!({ "text": "x".repeat(bytes) }),
            cause: None,
        })
    }

    #[tokio::test]
    async fn a_client_that_does_not_read_is_dropped_at_the_bound() {
        // A pipe nobody reads: the writer blocks in its first line.
        let (_unread, ours) = tokio::io::duplex(1024);
        let (outbox, writer) = Outbox::start(ours);
        let line = MAX_QUEUED_BYTES / 8;
        // The first line is being written; seven wait behind it, under the bound.
        for _ in 0..8 {
            outbox.send(event(line));
        }
        assert!(!outbox.shared.dropped.load(Ordering::Acquire));
        outbox.send(event(line));
        assert!(outbox.shared.dropped.load(Ordering::Acquire));
        outbox.dropped().await;
        // The writer ended, and what was queued is forgotten.
        let _ = writer.await;
        assert_eq!(lock(&outbox.shared.backlog).total, 0);
        outbox.send(event(10));
        assert_eq!(lock(&outbox.shared.backlog).total, 0);
    }

    #[tokio::test]
    async fn one_line_larger_than_the_bound_still_goes_to_a_reading_client() {
        let (mut theirs, ours) = tokio::io::duplex(64 * 1024);
        let (outbox, writer) = Outbox::start(ours);
        outbox.send(event(MAX_QUEUED_BYTES + 10));
        outbox.send(event(1));
        outbox.close();
        let mut all = Vec::new();
        tokio::io::AsyncReadExt::read_to_end(&mut theirs, &mut all)
            .await
            .expect("read");
        let _ = writer.await;
        assert_eq!(all.iter().filter(|b| **b == b'\n').count(), 2);
        assert!(!outbox.shared.dropped.load(Ordering::Acquire));
    }
}
