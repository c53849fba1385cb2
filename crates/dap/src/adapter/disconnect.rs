//! `terminate`, `disconnect`, and the one release path every way out takes (disconnect, the
//! client's EOF, a broken stream, a signal).
//!
//! What the adapter holds on a shared session: its breakpoints, the programs it showed
//! stopped, and the listener when it was not armed before. Those are released — programs
//! continued, or terminated when asked — and nothing else the session serves is touched. A
//! session this adapter started is shut down instead, which releases everything it holds.

use std::time::{Duration, Instant};

use jsonl::args::{AtArgs, BpIdsArgs, StepType};
use jsonl::cmd;

use super::{Adapter, Failure, Reply};
use crate::config::Mode;

/// How long `disconnect` waits for a session it shut down to end.
const SESSION_END_WAIT: Duration = Duration::from_secs(15);

impl Adapter {
    /// The threads we showed that are stopped now.
    fn our_stopped_threads(&self) -> Vec<u32> {
        let Ok(result) = self.request::<cmd::Threads>(&Default::default()) else {
            return Vec::new();
        };
        result
            .threads
            .iter()
            .filter(|t| !t.running)
            .map(|t| t.thread)
            .filter(|id| self.threads_seen.contains(id) || self.launched())
            .collect()
    }

    fn launched(&self) -> bool {
        matches!(self.config.as_ref().map(|c| &c.mode), Some(Mode::Launch(_)))
    }

    /// `terminate`: ends the programs we debug; the launch ends when its run answers.
    pub(super) fn terminate(&mut self) -> Reply {
        self.link()?;
        let threads = self.our_stopped_threads();
        if threads.is_empty() {
            if self.run_pending {
                // The debug session ends all the same; what the adapter holds is released at
                // the disconnect that follows, and the program runs to its end untouched.
                self.console(
                    "abapdbg: the program is running and ADT can end it only while it is \
                     stopped: it runs on without the debugger",
                );
            }
            self.terminated();
        }
        for thread in threads {
            self.end_program(thread)?;
        }
        Ok(None)
    }

    /// Ends `thread`'s program (`terminate`).
    fn end_program(&mut self, thread: u32) -> Result<(), Failure> {
        self.request::<cmd::Terminate>(&AtArgs {
            thread: Some(thread),
            frame: None,
        })?;
        Ok(())
    }

    /// Waits (bounded) until the session we shut down has removed its socket, so whoever comes
    /// next starts a new one instead of reaching the one that is ending.
    fn wait_for_session_end(&self) {
        let Some(link) = self.link.as_ref() else {
            return;
        };
        let socket = link.session.socket();
        let lock = socket.with_extension("lock");
        // The socket goes first; the lock (`<socket>.lock`) is let go when the process ends.
        let held = || {
            socket.exists()
                || std::fs::File::open(&lock).is_ok_and(|f| {
                    matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock))
                })
        };
        let deadline = Instant::now() + SESSION_END_WAIT;
        while held() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Lets go of everything this adapter holds; `terminate` says what becomes of stopped
    /// programs (`None`: the configuration's default — launched ones end, attached go on).
    /// Runs once; later calls do nothing.
    pub(super) fn release(&mut self, terminate: Option<bool>) {
        if self.released {
            return;
        }
        self.released = true;
        let Some(link) = self.link.as_ref() else {
            return;
        };
        let started_here = link.started_here;
        let listener_was_wanted = link.listener_was_wanted;
        let terminate = terminate.unwrap_or_else(|| {
            self.config
                .as_ref()
                .is_some_and(|c| c.terminate_on_disconnect)
        });
        let mut problems = Vec::new();
        let mut note = |r: Result<(), Failure>| {
            if let Err(Failure(m)) = r {
                problems.push(m);
            }
        };
        // Breakpoints first, so a program let go does not stop again.
        let ids = self.bps.all_ids();
        if !ids.is_empty() {
            note(
                self.request::<cmd::BpDelete>(&BpIdsArgs {
                    ids,
                    ..BpIdsArgs::default()
                })
                .map(drop),
            );
        }
        self.bps.clear();
        for (thread, id) in std::mem::take(&mut self.watchpoints) {
            // It may have expired with its program already.
            let _ = self.delete_watchpoint(thread, id);
        }
        for thread in self.our_stopped_threads() {
            if terminate {
                note(self.end_program(thread));
            } else {
                note(self.resume(thread, StepType::Continue));
            }
        }
        if started_here {
            note(self.request::<cmd::Shutdown>(&Default::default()).map(drop));
            self.wait_for_session_end();
        } else if !listener_was_wanted {
            note(self.request::<cmd::Unlisten>(&Default::default()).map(drop));
        }
        for p in problems {
            self.console(&format!("abapdbg: while releasing: {p}"));
        }
    }
}
