//! `abapdbg demo`: the embedded simulator and the engine in one process, driven through the
//! JSON-lines protocol exactly as any client would, narrated for a newcomer. On a terminal it
//! pauses before each step (Enter goes on) and ends with how to do the same in the
//! interactive debugger; elsewhere it prints the tour in one go.

/// `println!` that never panics: a reader that went away (`abapdbg demo | head`) must not
/// stop the tour before it has released what it holds.
macro_rules! say {
    () => {
        abapdbg_cli::out("\n")
    };
    ($($arg:tt)*) => {
        abapdbg_cli::out(&format!("{}\n", format_args!($($arg)*)))
    };
}

use std::collections::VecDeque;
use std::error::Error;
use std::io::IsTerminal;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

use crate::cli::DemoArgs;
use crate::{identity, system};

type BoxError = Box<dyn Error + Send + Sync>;

const CLASS: &str = "ZCL_ABAPDBG_DEMO";
const BREAK_LINE: u32 = 48;
const COMMENT_LINE: u32 = 30;

pub(crate) async fn run(args: DemoArgs) -> Result<(), BoxError> {
    let (sim, adt) = system::start_embedded().await?;
    say!("== abapdbg demo ==");
    say!("Embedded ADT simulator listening at {}", sim.base_url());
    let identity = adt::Identity {
        user: adt.user.clone(),
        terminal_id: identity::terminal_id(),
        ide_id: identity::ide_id(),
    };
    let config = engine::EngineConfig::new(adt, identity);
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serve = tokio::spawn(engine::serve(
        config,
        BufReader::new(server_read),
        server_write,
        std::future::pending::<()>(),
    ));
    let mut dbg = Session::new(client_end, args.show_protocol);
    dbg.interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let result = walkthrough(&mut dbg).await;
    let dbg_interactive = dbg.interactive;
    // Always release, also when the walkthrough failed half-way.
    let _ = dbg.request("shutdown", json!({})).await;
    drop(dbg);
    if let Ok(Ok(receipt)) = serve.await {
        say!("\n{}", receipt.summary());
    }
    sim.shutdown().await;
    if dbg_interactive && result.is_ok() {
        say!(
            "\nThe same in the interactive debugger, on any system (here the embedded simulator):\n\
             \x20  abapdbg bp set {CLASS}:{BREAK_LINE}\n\
             \x20  abapdbg repl                  # waits for the stop, then: n, v, x <var>, c, q (h: help)\n\
             \x20  abapdbg run {CLASS}    # in another terminal"
        );
    }
    result
}

async fn walkthrough(dbg: &mut Session) -> Result<(), BoxError> {
    dbg.expect_event("ready").await?;
    say!("\n1. Set a breakpoint in method LINE_TOTAL ({CLASS}:{BREAK_LINE})");
    let set = dbg
        .ok(
            "bp.set",
            json!({"location": format!("{CLASS}:{BREAK_LINE}")}),
        )
        .await?;
    print_breakpoints(&set);
    say!("   …and one on a comment line, which the system refuses:");
    let refused = dbg
        .ok(
            "bp.set",
            json!({"location": format!("{CLASS}:{COMMENT_LINE}")}),
        )
        .await?;
    print_breakpoints(&refused);

    dbg.pause().await;
    say!("\n2. Run the class as a console application; the listener catches the stop");
    let run_id = dbg.send("run", json!({"class": CLASS})).await?;
    let stop = dbg.expect_event("stopped").await?;
    print_stop(&stop);

    dbg.pause().await;
    say!("\n3. The call stack");
    let stack = dbg.ok("stack", json!({})).await?;
    for f in stack["frames"].as_array().into_iter().flatten() {
        say!(
            "   #{:<2} {:<24} {:<34} line {}",
            f["index"],
            text(&f["method"]),
            text(&f["include"]),
            f["line"]
        );
    }

    dbg.pause().await;
    say!("\n4. Variables of the current frame");
    let vars = dbg.ok("vars", json!({})).await?;
    print_vars(&vars);

    dbg.pause().await;
    say!("\n5. Step over the assignment and look again");
    let before = var_value(&vars, "RV_TOTAL");
    let step = dbg.ok("step", json!({"type": "over"})).await?;
    print_stop(&step["stop"]);
    let after_vars = dbg.ok("vars", json!({})).await?;
    say!(
        "   RV_TOTAL changed: {} -> {}",
        before.as_deref().unwrap_or("?"),
        var_value(&after_vars, "RV_TOTAL").as_deref().unwrap_or("?")
    );

    say!("   (the step, the new stack and the variables came back in one HTTP round trip)");

    dbg.pause().await;
    say!("\n6. Look at the caller: select frame 1 and read its variables");
    let caller = dbg.ok("frame", json!({"index": 1})).await?;
    say!(
        "   frame 1: {} at line {}",
        text(&caller["frame"]["method"]),
        caller["frame"]["line"]
    );
    let caller_vars = dbg.ok("vars", json!({})).await?;
    say!(
        "   in the caller LV_COUNT = {} and LV_TOTAL = {}",
        var_value(&caller_vars, "LV_COUNT")
            .as_deref()
            .unwrap_or("?"),
        var_value(&caller_vars, "LV_TOTAL")
            .as_deref()
            .unwrap_or("?")
    );

    dbg.pause().await;
    say!("\n7. Continue: the loop calls LINE_TOTAL again, so the breakpoint hits again");
    loop {
        let step = dbg.ok("step", json!({"type": "continue"})).await?;
        if step.get("ended").is_some() {
            say!("   the program ran to its end");
            break;
        }
        let vars = dbg.ok("vars", json!({})).await?;
        say!(
            "   stopped again at line {} with IV_QUANTITY = {}",
            step["stop"]["frame"]["line"],
            var_value(&vars, "IV_QUANTITY").as_deref().unwrap_or("?")
        );
    }

    dbg.pause().await;
    say!("\n8. The run's output");
    let run = dbg.response(&run_id).await?;
    match run.get("result") {
        Some(result) if run["ok"] == true => {
            for line in text(&result["output"]).lines() {
                say!("   | {line}");
            }
        }
        _ => say!("   the run failed: {}", run["error"]["message"]),
    }
    Ok(())
}

fn text(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

fn print_breakpoints(result: &Value) {
    for bp in result["breakpoints"].as_array().into_iter().flatten() {
        match bp["status"].as_str() {
            Some("verified") => say!(
                "   breakpoint {} at {} verified (server id {})",
                bp["id"],
                text(&bp["location"]),
                text(&bp["server_id"])
            ),
            _ => say!(
                "   breakpoint {} at {} {}: {}",
                bp["id"],
                text(&bp["location"]),
                text(&bp["status"]),
                text(&bp["reason"])
            ),
        }
    }
}

fn print_stop(stop: &Value) {
    let f = &stop["frame"];
    say!(
        "   stopped ({}) in {}->{} at line {} (include {}), epoch {}",
        text(&stop["reason"]),
        text(&f["object"]),
        text(&f["method"]),
        f["line"],
        text(&f["include"]),
        stop["epoch"]
    );
    for l in f["source"].as_array().into_iter().flatten() {
        let marker = if l["current"] == true { ">" } else { " " };
        say!("   {marker}{:>4} | {}", l["line"], text(&l["text"]));
    }
}

fn print_vars(vars: &Value) {
    say!(
        "   {:<12} {:<12} {:<8} {:<10} value",
        "scope",
        "name",
        "type",
        "meta"
    );
    for v in vars["variables"].as_array().into_iter().flatten() {
        say!(
            "   {:<12} {:<12} {:<8} {:<10} {}",
            text(&v["scope"]),
            text(&v["name"]),
            text(&v["type"]),
            text(&v["meta"]),
            text(&v["value"])
        );
    }
}

fn var_value(vars: &Value, name: &str) -> Option<String> {
    vars["variables"]
        .as_array()?
        .iter()
        .find(|v| v["name"] == name)
        .map(|v| text(&v["value"]))
}

/// A protocol client over an in-process pipe.
struct Session {
    writer: tokio::io::WriteHalf<DuplexStream>,
    lines: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    next_id: u64,
    backlog: VecDeque<Value>,
    show_protocol: bool,
    /// On a terminal: pause before each step until Enter.
    interactive: bool,
}

impl Session {
    fn new(stream: DuplexStream, show_protocol: bool) -> Self {
        let (r, w) = tokio::io::split(stream);
        Session {
            writer: w,
            lines: BufReader::new(r).lines(),
            next_id: 0,
            backlog: VecDeque::new(),
            show_protocol,
            interactive: false,
        }
    }

    /// On a terminal, waits for Enter (end of input goes on without pausing again).
    async fn pause(&mut self) {
        if !self.interactive {
            return;
        }
        abapdbg_cli::out("\n   (Enter: next step) ");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let read = tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).map(|n| n > 0)
        })
        .await;
        if !matches!(read, Ok(Ok(true))) {
            self.interactive = false;
        }
    }

    async fn send(&mut self, cmd: &str, args: Value) -> Result<Value, BoxError> {
        self.next_id += 1;
        let id = json!(self.next_id);
        let line = json!({"id": id, "cmd": cmd, "args": args}).to_string();
        if self.show_protocol {
            say!("   -> {line}");
        }
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .await?;
        Ok(id)
    }

    async fn read(&mut self) -> Result<Value, BoxError> {
        let line = self
            .lines
            .next_line()
            .await?
            .ok_or("the coprocess closed its output")?;
        if self.show_protocol {
            say!("   <- {line}");
        }
        Ok(serde_json::from_str(&line)?)
    }

    /// The next line matching `pred`, keeping the others for later.
    async fn next_matching(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value, BoxError> {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self
                .backlog
                .remove(i)
                .ok_or_else(|| "backlog changed".into());
        }
        loop {
            let msg = self.read().await?;
            if pred(&msg) {
                return Ok(msg);
            }
            self.backlog.push_back(msg);
        }
    }

    async fn response(&mut self, id: &Value) -> Result<Value, BoxError> {
        let id = id.clone();
        self.next_matching(move |m| m["type"] == "response" && m["id"] == id)
            .await
    }

    async fn expect_event(&mut self, name: &str) -> Result<Value, BoxError> {
        let msg = self
            .next_matching(|m| m["type"] == "event" && m["event"] == name)
            .await?;
        Ok(msg["body"].clone())
    }

    async fn request(&mut self, cmd: &str, args: Value) -> Result<Value, BoxError> {
        let id = self.send(cmd, args).await?;
        self.response(&id).await
    }

    /// A request that must succeed; its `result`.
    async fn ok(&mut self, cmd: &str, args: Value) -> Result<Value, BoxError> {
        let resp = self.request(cmd, args).await?;
        if resp["ok"] == true {
            Ok(resp["result"].clone())
        } else {
            Err(format!(
                "{cmd} failed: {} ({})",
                resp["error"]["message"], resp["error"]["code"]
            )
            .into())
        }
    }
}
