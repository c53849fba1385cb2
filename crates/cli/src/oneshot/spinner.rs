//! The spinner of the waiting commands (`run`, `test`, `wait`, `attach`, `step continue`):
//! elapsed time and where the session stands, on stderr, only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use client::Session;
use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::StatusResult;

use super::ctx::Ctx;

const FRAMES: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK: Duration = Duration::from_millis(100);
/// How often the session's state is asked for (a cheap `status`).
const POLL: Duration = Duration::from_secs(1);
/// Nothing is drawn for waits shorter than this (a quick step would only flicker).
const GRACE: Duration = Duration::from_millis(300);

/// Runs `work` with the spinner on stderr (when it is a terminal); the line is cleared after.
pub(crate) fn while_waiting<T>(ctx: &Ctx, label: &str, work: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let Ok(session) = ctx.session() else {
        return work();
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| spin(session, label, &done));
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

fn spin(session: &Session, label: &str, done: &AtomicBool) {
    let start = Instant::now();
    let mut polled: Option<Instant> = None;
    let mut where_ = String::new();
    let mut frame = 0;
    let mut drawn = false;
    while !done.load(Ordering::Relaxed) {
        if start.elapsed() < GRACE {
            std::thread::sleep(TICK);
            continue;
        }
        drawn = true;
        if polled.is_none_or(|p| p.elapsed() >= POLL) {
            polled = Some(Instant::now());
            if let Ok(status) =
                session.call::<cmd::Status>(&NoArgs {}, POLL * 2, &|| done.load(Ordering::Relaxed))
            {
                where_ = describe(&status);
            }
        }
        let line = format!(
            "\r\x1b[2K{} {label} {}{where_}",
            FRAMES[frame % FRAMES.len()],
            elapsed(start.elapsed())
        );
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        drop(err);
        frame += 1;
        std::thread::sleep(TICK);
    }
    if !drawn {
        return;
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(b"\r\x1b[2K");
    let _ = err.flush();
}

/// ` · listening · listener armed`.
fn describe(status: &StatusResult) -> String {
    let state = status.state.as_str();
    let listener = &status.listener;
    let listener = if listener.armed {
        "listener armed"
    } else if listener.wanted {
        "arming the listener"
    } else {
        "no listener"
    };
    format!(" · {state} · {listener}")
}

pub(crate) fn elapsed(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1}s")
    } else {
        let whole = d.as_secs();
        format!("{}m{:02}s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_reads_well() {
        assert_eq!(elapsed(Duration::from_millis(3_240)), "3.2s");
        assert_eq!(elapsed(Duration::from_secs(125)), "2m05s");
    }

    fn status(state: &str, wanted: bool, armed: bool) -> StatusResult {
        serde_json::from_value(serde_json::json!({"state": state, "epoch": 0,
            "listener": {"wanted": wanted, "armed": armed}, "current_thread": null,
            "debuggee": null, "threads": [], "breakpoints": 0, "allow_writes": false,
            "last_end": null, "system": {"url": "http://x", "user": "U"}}))
        .expect("a status result")
    }

    #[test]
    fn the_listener_state_is_named() {
        let s = status("listening", true, true);
        assert_eq!(describe(&s), " · listening · listener armed");
        let s = status("idle", true, false);
        assert_eq!(describe(&s), " · idle · arming the listener");
    }
}
