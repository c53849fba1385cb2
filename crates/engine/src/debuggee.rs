//! One caught program: its own stateful ADT session, and how its stops are described.

use std::sync::Arc;

use jsonl::results::{StopReason as Kind, Stopped};

use crate::at::Position;
use crate::engine::Engine;
use crate::reads::StopReads;

/// The scopes a frame usually has: a batched read of a stop asks for their children along
/// with `@ROOT`'s, so showing the stop's variables needs no request of its own. Asking for a
/// scope a frame does not have costs nothing (the system skips unknown parents).
pub(crate) const SCOPES: [&str; 3] = ["@PARAMETERS", "@LOCALS", "@GLOBALS"];

/// What a batched read of a stop asks children for: `@ROOT`, the scopes seen last, and the
/// usual ones.
pub(crate) fn stop_parents(seen: &[String]) -> Vec<String> {
    let mut parents = vec!["@ROOT".to_string()];
    for s in seen.iter().map(String::as_str).chain(SCOPES) {
        if !parents.iter().any(|p| p == s) {
            parents.push(s.to_string());
        }
    }
    parents
}

/// A debuggee we attached to. One stateful session per debuggee (adt-wire.md §1.3).
pub(crate) struct Attached {
    pub(crate) thread: u32,
    pub(crate) client: adt::Client,
    pub(crate) record: adt::Debuggee,
    /// A step or continue is in flight.
    pub(crate) running: bool,
    /// The body of the last `stopped` event of this thread (its `frame` is the top frame with
    /// its source lines); `None` until the first stop is described.
    pub(crate) stop: Option<Stopped>,
    /// The stack read at the last stop (innermost first): `stack` answers it for the epoch
    /// it was read at.
    pub(crate) stack: Vec<adt::StackEntry>,
    /// The epoch `stack` was read at.
    pub(crate) stack_epoch: u64,
    /// The frame selected with `frame` (0 = innermost): the frame requests that name none act
    /// on. Reset on every stop.
    pub(crate) selected: usize,
    /// Stops of this thread so far: a request that waited while the program moved on knows
    /// its stop is gone (`at.rs`).
    pub(crate) stops: u64,
    /// The frame the debug session is positioned at, held by whoever reads through it.
    pub(crate) position: Position,
    /// Variable reads of this stop, per frame; a stop or `set` forgets them.
    pub(crate) reads: StopReads,
    /// The scope ids (`@PARAMETERS`, `@LOCALS`, …) of the last stop's top frame: the next
    /// batched step asks for their children too (with the usual scopes, [`SCOPES`]).
    pub(crate) scopes: Vec<String>,
    /// The `run`/`test` in flight that caught this program (`Inner::runs`), tagged at catch.
    pub(crate) run: Option<u64>,
    /// Its session was lost and is being recovered (`recovery.rs`): commands wait.
    pub(crate) recovering: bool,
}

/// Keeps a combined read of `@ROOT` and scope ids as the stop's reads: the root's children
/// always, and the children of every scope the root names when the read asked for all of
/// them (asking for more scopes than the frame has is fine; missing one means `vars` reads
/// the scopes itself).
pub(crate) fn remember_reads(d: &mut Attached, parents: &[String], answer: adt::ChildVariables) {
    let root = ["@ROOT".to_string()];
    let scopes: Vec<String> = answer
        .hierarchies
        .iter()
        .filter(|h| h.parent_id == "@ROOT" && h.child_id.starts_with('@'))
        .map(|h| h.child_id.to_string())
        .collect();
    if !answer.hierarchies.iter().any(|h| h.parent_id == "@ROOT") {
        return; // e.g. a zero-byte answer: nothing we can trust
    }
    // A batched read of a stop is a read of its innermost frame.
    let top = d.reads.frame_mut(0);
    top.keep_children(&root, &answer);
    if scopes.iter().all(|s| parents.contains(s)) {
        top.keep_children(&scopes, &answer);
    }
    d.scopes = scopes;
}

impl Attached {
    pub(crate) fn new(thread: u32, client: adt::Client, record: adt::Debuggee) -> Attached {
        Attached {
            thread,
            client,
            record,
            running: false,
            stop: None,
            stack: Vec::new(),
            stack_epoch: 0,
            selected: 0,
            stops: 0,
            position: crate::at::innermost(),
            reads: StopReads::default(),
            scopes: Vec::new(),
            run: None,
            recovering: false,
        }
    }
}

/// Why the program stopped.
pub(crate) enum StopReason {
    /// Server ids of the breakpoints reached.
    Breakpoint(Vec<String>),
    Step,
    /// The watchpoints that fired.
    Watchpoint(Vec<adt::ReachedWatchpoint>),
}

/// The stack and the children of `parents` in one batch (two requests on systems without
/// one). The variables are `None` when their part failed: the stop is shown all the same.
async fn stack_and_variables(
    client: &adt::Client,
    parents: &[String],
) -> Result<(adt::Stack, Option<adt::ChildVariables>), adt::AdtError> {
    let calls = vec![
        adt::BatchCall::stack(),
        adt::BatchCall::child_variables(parents),
    ];
    let unexpected = |status: Option<u16>, message: String, body: &str| adt::AdtError::Unexpected {
        operation: "getStack".into(),
        status,
        message,
        body: body.chars().take(500).collect(),
    };
    let mut answers = client.batch(calls).await?.into_iter();
    let stack = answers
        .next()
        .ok_or_else(|| unexpected(None, "the batch answer has no part for it".into(), ""))??;
    let stack = adt::codec::parse_stack(&stack.body)
        .map_err(|e| unexpected(Some(stack.status), e.0, &stack.body))?;
    let vars = match answers.next() {
        Some(Ok(a)) => adt::codec::parse_child_variables(&a.body).ok(),
        _ => None,
    };
    Ok((stack, vars))
}

/// Reads the stack and describes the stop of `thread`: the body of a `stopped` event. Bumps
/// the epoch and records the stop on the thread (it is no longer running).
pub(crate) async fn describe_stop(
    engine: &Arc<Engine>,
    thread: u32,
    client: &adt::Client,
    reason: StopReason,
) -> Result<Stopped, adt::AdtError> {
    describe_stop_with(engine, thread, client, reason, None, None).await
}

/// Like [`describe_stop`], with the stack and variable reads a batched step already brought
/// (`parents` and the answer for them): the stack is not read again, the variables go into the
/// stop's read cache.
pub(crate) async fn describe_stop_with(
    engine: &Arc<Engine>,
    thread: u32,
    client: &adt::Client,
    reason: StopReason,
    stack: Option<adt::Stack>,
    reads: Option<(Vec<String>, adt::ChildVariables)>,
) -> Result<Stopped, adt::AdtError> {
    let (read, reads) = match stack {
        Some(stack) => (Ok(stack), reads),
        None => {
            // A stop nothing has read yet (a catch, a continue): the stack and the top-level
            // variables in one round trip, so showing the stop asks nothing more.
            let seen = engine
                .lock()
                .threads
                .get(&thread)
                .map(|d| d.scopes.clone())
                .unwrap_or_default();
            let parents = stop_parents(&seen);
            match stack_and_variables(client, &parents).await {
                Ok((stack, vars)) => (Ok(stack), vars.map(|v| (parents, v))),
                Err(e) => (Err(e), None),
            }
        }
    };
    let stack = match read {
        Ok(stack) => stack,
        Err(e) => {
            engine.update(|inner| {
                if let Some(d) = inner.thread_mut(thread) {
                    d.running = false;
                }
            });
            return Err(e);
        }
    };
    let mut frame = stack.entries.first().map(|e| crate::to_proto::frame(0, e));
    if let (Some(top), Some(frame)) = (stack.entries.first(), frame.as_mut()) {
        let context = engine.lock().limits.source_context;
        let source = engine
            .sources
            .context(&engine.main, &top.uri, top.line, context, context)
            .await;
        frame.source = Some(source);
    }
    let mut watch_hits = Vec::new();
    let (reason, server_ids) = match reason {
        // An exception breakpoint (server id KIND=5.…) stops at the CATCH: say so.
        StopReason::Breakpoint(ids) if ids.iter().any(|i| i.starts_with("KIND=5.")) => {
            (Kind::Exception, ids)
        }
        StopReason::Breakpoint(ids) => (Kind::Breakpoint, ids),
        StopReason::Step => (Kind::Step, Vec::new()),
        StopReason::Watchpoint(hits) => {
            watch_hits = hits.iter().map(crate::to_proto::watchpoint_hit).collect();
            (Kind::Watchpoint, Vec::new())
        }
    };
    let stop = engine.update(|inner| {
        inner.epoch += 1;
        let epoch = inner.epoch;
        let ours = inner.breakpoints.ids_for_server_ids(&server_ids);
        let exception = server_ids
            .iter()
            .find_map(|i| i.strip_prefix("KIND=5.EXCEPTION_CLASS="))
            .map(str::to_string);
        let caught_for_dump = ours.iter().find_map(|b| inner.dump_catches.get(b).cloned());
        let stop = Stopped {
            epoch: Some(epoch),
            reason,
            breakpoints: Some(ours),
            server_ids: Some(server_ids),
            thread,
            frame,
            depth: Some(stack.entries.len()),
            exception,
            watchpoints: (!watch_hits.is_empty()).then_some(watch_hits),
            error: None,
            caught_for_dump,
        };
        if let Some(d) = inner.thread_mut(thread) {
            d.running = false;
            d.stack = stack.entries.clone();
            d.stack_epoch = epoch;
            d.selected = 0;
            d.stops += 1;
            // The stop is recorded with its epoch in one step: `wait` never sees the new
            // epoch with the previous stop.
            d.stop = Some(stop.clone());
            d.reads.forget();
            if let Some((parents, answer)) = reads {
                remember_reads(d, &parents, answer);
            }
        }
        stop
    });
    Ok(stop)
}
