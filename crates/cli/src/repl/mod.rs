//! The interactive debugger: `abapdbg repl`, and `abapdbg attach` on a terminal. It arms the
//! listener, waits for a program to stop (the one-shot spinner; Ctrl-C ends the wait and the
//! process, the session untouched), then reads commands at a prompt (reedline: line editing,
//! history in the state directory, Tab completion from the live session).
//!
//! After each stop it prints the source window and the variables that changed since the
//! previous stop in the same method (`*`, and colour on a terminal). `q` (and Ctrl-D) detaches:
//! our breakpoints come off the system and the program runs on; `kill` terminates it; both stop
//! listening and exit. Any other way out while a program is stopped — an error, a panic —
//! detaches too (`Release`), so nothing stays frozen.
//!
//! Like the one-shot commands, this module speaks only the protocol through `client`; commands
//! that a one-shot command already does are run as that command.

mod commands;
mod complete;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Parser;
use jsonl::args::AtArgs;
use jsonl::cmd;
use jsonl::commands::NoArgs;
use jsonl::results::{Frame, Variable};
use reedline::{
    ColumnarMenu, Emacs, FileBackedHistory, KeyCode, KeyModifiers, MenuBuilder, Prompt,
    PromptEditMode, PromptHistorySearch, Reedline, ReedlineEvent, ReedlineMenu, Signal,
    default_emacs_keybindings,
};

use crate::oneshot::ctx::{Ctx, Failure, out};
use crate::oneshot::movement::{Answer, Outcome, until_stop_or_end};
use crate::oneshot::render::{self, Style, paint, place_of};
use crate::oneshot::step::StepKind;
use crate::oneshot::wait::{Reached, Until, stop_of, wait};
use crate::oneshot::{self, listen, threads, vars};
use commands::Cmd;

/// Entries the history file keeps.
const HISTORY_SIZE: usize = 1000;
/// One wait request when waiting without a limit (the wait is asked again after it).
const WAIT_CHUNK: Duration = Duration::from_secs(600);

/// How the debugger starts.
pub(crate) struct Options {
    /// How long to wait for the first stop; `None`: until one comes (or Ctrl-C).
    pub(crate) timeout: Option<Duration>,
    /// Take the listener over from another debugger of the same user.
    pub(crate) take_over: bool,
}

/// Runs the interactive debugger until `q`, `kill`, Ctrl-D or an error.
pub(crate) fn run(ctx: &Ctx, options: &Options) -> Result<(), Failure> {
    crate::oneshot::hints::speak_as_repl();
    // A closed terminal (SIGHUP) does what `q` does: the wait in progress ends, the prompt
    // loop leaves, and `Release` takes our breakpoints off and lets the program run on —
    // instead of the process dying with the program left stopped.
    let hangup = Arc::new(AtomicBool::new(false));
    for flag in [hangup.clone(), ctx.interrupt_flag()] {
        let _ = signal_hook::flag::register(signal_hook::consts::SIGHUP, flag);
    }
    // The line editor may stay blocked on a terminal that is gone: a thread of its own lets
    // the program go on its own connection and ends the process.
    release_on_hangup(ctx.target.clone());
    // This client attends the stop: if it dies by a signal nothing can catch, the session
    // lets the program go after its grace period (`hello`'s `attended`).
    let _ = ctx.call::<cmd::Hello>(&jsonl::args::HelloArgs {
        events: None,
        attended: true,
    });
    listen::arm(ctx, options.take_over)?;
    out(&paint(
        ctx.color,
        Style::Dim,
        "listener armed: start the program; waiting for a breakpoint (Ctrl-C to stop waiting)\n",
    ));
    let first = wait_for_stop(ctx, options.timeout)?;
    // From here on a stopped program must never be left behind.
    let mut release = Release { ctx, armed: true };
    let mut repl = Repl::new(ctx, hangup);
    repl.show_stop(&first);
    let result = repl.interact();
    if repl.released {
        release.armed = false;
    }
    result
}

/// Detaches and stops listening when the debugger leaves by any other way than `q` or `kill`.
struct Release<'a> {
    ctx: &'a Ctx,
    armed: bool,
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        self.ctx.clear_interrupt();
        // Nothing stopped (state.*) is fine: then there is nothing to let go.
        let _ = self.ctx.call::<cmd::Detach>(&AtArgs::default());
        let _ = self.ctx.call::<cmd::Unlisten>(&NoArgs {});
    }
}

/// On SIGHUP: our breakpoints off the system (the program runs on), no more listening, then
/// exit 129 — what `q` does, from a thread, since the prompt may never return.
fn release_on_hangup(target: client::Target) {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("abapdbg-hangup".into())
        .spawn(move || {
            if signals.forever().next().is_none() {
                return;
            }
            if let Ok(session) = client::Session::connect(&target) {
                let bound = Duration::from_secs(30);
                // Listening ends first: once the program is let go, nothing of ours is left
                // (and a client that sees it gone sees the listener gone too).
                let _ = session.call_within::<cmd::Unlisten>(&NoArgs {}, bound);
                let _ = session.call_within::<cmd::Detach>(&AtArgs::default(), bound);
            }
            std::process::exit(129);
        });
}

/// Waits for a stop and answers it.
fn wait_for_stop(ctx: &Ctx, timeout: Option<Duration>) -> Result<Reached, Failure> {
    loop {
        match wait(
            ctx,
            Until::Stopped,
            timeout.unwrap_or(WAIT_CHUNK),
            "waiting",
        ) {
            Ok(result) => return stop_of(ctx, &result),
            Err(f) if f.code == "state.timed_out" && timeout.is_none() => continue,
            Err(f) => return Err(f),
        }
    }
}

fn interrupted(f: &Failure) -> bool {
    f.code == "request.interrupted"
}

/// What the loop does after a command.
enum Flow {
    Go,
    Quit,
}

/// The debugger between commands.
struct Repl<'a> {
    ctx: &'a Ctx,
    /// A program is stopped (as far as we know).
    stopped: bool,
    /// Where it stopped, for the prompt.
    place: String,
    /// The frame selected with `f` (variables are compared in frame 0 only).
    frame: usize,
    /// Object and method of the previous stop, and its top-level variables (id → value).
    previous: Option<((String, String), HashMap<String, String>)>,
    /// Ids of the variables the last step changed.
    changed: HashSet<String>,
    /// `q` or `kill` let the program go and stopped listening.
    released: bool,
    /// The terminal closed (SIGHUP).
    hangup: Arc<AtomicBool>,
}

impl<'a> Repl<'a> {
    fn new(ctx: &'a Ctx, hangup: Arc<AtomicBool>) -> Repl<'a> {
        Repl {
            ctx,
            stopped: false,
            place: String::new(),
            frame: 0,
            previous: None,
            changed: HashSet::new(),
            released: false,
            hangup,
        }
    }

    fn interact(&mut self) -> Result<(), Failure> {
        let mut editor = editor(self.ctx);
        loop {
            if self.hangup.load(Ordering::Relaxed) {
                // Nobody is at the terminal any more: leave as `q` would (`Release`).
                return Err(Failure::new(
                    "request.interrupted",
                    "the terminal closed: our breakpoints are off and the program runs on",
                ));
            }
            let prompt = ReplPrompt(if self.stopped {
                format!("abapdbg {}", self.place)
            } else {
                "abapdbg (not stopped)".to_string()
            });
            let line = match editor.read_line(&prompt) {
                Ok(Signal::Success(line)) => line,
                Ok(Signal::CtrlD) => "q".to_string(),
                Ok(_) => continue,
                Err(_) if self.hangup.load(Ordering::Relaxed) => continue,
                Err(e) => {
                    return Err(Failure::new(
                        "internal.bug",
                        format!("the terminal cannot be read: {e}"),
                    ));
                }
            };
            let cmd = match commands::parse(&line) {
                Ok(cmd) => cmd,
                Err(message) => {
                    eprintln!("{message}");
                    continue;
                }
            };
            match self.execute(cmd) {
                Ok(Flow::Go) => {}
                Ok(Flow::Quit) => return Ok(()),
                // The session is gone: nothing more can be done here.
                Err(f) if f.code == "transport.disconnected" || f.code.starts_with("session.") => {
                    return Err(f);
                }
                Err(f) => eprintln!("{}", f.line()),
            }
        }
    }

    fn execute(&mut self, cmd: Cmd) -> Result<Flow, Failure> {
        match cmd {
            Cmd::Empty => {}
            Cmd::Help => out(&commands::help()),
            Cmd::Step(kind) => self.step(kind)?,
            Cmd::Vars => self.vars()?,
            Cmd::Frame(n) => {
                self.one_shot(&["frame".to_string(), n.to_string()])?;
                self.frame = n;
            }
            Cmd::Thread(id) => self.thread(id)?,
            Cmd::OneShot(words) => self.one_shot(&words)?,
            Cmd::Expand(var) => self.expand(&var)?,
            Cmd::Wait => self.wait_next()?,
            Cmd::Quit => {
                self.quit()?;
                return Ok(Flow::Quit);
            }
            Cmd::Kill => {
                self.one_shot(&["terminate".to_string()])?;
                self.stopped = false;
                self.unlisten();
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Go)
    }

    /// Runs a one-shot command by its command line, printing as it prints.
    fn one_shot(&self, words: &[String]) -> Result<(), Failure> {
        let line = Line::try_parse_from(words).map_err(|e| {
            let text = e.render().to_string();
            Failure::usage(
                text.lines()
                    .next()
                    .unwrap_or_default()
                    .trim_start_matches("error: "),
            )
        })?;
        oneshot::execute(self.ctx, &line.command)
    }

    fn step(&mut self, kind: StepKind) -> Result<(), Failure> {
        let outcome =
            until_stop_or_end::<cmd::Step>(self.ctx, kind.label(), &kind.args(), Answer::Movement);
        match outcome {
            Ok(Outcome::Stop(stop)) => self.show_stop(&Reached::from(stop)),
            Ok(Outcome::Ended(end)) => {
                out(&render::ended(&end, self.ctx.color));
                self.show_end();
                self.wait_next()?;
            }
            Ok(Outcome::Answered(_) | Outcome::Waiting { .. }) => {}
            Err(f) if interrupted(&f) => {
                self.ctx.clear_interrupt();
                self.stopped = false;
                eprintln!("stopped waiting; the program goes on ('w' waits for its next stop)");
            }
            Err(f) => return Err(f),
        }
        Ok(())
    }

    /// Waits for the next stop; Ctrl-C comes back to the prompt.
    fn wait_next(&mut self) -> Result<(), Failure> {
        out(&paint(
            self.ctx.color,
            Style::Dim,
            "waiting for the next breakpoint hit (Ctrl-C for the prompt)\n",
        ));
        match wait_for_stop(self.ctx, None) {
            Ok(stop) => {
                self.show_stop(&stop);
                Ok(())
            }
            Err(f) if interrupted(&f) => {
                self.ctx.clear_interrupt();
                eprintln!("stopped waiting ('w' waits again, 'q' quits)");
                Ok(())
            }
            Err(f) => Err(f),
        }
    }

    /// Prints a stop and what changed since the previous one.
    fn show_stop(&mut self, stop: &Reached) {
        let frame: Option<&Frame> = stop.frame();
        self.stopped = true;
        self.frame = 0;
        self.place = short_place(frame);
        let key = frame
            .map(|f| (f.object.clone(), f.method.clone()))
            .unwrap_or_default();
        let vars = self
            .ctx
            .call::<cmd::Vars>(&vars::frame_vars())
            .map(|r| r.variables)
            .unwrap_or_default();
        let now = values(&vars);
        self.changed = match &self.previous {
            Some((k, before)) if *k == key => now
                .iter()
                .filter(|(id, v)| before.get(*id).is_some_and(|b| b != *v))
                .map(|(id, _)| id.clone())
                .collect(),
            _ => HashSet::new(),
        };
        let mut s = stop.render(self.ctx.color);
        if let Some((_, before)) = &self.previous {
            for v in &vars {
                let id = var_id(v);
                if !self.changed.contains(&id) {
                    continue;
                }
                let was = before.get(&id).cloned().unwrap_or_default();
                let line = format!("* {} = {} (was {})", v.name, shown(v), shown_key(&was));
                s.push_str(&paint(self.ctx.color, Style::Yellow, &line));
                s.push('\n');
            }
        }
        out(&s);
        self.previous = Some((key, now));
    }

    /// Forgets the program that ended (its end is printed already).
    fn show_end(&mut self) {
        self.stopped = false;
        self.previous = None;
        self.changed.clear();
    }

    /// `t <n>`: another caught program becomes the session's current thread (the default of
    /// every command, here and in the one-shot commands); the prompt follows it.
    fn thread(&mut self, id: u32) -> Result<(), Failure> {
        let result = self
            .ctx
            .call::<cmd::Thread>(&jsonl::args::ThreadArgs { id })?;
        let Some(th) = result.thread else {
            return Ok(());
        };
        out(&threads::table(std::slice::from_ref(&th), self.ctx.color));
        self.stopped = !th.running;
        self.frame = th.selected_frame;
        self.place = short_place(th.frame.as_ref());
        // Changes are told within one program's stops only.
        self.previous = None;
        self.changed.clear();
        Ok(())
    }

    /// `x <var>`: a table's rows as a table, the components of anything else.
    fn expand(&self, var: &str) -> Result<(), Failure> {
        let path = var.trim().to_uppercase();
        let got = self.ctx.call::<cmd::Get>(&jsonl::args::GetArgs {
            path: path.clone(),
            ..jsonl::args::GetArgs::default()
        })?;
        if got.variable.meta == "table" {
            return self.one_shot(&[
                "table".to_string(),
                path,
                "--limit".to_string(),
                commands::TABLE_ROWS.to_string(),
            ]);
        }
        self.one_shot(&["vars".to_string(), path])
    }

    fn vars(&self) -> Result<(), Failure> {
        let mut result = self.ctx.call::<cmd::Vars>(&vars::frame_vars())?;
        vars::summarize(self.ctx, &mut result.variables);
        let mark = |v: &Variable| self.frame == 0 && self.changed.contains(&var_id(v));
        out(&vars::table_marked(
            &result.variables,
            self.ctx.color,
            &mark,
        ));
        Ok(())
    }

    /// `q`: our breakpoints off the system, the program runs on, no more listening.
    fn quit(&mut self) -> Result<(), Failure> {
        if self.stopped {
            match self.one_shot(&["detach".to_string()]) {
                Ok(()) => {}
                // It ended or was let go meanwhile: nothing to detach.
                Err(f) if f.code.starts_with("state.") => {}
                Err(f) => return Err(f),
            }
            self.stopped = false;
        }
        self.unlisten();
        Ok(())
    }

    fn unlisten(&mut self) {
        if let Err(f) = self.ctx.call::<cmd::Unlisten>(&NoArgs {}) {
            eprintln!("{}", f.line());
        }
        self.released = true;
    }
}

/// A one-shot command line typed at the prompt.
#[derive(Debug, Parser)]
#[command(no_binary_name = true)]
struct Line {
    #[command(subcommand)]
    command: oneshot::Command,
}

/// `ZCL_X:48`, for the prompt: the method is in the stop's first line; the prompt stays short.
fn short_place(frame: Option<&Frame>) -> String {
    place_of(frame)
        .split(" in ")
        .next()
        .unwrap_or_default()
        .to_string()
}

fn var_id(v: &Variable) -> String {
    if v.id.is_empty() {
        v.name.clone()
    } else {
        v.id.clone()
    }
}

/// What is compared between stops: the value, and a table's row count.
fn values(vars: &[Variable]) -> HashMap<String, String> {
    vars.iter()
        .map(|v| {
            let key = if v.meta == "table" {
                format!("{} rows", v.rows)
            } else {
                v.value.clone()
            };
            (var_id(v), key)
        })
        .collect()
}

fn shown(v: &Variable) -> String {
    if v.meta == "table" {
        format!("{} rows", v.rows)
    } else {
        shown_key(&v.value)
    }
}

fn shown_key(s: &str) -> String {
    render::cut(&render::cell(s), 60)
}

struct ReplPrompt(String);

impl Prompt for ReplPrompt {
    fn render_prompt_left(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.0)
    }

    fn render_prompt_right(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_indicator(&self, _mode: PromptEditMode) -> Cow<'_, str> {
        Cow::Borrowed("> ")
    }

    fn render_prompt_multiline_indicator(&self) -> Cow<'_, str> {
        Cow::Borrowed("… ")
    }

    fn render_prompt_history_search_indicator(&self, search: PromptHistorySearch) -> Cow<'_, str> {
        Cow::Owned(format!("(history: {}) ", search.term))
    }
}

/// Where the history is kept: `repl_history` in the state directory.
fn history_file(ctx: &Ctx) -> Option<PathBuf> {
    let dir = ctx.target.state_dir()?;
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("repl_history"))
}

fn editor(ctx: &Ctx) -> Reedline {
    let mut keys = default_emacs_keybindings();
    keys.add_binding(
        KeyModifiers::NONE,
        KeyCode::Tab,
        ReedlineEvent::UntilFound(vec![
            ReedlineEvent::Menu("completion_menu".to_string()),
            ReedlineEvent::MenuNext,
        ]),
    );
    let menu = ColumnarMenu::default().with_name("completion_menu");
    // Completion has a connection of its own, so it never waits behind a command.
    let completer = complete::ReplCompleter::new(client::Session::connect(&ctx.target).ok());
    let mut editor = Reedline::create()
        .with_edit_mode(Box::new(Emacs::new(keys)))
        .with_completer(Box::new(completer))
        .with_menu(ReedlineMenu::EngineCompleter(Box::new(menu)))
        .with_quick_completions(true)
        .with_partial_completions(true)
        .with_ansi_colors(ctx.color);
    let history =
        history_file(ctx).and_then(|f| FileBackedHistory::with_file(HISTORY_SIZE, f).ok());
    if let Some(history) = history {
        editor = editor.with_history(Box::new(history));
    }
    editor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_compare_by_rows() {
        let vars = [
            Variable {
                id: "LV_A".into(),
                name: "LV_A".into(),
                value: "1".into(),
                ..Variable::default()
            },
            Variable {
                id: "LT".into(),
                name: "LT".into(),
                meta: "table".into(),
                rows: 3,
                ..Variable::default()
            },
        ];
        let v = values(&vars);
        assert_eq!(v["LV_A"], "1");
        assert_eq!(v["LT"], "3 rows");
    }

    #[test]
    fn one_shot_lines_parse_as_commands() {
        for words in [
            vec!["vars", "LT_ITEMS"],
            vec!["bp", "set", "ZCL_X:42"],
            vec!["table", "LT", "--offset", "1", "--limit", "2"],
            vec!["detach"],
            vec!["terminate"],
            vec!["frame", "1"],
        ] {
            assert!(Line::try_parse_from(&words).is_ok(), "{words:?}");
        }
    }
}
