//! What this session holds on the system, kept in a file so that a session killed without a
//! chance to clean up (SIGKILL, power loss) is released by the next start.
//!
//! The file lives in a directory only the user can enter (0700) and is itself 0600. It holds
//! identities, breakpoint addresses and user-context ids, never credentials. It is rewritten
//! whenever what we hold changes and removed after a clean release.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::engine::Engine;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Snapshot {
    pub(crate) pid: u32,
    /// When the owner process started (Linux: clock ticks since boot, `/proc/<pid>/stat`), so
    /// a pid the system gave to another process since is not taken for the owner.
    #[serde(default)]
    pub(crate) pid_start: Option<u64>,
    pub(crate) base_url: String,
    pub(crate) user: String,
    pub(crate) terminal_id: String,
    pub(crate) ide_id: String,
    pub(crate) listener: bool,
    /// Object sources we hold line breakpoints in (removed with an empty partial sync).
    pub(crate) line_uris: Vec<String>,
    /// Server ids of breakpoints that belong to no object (removed one by one).
    pub(crate) unscoped_server_ids: Vec<String>,
    pub(crate) threads: Vec<HeldThread>,
    /// What an earlier session left and this one could not release yet: kept until it is.
    #[serde(default)]
    pub(crate) leftover: Option<Box<Snapshot>>,
    /// What we hold for other users (`dump.catch` of their dumps): one record per user, with
    /// that user and our terminal and IDE ids, released on that identity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) others: Vec<Snapshot>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct HeldThread {
    pub(crate) thread: u32,
    pub(crate) program: String,
    /// The stateful session that attached it.
    pub(crate) context_id: Option<String>,
    /// The program's debuggee id: it can be attached again, or terminated, from a fresh
    /// session when the attaching one is gone.
    #[serde(default)]
    pub(crate) debuggee_id: Option<String>,
}

/// Why the state file stops a start.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error(
        "another abapdbg serve (pid {pid}) already owns this system and user; share it through its socket (abapdbg serve --relay) or stop it first (state file {path})"
    )]
    Owned { pid: u32, path: PathBuf },
}

pub(crate) fn snapshot(engine: &Engine) -> Snapshot {
    let inner = engine.lock();
    let mut threads: Vec<HeldThread> = inner
        .threads
        .values()
        .map(|d| HeldThread {
            thread: d.thread,
            program: d.record.program.clone(),
            context_id: d.client.context_id(),
            debuggee_id: Some(d.record.id.clone()),
        })
        .collect();
    threads.extend(inner.unreleased.iter().cloned());
    Snapshot {
        pid: std::process::id(),
        pid_start: start_ticks(std::process::id()),
        base_url: engine.config.adt.base_url.clone(),
        user: engine.config.identity.user.clone(),
        terminal_id: engine.config.identity.terminal_id.clone(),
        ide_id: engine.config.identity.ide_id.clone(),
        listener: inner.listener_held(),
        line_uris: uris_of(&inner, None),
        unscoped_server_ids: unscoped_of(&inner, None),
        threads,
        leftover: inner.leftover.clone().map(Box::new),
        others: others(engine, &inner),
    }
}

fn uris_of(inner: &crate::engine::Inner, user: Option<&str>) -> Vec<String> {
    inner
        .breakpoints
        .uris()
        .into_iter()
        .filter(|(_, who)| who.as_deref() == user)
        .map(|(uri, _)| uri)
        .collect()
}

fn unscoped_of(inner: &crate::engine::Inner, user: Option<&str>) -> Vec<String> {
    inner
        .breakpoints
        .unscoped_server_ids()
        .into_iter()
        .filter(|(_, who)| who.as_deref() == user)
        .map(|(id, _)| id)
        .collect()
}

/// Per other user: that user's listener (when one may be registered) and breakpoints.
fn others(engine: &Engine, inner: &crate::engine::Inner) -> Vec<Snapshot> {
    let mut users = inner.breakpoints.other_users();
    for u in inner.other_listeners.keys() {
        if !users.contains(u) {
            users.push(u.clone());
        }
    }
    users
        .into_iter()
        .map(|user| Snapshot {
            base_url: engine.config.adt.base_url.clone(),
            terminal_id: engine.config.identity.terminal_id.clone(),
            ide_id: engine.config.identity.ide_id.clone(),
            listener: inner
                .other_listeners
                .get(&user)
                .is_some_and(|l| l.registered || l.armed),
            line_uris: uris_of(inner, Some(&user)),
            unscoped_server_ids: unscoped_of(inner, Some(&user)),
            user,
            ..Snapshot::default()
        })
        .collect()
}

/// Writes what we hold now and waits until it is on disk: a debuggee is recorded this way
/// before anything is announced about it, so a kill right after the announcement still
/// finds it in the file.
pub(crate) async fn record_now(engine: &Arc<Engine>) {
    let Some(path) = engine.config.state_file.clone() else {
        return;
    };
    let engine = engine.clone();
    let written = tokio::task::spawn_blocking(move || write_if_changed(&engine, &path)).await;
    if let Err(e) = written {
        tracing::warn!("cannot record the state: {e}");
    }
}

/// Writes the current snapshot unless it is what was written last. One writer at a time.
fn write_if_changed(engine: &Engine, path: &Path) {
    let mut last = engine.recorded.lock().unwrap_or_else(|p| p.into_inner());
    if engine.lock().shutting_down {
        return;
    }
    let snap = snapshot(engine);
    if last.as_ref() == Some(&snap) {
        return;
    }
    if let Err(e) = write_private(path, &snap) {
        tracing::warn!("cannot write the state file {}: {e}", path.display());
    }
    *last = Some(snap);
}

/// When process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`);
/// `None` where there is no such file.
/// The state letter of `/proc/<pid>/stat` (`R`, `S`, `Z` for a zombie, …).
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..]
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count after its end.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn write_private(path: &Path, snap: &Snapshot) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        restrict(dir, 0o700)?;
    }
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        restrict(&tmp, 0o600)?;
        let text = serde_json::to_vec_pretty(snap).map_err(std::io::Error::other)?;
        f.write_all(&text)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

fn read(path: &Path) -> Option<Snapshot> {
    let text = std::fs::read(path).ok()?;
    match serde_json::from_slice(&text) {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::warn!("ignoring unreadable state file {}: {e}", path.display());
            None
        }
    }
}

/// Whether the process that wrote `snap` still runs: its pid exists and, where the file says
/// when it started, it is still that process (not another one the pid was given to since).
fn alive(snap: &Snapshot) -> bool {
    let pid = snap.pid;
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return false;
        }
        // A dead process nobody reaped yet (a container whose first process never reaps)
        // still has its pid: it holds nothing any more.
        if process_state(pid) == Some('Z') || process_state(pid) == Some('X') {
            return false;
        }
        return match (snap.pid_start, start_ticks(pid)) {
            (Some(recorded), Some(now)) => recorded == now,
            _ => true,
        };
    }
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Before starting: refuses if a live process owns the file; returns what a dead one left.
/// The file is ours from here on (our pid, still listing what the dead one held until that is
/// released), so a session started a moment later is refused even before we have written
/// anything of our own.
pub(crate) fn claim(path: &Path) -> Result<Option<Snapshot>, StateError> {
    let old = read(path);
    if let Some(old) = &old
        && alive(old)
    {
        return Err(StateError::Owned {
            pid: old.pid,
            path: path.to_path_buf(),
        });
    }
    let mine = Snapshot {
        pid: std::process::id(),
        pid_start: start_ticks(std::process::id()),
        ..old.clone().unwrap_or_default()
    };
    if let Err(e) = write_private(path, &mine) {
        tracing::warn!("cannot write the state file {}: {e}", path.display());
    }
    Ok(old)
}

/// Whether the file at `path` lists anything held on the system.
pub(crate) fn holds_anything(path: &Path) -> bool {
    read(path).is_some_and(|s| {
        s.listener
            || !s.line_uris.is_empty()
            || !s.unscoped_server_ids.is_empty()
            || !s.threads.is_empty()
            || s.leftover.is_some()
            || !s.others.is_empty()
    })
}

/// Releases what a dead session left on the system, then reports it as an event. What could
/// not be released stays recorded (and is tried again at shutdown). Runs in the background, so
/// the session (and its signal handling) is up meanwhile; until it is done the whole record
/// stays ours (`leftover`), and commands that would race it wait.
pub(crate) async fn release_orphan(engine: &Arc<Engine>, old: Snapshot) {
    if old.base_url != engine.config.adt.base_url || old.user != engine.config.identity.user {
        engine.update(|inner| inner.releasing_orphan = false);
        return;
    }
    engine.update(|inner| {
        inner.releasing_orphan = true;
        inner.leftover = Some(old.clone());
    });
    let engine = engine.clone();
    tokio::spawn(async move { release_orphan_now(&engine, old).await });
}

async fn release_orphan_now(engine: &Arc<Engine>, old: Snapshot) {
    let pid = old.pid;
    let outcome = release_snapshot(engine, old).await;
    tracing::info!(
        "released what abapdbg pid {pid} left behind: {} breakpoint group(s), {} program(s)",
        outcome.breakpoints,
        outcome.debuggees.len()
    );
    engine.update(|inner| {
        inner.leftover = outcome.left.clone();
        inner.releasing_orphan = false;
    });
    record_now(engine).await;
    engine.emit(
        jsonl::EventKind::OrphanReleased(jsonl::events::OrphanReleased {
            pid,
            listener_stopped: outcome.listener_stopped,
            breakpoint_groups: outcome.breakpoints.into(),
            debuggees: outcome.debuggees.into(),
            errors: outcome.errors.into(),
        }),
        None,
    );
}

/// What releasing a recorded snapshot did, and what is left of it.
#[derive(Default)]
pub(crate) struct Released {
    pub(crate) listener_stopped: bool,
    pub(crate) breakpoints: usize,
    pub(crate) debuggees: Vec<serde_json::Value>,
    pub(crate) errors: Vec<String>,
    /// The part that could not be released (same identity), if any.
    pub(crate) left: Option<Snapshot>,
}

/// Releases everything a snapshot records (and what it kept of earlier ones), on its own
/// identity.
pub(crate) async fn release_snapshot(engine: &Arc<Engine>, old: Snapshot) -> Released {
    let identity = adt::Identity {
        user: old.user.clone(),
        terminal_id: old.terminal_id.clone(),
        ide_id: old.ide_id.clone(),
    };
    let mut out = Released::default();
    let mut left = Snapshot {
        listener: false,
        line_uris: Vec::new(),
        unscoped_server_ids: Vec::new(),
        threads: Vec::new(),
        leftover: None,
        others: Vec::new(),
        ..old.clone()
    };
    if old.listener {
        match crate::listener::stop_on_server(engine, &identity).await {
            Ok(()) => out.listener_stopped = true,
            Err(e) => {
                out.errors.push(format!("stop listener: {e}"));
                left.listener = true;
            }
        }
    }
    for uri in &old.line_uris {
        match engine
            .main
            .set_breakpoints(&identity, &adt::SyncScope::Partial(uri.clone()), &[])
            .await
        {
            Ok(_) => out.breakpoints += 1,
            Err(e) => {
                out.errors.push(format!("breakpoints of {uri}: {e}"));
                left.line_uris.push(uri.clone());
            }
        }
    }
    for id in &old.unscoped_server_ids {
        match engine.main.delete_breakpoint(&identity, id).await {
            Ok(()) => out.breakpoints += 1,
            Err(e) => {
                let shown: String = id.chars().take(80).collect();
                out.errors.push(format!("breakpoint {shown}: {e}"));
                left.unscoped_server_ids.push(id.clone());
            }
        }
    }
    for t in &old.threads {
        match crate::release::release_held(engine, t).await {
            Ok(how) => out
                .debuggees
                .push(json!({"program": t.program, "how": how})),
            Err(e) => {
                out.errors.push(format!("thread {}: {e}", t.thread));
                left.threads.push(t.clone());
            }
        }
    }
    if let Some(earlier) = old.leftover {
        let more = Box::pin(release_snapshot(engine, *earlier)).await;
        out.listener_stopped |= more.listener_stopped;
        out.breakpoints += more.breakpoints;
        out.debuggees.extend(more.debuggees);
        out.errors.extend(more.errors);
        left.leftover = more.left.map(Box::new);
    }
    for other in old.others {
        let more = Box::pin(release_snapshot(engine, other)).await;
        out.breakpoints += more.breakpoints;
        out.errors.extend(more.errors);
        left.others.extend(more.left);
    }
    let nothing_left = !left.listener
        && left.line_uris.is_empty()
        && left.unscoped_server_ids.is_empty()
        && left.threads.is_empty()
        && left.leftover.is_none()
        && left.others.is_empty();
    out.left = (!nothing_left).then_some(left);
    out
}

/// Keeps the file in line with what we hold until the engine shuts down.
pub(crate) fn start_writer(engine: &Arc<Engine>, path: PathBuf) -> tokio::task::JoinHandle<()> {
    let engine = engine.clone();
    tokio::spawn(async move {
        let mut rx = engine.watch();
        loop {
            if engine.lock().shutting_down {
                return;
            }
            let (e, p) = (engine.clone(), path.clone());
            let _ = tokio::task::spawn_blocking(move || write_if_changed(&e, &p)).await;
            if rx.changed().await.is_err() {
                return;
            }
        }
    })
}

/// After a clean release nothing is held: the file goes.
pub(crate) fn remove(path: &Path) {
    for p in [path.to_path_buf(), path.with_extension("tmp")] {
        if let Err(e) = std::fs::remove_file(&p)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!("cannot remove the state file {}: {e}", p.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir()
            .join(format!("abapdbg-statefile-{}-{name}", std::process::id()))
            .join("state.json")
    }

    #[test]
    fn claiming_takes_the_file_at_once_so_a_second_start_is_refused() {
        let path = temp_path("claim");
        assert_eq!(claim(&path).expect("free"), None);
        assert_eq!(read(&path).map(|s| s.pid), Some(std::process::id()));
        // The same check a second `serve` makes a moment later, before we wrote anything else.
        assert!(matches!(claim(&path), Err(StateError::Owned { .. })));
        remove(&path);
    }

    #[test]
    fn a_dead_owners_holdings_stay_recorded_under_the_new_owner() {
        let path = temp_path("orphan");
        let dead = Snapshot {
            // No process has this pid on Linux (pid_max is at most 2^22).
            pid: u32::MAX,
            pid_start: Some(1),
            base_url: "http://sap.example:8000".into(),
            user: "DEVELOPER".into(),
            listener: true,
            line_uris: vec!["/sap/bc/adt/oo/classes/zcl_x/source/main".into()],
            ..Snapshot::default()
        };
        write_private(&path, &dead).expect("write");
        let orphan = claim(&path)
            .expect("the owner is dead")
            .expect("its holdings");
        assert_eq!(orphan, dead);
        let now = read(&path).expect("file");
        assert_eq!(now.pid, std::process::id());
        assert_eq!(now.line_uris, dead.line_uris);
        assert!(now.listener);
        remove(&path);
    }

    /// A dead owner nobody reaped (a zombie still has its pid) is dead: its file does not
    /// keep every later start out (issue 25, item 2).
    #[test]
    fn a_zombie_owner_is_dead() {
        // A child that exits and is not waited for stays a zombie until reaped.
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let pid = child.id();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while process_state(pid) != Some('Z') {
            assert!(std::time::Instant::now() < deadline, "no zombie");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let path = temp_path("zombie");
        let snap = Snapshot {
            pid,
            pid_start: start_ticks(pid),
            listener: true,
            ..Snapshot::default()
        };
        write_private(&path, &snap).expect("write");
        assert!(!alive(&snap), "a zombie holds nothing");
        assert_eq!(claim(&path).expect("not owned").map(|s| s.pid), Some(pid));
        remove(&path);
        let _ = child.wait();
        // A live owner still counts.
        let mut live = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("spawn");
        let snap = Snapshot {
            pid: live.id(),
            pid_start: start_ticks(live.id()),
            ..Snapshot::default()
        };
        assert!(alive(&snap));
        let _ = live.kill();
        let _ = live.wait();
    }
}
