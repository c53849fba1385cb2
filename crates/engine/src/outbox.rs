//! The single writer of protocol lines: assigns `seq` in write order, so it strictly increases.

use jsonl::Outgoing;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

enum Item {
    Line(Outgoing),
    Close,
}

/// Handle to queue lines for the writer task. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Outbox {
    tx: mpsc::UnboundedSender<Item>,
}

impl Outbox {
    /// Starts the writer task; it ends after [`Outbox::close`] once everything queued before it
    /// is written and flushed.
    pub(crate) fn start<W>(mut writer: W) -> (Outbox, tokio::task::JoinHandle<()>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, mut rx) = mpsc::unbounded_channel::<Item>();
        let task = tokio::spawn(async move {
            let mut seq: u64 = 0;
            while let Some(item) = rx.recv().await {
                let Item::Line(out) = item else { break };
                seq += 1;
                let mut line = out.to_line(seq);
                line.push('\n');
                if writer.write_all(line.as_bytes()).await.is_err() || writer.flush().await.is_err()
                {
                    // The client is gone; nobody can read what we would write.
                    break;
                }
            }
            let _ = writer.flush().await;
        });
        (Outbox { tx }, task)
    }

    pub(crate) fn send(&self, out: Outgoing) {
        // A closed writer means the client went away; dropping the line is all we can do.
        let _ = self.tx.send(Item::Line(out));
    }

    pub(crate) fn close(&self) {
        let _ = self.tx.send(Item::Close);
    }
}
