//! The command line.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "abapdbg",
    version = version(),
    about = "The ABAP debugger for the shell, for editors and for AI agents",
    long_about = "abapdbg drives the SAP ADT debugger (what Eclipse ADT uses).\n\n\
        Start with `abapdbg demo`: it runs the embedded ADT simulator and walks through a real stop.\n\
        `abapdbg serve` is the long-lived coprocess that speaks JSON lines on stdin/stdout \
        (see jsonl/PROTOCOL.md).\n\n\
        The other commands are one-shot: each reaches the running session of the target system \
        (starting `serve --daemon` when none runs), does one thing and exits, e.g. \
        `abapdbg bp set ZCL_ORDER:42`, `abapdbg run ZCL_ORDER`, `abapdbg vars`, `abapdbg step`. \
        Human output by default; --json prints exactly one JSON value, the protocol's result.",
    after_help = ONESHOT_HELP
)]
pub(crate) struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace); ABAPDBG_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub(crate) verbose: u8,
    /// Profile of the config file for the one-shot commands, over ABAPDBG_PROFILE (serve
    /// takes its own --profile).
    #[arg(long, global = true, value_name = "NAME", add = abapdbg_cli::profile_completer())]
    pub(crate) profile: Option<String>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the debugger coprocess: JSON-lines requests on stdin, responses and events on stdout.
    Serve(ServeArgs),
    /// Run the ADT simulator standalone; prints its base URL as the first line.
    Sim(SimArgs),
    /// Walk through a real stop on the embedded simulator.
    Demo(DemoArgs),
    /// Does abapdbg work with the configured system, and if not, why: configuration, DNS,
    /// connection and TLS, logon, CSRF, a stateful session, discovery, the listener, a
    /// breakpoint, batch and the round trip, each passed or failed with what to do. Exit 0
    /// when all passed, else the code of the first failure's family (auth 5, transport 4, …).
    Doctor(DoctorArgs),
    /// Serve a recorded cassette (serve --record) as an ADT system; prints its base URL as
    /// the first line. Requests nothing in it answers are reported on stderr and by
    /// GET /replay/unmatched (docs/cassettes.md).
    Replay(ReplayArgs),
    /// Debug Adapter Protocol on stdin/stdout, for editors (VS Code, nvim-dap, Helix; see
    /// docs/dap.md). Launch and attach arguments come from the editor's launch configuration.
    Dap,
    /// Model Context Protocol on stdin/stdout (or --http on loopback), for AI agents (see
    /// docs/agents.md).
    Mcp(mcp::McpArgs),
    /// Print the version of abapdbg and of the JSON-lines protocol it speaks (as --version).
    Version,
    #[command(flatten)]
    OneShot(abapdbg_cli::Command),
}

/// What `--version` and `abapdbg version` print after the name: the crate's version and the
/// protocol's (jsonl::PROTOCOL_VERSION, which `hello` answers with), since a front end built
/// elsewhere (the Nushell plugin, an editor extension) needs the protocol to match.
pub(crate) fn version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{} (protocol {})",
            env!("CARGO_PKG_VERSION"),
            jsonl::PROTOCOL_VERSION
        )
    })
}

/// What `abapdbg --help` says about the one-shot commands: target, errors, exit codes.
const ONESHOT_HELP: &str = "\
Target system: ABAPDBG_URL, ABAPDBG_USER, ABAPDBG_PASSWORD (never on a command line), \
ABAPDBG_CLIENT, over the profile of config.toml that ABAPDBG_PROFILE chooses; without a URL the \
embedded simulator. `abapdbg config` shows what is in effect.

Errors go to stderr as one line: abapdbg: <code>: <message> (hint: <next step>).

Exit codes of the one-shot commands:
  0    ok
  1    anything else: run.failed, test.failed, breakpoint.* (a refused breakpoint),
       variable.not_found, permission.write_not_allowed, internal.bug
  2    usage: the command line is wrong (also protocol.invalid_args and
       breakpoint.invalid_location: the session cannot read an argument), or the
       configuration is (config.*: a malformed config.toml, an unknown profile)
  3    state: state.* (not stopped, no debuggee, program ended, stale, busy,
       shutting down), and state.timed_out (wait or attach expired)
  4    system or transport: transport.*, adt.* (adt.not_supported: the system does not
       offer what the command needs), conflict.*, listener.failed, session.* (no session,
       it could not start, the connection broke)
  5    auth: auth.* (wrong user or password, CSRF refused, no secret from a
       password_command)
  130  interrupted by Ctrl-C (the session and the program go on)

Nushell: the plugin nu_plugin_abap (cargo install nu_plugin_abap, or cargo build --release in
the source tree), for Nushell 0.115.x (nu-plugin 0.115.1), is registered once with
`plugin add ~/.cargo/bin/nu_plugin_abap` (or target/release/nu_plugin_abap) and loaded with
`plugin use abap`; then `abap vars | where meta == table`. `nu_plugin_abap --version` says
which nu-plugin it was built with.";

#[derive(Debug, Args)]
#[command(
    after_help = "The system comes from ABAPDBG_URL, ABAPDBG_USER, ABAPDBG_PASSWORD and \
    ABAPDBG_CLIENT; flags override all but the password, which never goes on a command line.\n\
    Without ABAPDBG_URL (and --url), serve starts the embedded simulator.\n\n\
    Besides stdin/stdout the session listens on a Unix socket (0600, in a directory `abapdbg` \
    of its own, 0700, under ABAPDBG_RUNTIME_DIR or XDG_RUNTIME_DIR; the directory named there \
    is never changed): more clients can connect and share it. One session per system and user: \
    a second serve says so, or with --relay connects to it.\n\n\
    TLS: the platform's trust store (SSL_CERT_FILE and SSL_CERT_DIR replace it, as for \
    OpenSSL) plus --ca-bundle (ABAPDBG_CA_BUNDLE, the profile's ca_bundle). --insecure \
    (ABAPDBG_INSECURE=true, the profile's insecure) checks no certificate and warns at every \
    start.\n\n\
    Protocol lines: one JSON request per line; blank lines are ignored; a key named twice is \
    refused; ids are echoed exactly as sent (jsonl/PROTOCOL.md)."
)]
pub(crate) struct ServeArgs {
    /// Profile of the config file (~/.config/abapdbg/config.toml) [env: ABAPDBG_PROFILE]
    #[arg(long)]
    pub(crate) profile: Option<String>,
    /// Base URL of the SAP system, e.g. https://host:44300 [env: ABAPDBG_URL]
    #[arg(long)]
    pub(crate) url: Option<String>,
    /// SAP user [env: ABAPDBG_USER]
    #[arg(long)]
    pub(crate) user: Option<String>,
    /// SAP client, e.g. 001 [env: ABAPDBG_CLIENT]
    #[arg(long)]
    pub(crate) client: Option<String>,
    /// Logon language, e.g. EN [env: ABAPDBG_LANGUAGE]
    #[arg(long)]
    pub(crate) language: Option<String>,
    /// PEM file of CA certificates to trust besides the platform's (a company CA)
    /// [env: ABAPDBG_CA_BUNDLE]
    #[arg(long, value_name = "PEM")]
    pub(crate) ca_bundle: Option<String>,
    /// Check no server certificate (a warning says so at every start) [env: ABAPDBG_INSECURE]
    #[arg(long)]
    pub(crate) insecure: bool,
    /// Seconds each listener long poll waits on the server before polling again.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub(crate) listener_poll_secs: u32,
    /// What to do with a stopped program when the session ends.
    #[arg(long, value_enum, default_value_t = Release::Continue)]
    pub(crate) release: Release,
    /// Allow write actions: 'set' (change a variable) and 'jump_to_line'.
    #[arg(long, env = "ABAPDBG_ALLOW_WRITES")]
    pub(crate) allow_writes: bool,
    /// Source lines shown before and after the current line at a stop (11 lines in all by
    /// default; 'configure' changes it while the session runs).
    #[arg(long, env = "ABAPDBG_SOURCE_CONTEXT", default_value_t = engine::DEFAULT_SOURCE_CONTEXT, value_parser = clap::value_parser!(u32).range(0..=50))]
    pub(crate) source_context: u32,
    /// Most programs held stopped at once; further catches are released with an event.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub(crate) max_threads: u16,
    /// Do not open the session's Unix socket (other clients cannot share it).
    #[arg(long, conflicts_with_all = ["no_stdio", "daemon"])]
    pub(crate) no_socket: bool,
    /// Serve on the Unix socket only (no stdin/stdout); ends on 'shutdown', a signal, or
    /// --idle-exit seconds without a client.
    #[arg(long)]
    pub(crate) no_stdio: bool,
    /// Start the session in the background (socket only) and print where it listens; when one
    /// already serves this system, print its pid with "already_running": true instead.
    #[arg(long, conflicts_with = "no_stdio")]
    pub(crate) daemon: bool,
    /// Relay stdin/stdout to the session already running for this system and user (refused
    /// when none runs). Ends once stdin is closed and every request is answered; exits 1 when
    /// an answer was an error.
    #[arg(long, conflicts_with_all = ["no_stdio", "daemon"])]
    pub(crate) relay: bool,
    /// Seconds a socket-only session waits without any client before it releases everything
    /// and ends.
    #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) idle_exit: u64,
    /// Seconds a socket-only session waits, when the clients attending a stopped program
    /// (REPL, DAP, MCP) are all gone, before it releases that program by the --release
    /// policy ('status' shows the count; an attending client that connects holds it).
    #[arg(long, env = "ABAPDBG_RELEASE_GRACE", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) release_grace: u64,
    /// Record every exchange with the system into this cassette (JSON lines, created 0600,
    /// never overwritten; passwords, tokens, cookie and CSRF values replaced: docs/cassettes.md)
    #[arg(long, env = "ABAPDBG_RECORD", value_name = "FILE")]
    pub(crate) record: Option<std::path::PathBuf>,
    /// With --record: replace the user names too
    #[arg(long, requires = "record")]
    pub(crate) redact_users: bool,
    /// Read what the system offers (its discovery document and release) from the system even
    /// when the copy cached in the state directory is younger than a day.
    #[arg(long, env = "ABAPDBG_REFRESH_DISCOVERY")]
    pub(crate) refresh_discovery: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Release {
    /// Delete our breakpoints and let the program run to its end.
    Continue,
    /// Abort the program.
    Terminate,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Profile of the config file [env: ABAPDBG_PROFILE]
    #[arg(long)]
    pub(crate) profile: Option<String>,
    /// The object to set (and delete) a test breakpoint in; else the first Z object the
    /// quick search finds
    #[arg(long)]
    pub(crate) object: Option<String>,
    /// Print {"ok": bool, "steps": [{"name", "ok", "skipped"?, "code"?, "message", "hint"?, "ms"?}]}
    #[arg(long)]
    pub(crate) json: bool,
    /// Record the exchanges into this cassette (docs/cassettes.md)
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<std::path::PathBuf>,
}

impl ServeArgs {
    /// The settings `serve` would take from the environment alone (and `--profile`).
    pub(crate) fn for_doctor(profile: Option<String>) -> ServeArgs {
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let mut args = <Only as clap::Parser>::try_parse_from(["abapdbg"])
            .map(|o| o.serve)
            .unwrap_or_else(|e| e.exit());
        args.profile = profile.or(args.profile);
        args
    }
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The cassette (JSON lines, as serve --record writes them).
    pub(crate) file: std::path::PathBuf,
    /// Address to listen on (loopback, any free port by default).
    #[arg(long, default_value = "127.0.0.1:0")]
    pub(crate) listen: std::net::SocketAddr,
}

#[derive(Debug, Args)]
pub(crate) struct SimArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub(crate) listen: SocketAddr,
    /// Folder of abapGit-format objects to load (repeatable); the bundled samples are always loaded.
    #[arg(long = "programs", value_name = "DIR")]
    pub(crate) programs: Vec<PathBuf>,
    /// Logon user as NAME:PASSWORD (default DEVELOPER:abap); repeatable, for programs run by
    /// several users (each user's listener and breakpoints are that user's own).
    #[arg(long, value_name = "NAME:PASSWORD")]
    pub(crate) user: Vec<String>,
    /// Keep the database of Open SQL statements in FILE (default: a temporary file while the simulator runs).
    #[arg(long, value_name = "FILE")]
    pub(crate) db: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    #[command(flatten)]
    pub(crate) faults: FaultArgs,
}

/// Limits of every program run; a program past one ends with a runtime error.
#[derive(Debug, Args)]
#[command(next_help_heading = "Program limits")]
pub(crate) struct LimitArgs {
    /// Statements one run may execute (runtime error SIMULATOR_LIMIT).
    #[arg(long, value_name = "N", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_statements: u64,
    /// Seconds one run may take, not counting time stopped in the debugger (runtime error
    /// TIME_OUT).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(crate) max_run_seconds: u64,
    /// Rows one internal table may hold (runtime error TSV_TNEW_PAGE_ALLOC_FAILED).
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub(crate) max_table_rows: u64,
    /// Mebibytes of memory one run may hold: strings, tables, objects (runtime error
    /// STRING_SIZE_TOO_LARGE when a string would pass it, TSV_TNEW_PAGE_ALLOC_FAILED
    /// otherwise); the simulator and other sessions go on.
    #[arg(long, value_name = "MIB", default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub(crate) max_run_memory: u64,
}

/// Fault injection from the start (also switchable at run time: PUT /sim/faults).
#[derive(Debug, Args)]
#[command(next_help_heading = "Fault injection (all off by default)")]
pub(crate) struct FaultArgs {
    /// Milliseconds added before every ADT request is processed.
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub(crate) latency_ms: u64,
    /// Close the connection without an answer every N requests.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) drop_every: u32,
    /// Answer with an ADT 5xx error every N requests.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) error_every: u32,
    /// HTTP status of those errors.
    #[arg(long, value_name = "STATUS", default_value_t = 500, value_parser = clap::value_parser!(u16).range(500..=599))]
    pub(crate) error_status: u16,
    /// Answer with the ICM's 400 "Service cannot be reached" page every N requests.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) icm_every: u32,
    /// Give every security session a new CSRF token every N requests.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) csrf_rotate_every: u32,
    /// Drop every stateful session every N requests.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) session_expiry_every: u32,
    /// Register another IDE as listener for this user (repeatable): listener conflicts.
    #[arg(long, value_name = "USER")]
    pub(crate) foreign_listener: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// Print the JSON lines exchanged with the coprocess as well.
    #[arg(long)]
    pub(crate) show_protocol: bool,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    /// The manual pages of the command line, by file name: `abapdbg.1` and one per
    /// subcommand (`abapdbg-bp-set.1`), as clap_mangen renders them.
    fn manual_pages() -> BTreeMap<String, Vec<u8>> {
        fn add(cmd: clap::Command, pages: &mut BTreeMap<String, Vec<u8>>) {
            for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
                add(sub.clone(), pages);
            }
            let man = clap_mangen::Man::new(cmd);
            let mut page = Vec::new();
            man.render(&mut page).expect("render a manual page");
            pages.insert(man.get_filename(), page);
        }
        let mut cmd = <super::Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
        cmd.build();
        let mut pages = BTreeMap::new();
        add(cmd, &mut pages);
        pages
    }

    /// docs/man/ holds exactly the pages the command line makes: they never go stale.
    /// `ABAPDBG_BLESS=1 cargo test -p abapdbg manual` writes them anew.
    #[test]
    fn manual_pages_are_current() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/man");
        let pages = manual_pages();
        assert!(pages.contains_key("abapdbg.1") && pages.contains_key("abapdbg-bp-set.1"));
        if std::env::var_os("ABAPDBG_BLESS").is_some() {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("create docs/man");
            for (name, page) in &pages {
                std::fs::write(dir.join(name), page).expect("write a manual page");
            }
        }
        let mut stale = Vec::new();
        for (name, page) in &pages {
            if std::fs::read(dir.join(name)).ok().as_ref() != Some(page) {
                stale.push(name.clone());
            }
        }
        let extra: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|name| !pages.contains_key(name))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            stale.is_empty() && extra.is_empty(),
            "docs/man is stale (changed or missing: {stale:?}; not made any more: {extra:?}): \
             regenerate with ABAPDBG_BLESS=1 cargo test -p abapdbg manual"
        );
    }
}
