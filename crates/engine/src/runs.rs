//! The ends of caught programs, and the `run`s and `test`s in flight whose answers those ends
//! carry. `commands/triggers.rs` registers a run (`Inner::runs`); the thread it catches is
//! tagged with it (`Inner::add_thread`); whoever sees that thread end — a movement, the
//! keepalive, a recovery — announces the end here, with the run's answer.

use std::time::Duration;

use jsonl::ErrorBody;
use jsonl::events::EventKind;
use jsonl::results::{EndReason, Ended, RunError, RunReleased, RunResult, RunSummary, TestResult};

use crate::engine::{Engine, Origin};

/// How long the end of a thread waits for the answer of the run that caught it. The trigger's
/// HTTP answer normally follows the end of the program within milliseconds.
const RUN_ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Whose answer the end of a thread paired with a run carries.
enum Pick {
    /// The run's own: it answered (or the wait is over).
    Own,
    /// Another run of the same program answered while the thread paired with it is still
    /// stopped: the program that ended was that run's.
    Other(u64),
    /// No answer yet.
    Wait,
    /// The run is forgotten.
    Gone,
}

fn pick(inner: &crate::engine::Inner, run: u64) -> Pick {
    let Some(own) = inner.runs.get(&run) else {
        return Pick::Gone;
    };
    if own.answer.is_some() {
        return Pick::Own;
    }
    let other = inner.runs.iter().find(|(id, r)| {
        **id != run
            && r.answer.is_some()
            && r.program.eq_ignore_ascii_case(&own.program)
            && r.thread.is_some_and(|t| inner.threads.contains_key(&t))
    });
    match other {
        Some((id, _)) => Pick::Other(*id),
        None => Pick::Wait,
    }
}

/// What a `run` or a `test` answered.
#[derive(Debug, Clone)]
pub(crate) enum RunAnswer {
    Run(RunResult),
    Test(TestResult),
}

/// Where the answer of a run's request goes.
pub(crate) type Reply = tokio::sync::oneshot::Sender<Result<RunAnswer, ErrorBody>>;

/// The trigger that will answer `run`: its own, unless the two traded (`Inner::answers_to`).
fn trigger_of(inner: &crate::engine::Inner, run: u64) -> u64 {
    inner
        .answers_to
        .iter()
        .find(|(_, to)| **to == run)
        .map_or(run, |(trigger, _)| *trigger)
}

/// The run whose program just ended when the trigger paired with `run` answered, if not
/// `run` itself: `run`'s thread is held stopped, so the program that ended is not the one it
/// caught. Runs of one program by one user are paired with catches in the order they
/// started, not the order the system caught them in; so the run told that its program was
/// let go beyond the thread cap may have started a program that is stopped, and the program
/// let go is this trigger's. That run, still waiting, takes this answer.
fn released_in_its_place(inner: &crate::engine::Inner, run: u64) -> Option<u64> {
    let own = inner.runs.get(&run)?;
    let held = own
        .thread
        .and_then(|t| inner.threads.get(&t))
        .is_some_and(|d| !d.running);
    if !held {
        return None;
    }
    inner
        .runs
        .iter()
        .find(|(id, r)| {
            **id != run
                && r.thread.is_none()
                && r.released.is_some()
                && r.answer.is_none()
                && r.program.eq_ignore_ascii_case(&own.program)
                && inner.run_replies.contains_key(id)
        })
        .map(|(id, _)| *id)
}

/// The trigger started by run `trigger` answered (its program ended): hands the answer to the
/// request of the run it is for. That is the trigger's own run, or the run told that its
/// program was let go when the program that ended is that one ([`released_in_its_place`]);
/// the two runs then trade triggers. A run that caught a thread keeps the answer for that
/// thread's end; a run let go beyond the cap (`max_threads`) answers saying so.
pub(crate) fn deliver(
    engine: &Engine,
    trigger: u64,
    outcome: Result<RunAnswer, ErrorBody>,
    max_threads: usize,
) {
    let (reply, released) = engine.update(|inner| {
        let mut run = inner.answers_to.remove(&trigger).unwrap_or(trigger);
        if let Some(other) = released_in_its_place(inner, run) {
            let theirs = trigger_of(inner, other);
            inner.answers_to.insert(theirs, run);
            tracing::debug!("run {other} was let go in the place of run {run}: they trade answers");
            run = other;
        }
        let released = match inner.runs.get_mut(&run) {
            Some(link) if link.thread.is_some() => {
                link.answer = Some(outcome.clone());
                None
            }
            Some(_) => inner.runs.remove(&run).and_then(|link| link.released),
            None => None,
        };
        (inner.run_replies.remove(&run), released)
    });
    // Its program was caught beyond the thread cap and let go: the answer says so, as the
    // run's client waits for a stop that never came.
    let answer = match (outcome, released) {
        (outcome, None) => outcome,
        (Ok(answer), Some(how)) => {
            let released = Some(RunReleased { how, max_threads });
            Ok(match answer {
                RunAnswer::Run(r) => RunAnswer::Run(RunResult { released, ..r }),
                RunAnswer::Test(t) => RunAnswer::Test(TestResult { released, ..t }),
            })
        }
        (Err(e), Some(how)) => Err(e.with_hint(format!(
            "the program was caught while the session held {max_threads} programs (serve --max-threads) and let go ({how}); run it again once one of them ended"
        ))),
    };
    if let Some(reply) = reply {
        // A request that was given up on has nobody to tell.
        let _ = reply.send(answer);
    }
}

/// Says that `thread` ended (`debuggee.ended`), with the answer of the run that caught it
/// (`run`, when one did: see [`run_answer`]), and keeps it as the session's last end. The
/// caller has forgotten the thread already. Returns the end as the event carried it.
pub(crate) async fn announce_end(
    engine: &Engine,
    thread: u32,
    reason: EndReason,
    message: Option<String>,
    run: Option<u64>,
    cause: Option<&Origin>,
) -> Ended {
    let mut ended = Ended {
        thread,
        reason,
        message,
        output: None,
        test: None,
        run: None,
    };
    if let Some(run) = run {
        run_answer(engine, run, &mut ended).await;
    }
    engine.emit(EventKind::Ended(Box::new(ended.clone())), cause);
    ended
}

/// Adds to the end of a thread the answer of the run that caught it: `output` (`test`: the
/// unit result as `test`) and a `run` summary. Waits for the answer at most
/// [`RUN_ANSWER_WAIT`]; past that, the summary says `pending` and the answer goes to the run's
/// request only. The run is forgotten either way.
///
/// Catches of one program were paired with its runs in the order the runs started
/// (`Inner::claim_run`), which may not be the order the system caught them in. The program
/// that just ended is the one whose run answers now: when it is another run of the same
/// program than the one this thread was paired with (that one's own thread is still
/// stopped), the two trade places — this end carries the answer that came, and the other
/// thread is paired with this thread's run.
async fn run_answer(engine: &Engine, run: u64, ended: &mut Ended) {
    let mut rx = engine.watch();
    let deadline = tokio::time::Instant::now() + RUN_ANSWER_WAIT;
    let link = loop {
        let pick = pick(&engine.lock(), run);
        let pick = match pick {
            Pick::Gone => return, // already forgotten: nothing to say
            Pick::Wait => {
                if matches!(
                    tokio::time::timeout_at(deadline, rx.changed()).await,
                    Ok(Ok(()))
                ) {
                    continue;
                }
                Pick::Own // time is up: the run's own link, still without an answer
            }
            p => p,
        };
        let taken = engine.update(|inner| match pick {
            Pick::Other(other) => {
                let link = inner.runs.remove(&other)?;
                if let Some(t) = link.thread {
                    if let Some(d) = inner.thread_mut(t) {
                        d.run = Some(run);
                    }
                    if let Some(ours) = inner.runs.get_mut(&run) {
                        ours.thread = Some(t);
                    }
                }
                Some(link)
            }
            _ => inner.runs.remove(&run),
        });
        match taken {
            Some(link) => break link,
            None => return,
        }
    };
    let is_class = link.kind == "class";
    let mut summary = RunSummary {
        cmd: link.cmd.to_string(),
        class: is_class.then(|| link.name.clone()),
        program: (!is_class).then(|| link.name.clone()),
        ok: None,
        error: None,
        pending: None,
    };
    match link.answer {
        Some(Ok(answer)) => {
            summary.ok = Some(true);
            match answer {
                RunAnswer::Run(result) => ended.output = Some(result.output),
                RunAnswer::Test(result) => ended.test = Some(result),
            }
        }
        Some(Err(ErrorBody { code, message, .. })) => {
            summary.ok = Some(false);
            summary.error = Some(RunError { code, message });
        }
        None => summary.pending = Some(true),
    }
    ended.run = Some(summary);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::debuggee::Attached;
    use crate::engine::{Inner, RunLink};

    const POOL: &str = "ZCL_X=========================CP";

    fn attached(thread: u32) -> Attached {
        let config = adt::Config {
            base_url: "http://127.0.0.1:9".into(),
            ..Default::default()
        };
        let client = adt::Client::new(&config, adt::SessionMode::Stateful).expect("client");
        let record = adt::Debuggee {
            program: POOL.into(),
            ..Default::default()
        };
        Attached::new(thread, client, record)
    }

    fn run(inner: &mut Inner, id: u64, thread: Option<u32>, answered: bool) {
        inner.runs.insert(
            id,
            RunLink {
                cmd: "run",
                kind: "class",
                name: "ZCL_X".into(),
                program: POOL.into(),
                thread,
                answer: answered.then(|| {
                    Ok(RunAnswer::Run(RunResult {
                        class: Some("ZCL_X".into()),
                        program: None,
                        output: format!("run {id}"),
                        released: None,
                    }))
                }),
                released: None,
                origin: None,
            },
        );
    }

    fn output(text: &str) -> Result<RunAnswer, ErrorBody> {
        Ok(RunAnswer::Run(RunResult {
            class: Some("ZCL_X".into()),
            program: None,
            output: text.into(),
            released: None,
        }))
    }

    type Answered = tokio::sync::oneshot::Receiver<Result<RunAnswer, ErrorBody>>;

    fn received(rx: &mut Answered) -> Option<RunResult> {
        match rx.try_recv() {
            Ok(Ok(RunAnswer::Run(r))) => Some(r),
            _ => None,
        }
    }

    /// Run 1 was paired with the first catch (thread 1, still stopped), run 2 told that its
    /// program was let go beyond the cap; the trigger of run 1 answers first: the program
    /// that ended is the one let go.
    fn let_go_beside_a_held_thread(running: bool) -> (Arc<Engine>, Answered, Answered) {
        let config = adt::Config {
            base_url: "http://127.0.0.1:9".into(),
            ..Default::default()
        };
        let engine = Engine::new(crate::config::EngineConfig::new(
            config,
            adt::Identity {
                user: "DEVELOPER".into(),
                terminal_id: "T".into(),
                ide_id: "I".into(),
            },
        ))
        .expect("engine");
        let (tx1, rx1) = tokio::sync::oneshot::channel();
        let (tx2, rx2) = tokio::sync::oneshot::channel();
        engine.update(|inner| {
            let mut held = attached(1);
            held.running = running;
            inner.threads.insert(1, held);
            run(inner, 1, Some(1), false);
            run(inner, 2, None, false);
            if let Some(link) = inner.runs.get_mut(&2) {
                link.released = Some("continued".into());
            }
            inner.run_replies.insert(1, tx1);
            inner.run_replies.insert(2, tx2);
        });
        (engine, rx1, rx2)
    }

    #[tokio::test]
    async fn the_run_told_its_program_was_let_go_gets_the_answer_that_came_beside_a_held_thread() {
        let (engine, mut rx1, mut rx2) = let_go_beside_a_held_thread(false);
        deliver(&engine, 1, output("first"), 4);
        let two = received(&mut rx2).expect("run 2 answered");
        assert_eq!(two.output, "first");
        assert_eq!(
            two.released.map(|r| (r.how, r.max_threads)),
            Some(("continued".to_string(), 4))
        );
        assert!(
            received(&mut rx1).is_none(),
            "run 1's program is still held"
        );
        // Run 1 now answers with what run 2's trigger brings, kept for its thread's end.
        deliver(&engine, 2, output("second"), 4);
        let one = received(&mut rx1).expect("run 1 answered");
        assert_eq!(one.output, "second");
        assert!(one.released.is_none());
        let inner = engine.lock();
        assert!(inner.runs.get(&1).is_some_and(|l| l.answer.is_some()));
        assert!(!inner.runs.contains_key(&2));
        assert!(inner.run_replies.is_empty() && inner.answers_to.is_empty());
    }

    #[tokio::test]
    async fn a_trigger_answers_its_own_run_when_that_run_s_thread_is_moving() {
        // Thread 1 is being continued: its program may be the one that ended.
        let (engine, mut rx1, mut rx2) = let_go_beside_a_held_thread(true);
        deliver(&engine, 1, output("first"), 4);
        assert_eq!(
            received(&mut rx1).map(|r| r.output).as_deref(),
            Some("first")
        );
        assert!(received(&mut rx2).is_none());
        deliver(&engine, 2, output("second"), 4);
        let two = received(&mut rx2).expect("run 2 answered");
        assert_eq!(two.output, "second");
        assert!(two.released.is_some());
    }

    #[test]
    fn an_end_takes_the_answer_of_the_run_whose_program_ended() {
        // Thread 1 (paired with run 1) ended; thread 2 (paired with run 2) is still stopped.
        let mut inner = Inner::default();
        inner.threads.insert(2, attached(2));
        run(&mut inner, 1, Some(1), false);
        run(&mut inner, 2, Some(2), false);
        assert!(matches!(pick(&inner, 1), Pick::Wait));
        // Run 2 answers, although its thread is still stopped: the program that ended was
        // run 2's.
        run(&mut inner, 2, Some(2), true);
        assert!(matches!(pick(&inner, 1), Pick::Other(2)));
        // Its own answer wins when both came.
        run(&mut inner, 1, Some(1), true);
        assert!(matches!(pick(&inner, 1), Pick::Own));
        // A run whose thread is gone too is being ended by someone else: not taken.
        let mut inner = Inner::default();
        run(&mut inner, 1, Some(1), false);
        run(&mut inner, 2, Some(2), true);
        assert!(matches!(pick(&inner, 1), Pick::Wait));
        assert!(matches!(pick(&inner, 9), Pick::Gone));
    }
}
