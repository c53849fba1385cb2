//! Fuzz targets and a mutator shared by `tests/fuzz.rs` (bounded, in CI) and
//! `examples/fuzz.rs` (as long as you like). See `FUZZING.md`.
//!
//! Every target takes raw bytes, turns them into text the way the transport does (lossy
//! UTF-8) and runs one public parser. A target "fails" only by panicking: errors are the
//! expected answer to garbage.

#![allow(dead_code)]

use adt::codec;

/// The seed corpus: the fixture files (shaped like the public captures of adt-wire.md §15).
pub const SEEDS: &[(&str, &[u8])] = &[
    ("action.xml", include_bytes!("../fixtures/action.xml")),
    ("attach.xml", include_bytes!("../fixtures/attach.xml")),
    (
        "aunit_empty.xml",
        include_bytes!("../fixtures/aunit_empty.xml"),
    ),
    (
        "aunit_result.xml",
        include_bytes!("../fixtures/aunit_result.xml"),
    ),
    (
        "batch_ended.content-type",
        include_bytes!("../fixtures/batch_ended.content-type"),
    ),
    (
        "batch_ended.multipart",
        include_bytes!("../fixtures/batch_ended.multipart"),
    ),
    (
        "batch_ok.content-type",
        include_bytes!("../fixtures/batch_ok.content-type"),
    ),
    (
        "batch_ok.multipart",
        include_bytes!("../fixtures/batch_ok.multipart"),
    ),
    (
        "breakpoints.xml",
        include_bytes!("../fixtures/breakpoints.xml"),
    ),
    (
        "child_variables.xml",
        include_bytes!("../fixtures/child_variables.xml"),
    ),
    ("csrf.txt", include_bytes!("../fixtures/csrf.txt")),
    ("debuggee.xml", include_bytes!("../fixtures/debuggee.xml")),
    (
        "exception_after_terminate.xml",
        include_bytes!("../fixtures/exception_after_terminate.xml"),
    ),
    (
        "exception_conflict.xml",
        include_bytes!("../fixtures/exception_conflict.xml"),
    ),
    (
        "exception_debuggee_ended.xml",
        include_bytes!("../fixtures/exception_debuggee_ended.xml"),
    ),
    (
        "exception_no_session.xml",
        include_bytes!("../fixtures/exception_no_session.xml"),
    ),
    (
        "exception_not_found.xml",
        include_bytes!("../fixtures/exception_not_found.xml"),
    ),
    (
        "exception_terminate.xml",
        include_bytes!("../fixtures/exception_terminate.xml"),
    ),
    (
        "icm_unavailable.html",
        include_bytes!("../fixtures/icm_unavailable.html"),
    ),
    (
        "memory_sizes.xml",
        include_bytes!("../fixtures/memory_sizes.xml"),
    ),
    (
        "messagetypes.xml",
        include_bytes!("../fixtures/messagetypes.xml"),
    ),
    ("dump.xml", include_bytes!("../fixtures/dump.xml")),
    (
        "dump_formatted.txt",
        include_bytes!("../fixtures/dump_formatted.txt"),
    ),
    (
        "dumps_feed.xml",
        include_bytes!("../fixtures/dumps_feed.xml"),
    ),
    (
        "quick_search.xml",
        include_bytes!("../fixtures/quick_search.xml"),
    ),
    ("settings.xml", include_bytes!("../fixtures/settings.xml")),
    ("stack.xml", include_bytes!("../fixtures/stack.xml")),
    (
        "statements.xml",
        include_bytes!("../fixtures/statements.xml"),
    ),
    ("step.xml", include_bytes!("../fixtures/step.xml")),
    (
        "step_plain.xml",
        include_bytes!("../fixtures/step_plain.xml"),
    ),
    ("variables.xml", include_bytes!("../fixtures/variables.xml")),
    (
        "variables_object.xml",
        include_bytes!("../fixtures/variables_object.xml"),
    ),
    (
        "watchpoints.xml",
        include_bytes!("../fixtures/watchpoints.xml"),
    ),
];

/// Tokens the mutator splices in: the structure the parsers care about.
const TOKENS: &[&str] = &[
    "<",
    ">",
    "/>",
    "</",
    "<?xml version=\"1.0\"?>",
    "&amp;",
    "&lt;",
    "&#0;",
    "&#xD800;",
    "&bogus;",
    "<![CDATA[x]]>",
    "<!-- c -->",
    "\"",
    "'",
    "=",
    ":",
    "xmlns:a=\"u\"",
    "dbg:",
    "asx:",
    "\r\n",
    "\n",
    "--",
    "HTTP/1.1 200 OK\r\n",
    "HTTP/1.1 500 X\r\n",
    "content-length: 99999\r\n",
    "content-length: 0\r\n",
    "\r\n\r\n",
    "#start=",
    ";end=",
    "start=-1",
    "4294967296",
    "<VALUE>",
    "</VALUE>",
    "<STPDA_ADT_VARIABLE>",
    "<stackEntry ",
    "<breakpoint ",
    "<watchpoint ",
    "<alert ",
    "<entry key=\"com.sap.adt.communicationFramework.subType\">",
    "\u{FFFD}",
    "é",
    "\0",
];

/// A small deterministic generator (xorshift64*), so runs can be repeated from a seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Apply 1–8 random edits to `input`: flip, delete, duplicate, truncate, splice tokens or
/// another seed's bytes.
pub fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    let edits = 1 + rng.below(8);
    for _ in 0..edits {
        let len = v.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(16.min(len - i));
                v.drain(i..i + n);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(64.min(len - i));
                let chunk = v[i..i + n].to_vec();
                let at = rng.below(v.len() + 1);
                v.splice(at..at, chunk);
            }
            3 => v.truncate(rng.below(len + 1)),
            4 | 5 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let at = rng.below(len + 1);
                v.splice(at..at, t.iter().copied());
            }
            6 => {
                let other = SEEDS[rng.below(SEEDS.len())].1;
                if !other.is_empty() {
                    let i = rng.below(other.len());
                    let n = 1 + rng.below(200.min(other.len() - i));
                    let at = rng.below(len + 1);
                    v.splice(at..at, other[i..i + n].iter().copied());
                }
            }
            7 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next() as u8;
            }
            _ => {
                // Replace a run of digits or letters with an extreme value.
                let at = rng.below(len + 1);
                let t = ["0", "-1", "18446744073709551616", "", "X"][rng.below(5)];
                v.splice(at..at, t.bytes());
            }
        }
        if v.len() > 1 << 20 {
            v.truncate(1 << 20);
        }
    }
    v
}

/// Run every parser on this input. Panics are the only failure.
/// Chapter lines to cut a formatted dump at, some past any input's end.
const DUMP_CHAPTERS: [adt::dumps::DumpChapter; 3] = [
    chapter_at(1, "Short Text"),
    chapter_at(3, "Active Calls/Events"),
    chapter_at(100_000, "Chosen Variables"),
];

const fn chapter_at(line: u32, _title: &'static str) -> adt::dumps::DumpChapter {
    adt::dumps::DumpChapter {
        name: String::new(),
        title: String::new(),
        category: String::new(),
        line,
        order: 0,
    }
}

pub fn run_all(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let s = text.as_ref();
    let _ = codec::parse_debuggee(s);
    let _ = codec::parse_breakpoints(s);
    let _ = codec::parse_breakpoints_detailed(s);
    let _ = codec::parse_named_items(s);
    let _ = codec::parse_discovery(s);
    let _ = codec::parse_attach(s);
    let _ = codec::parse_step(s);
    let _ = codec::parse_step_info(s);
    let _ = codec::parse_actions(s);
    let _ = codec::parse_action_result(s);
    let _ = codec::parse_settings(s);
    let _ = codec::parse_stack(s);
    let _ = codec::parse_child_variables(s);
    let _ = codec::parse_variables(s);
    let _ = codec::parse_watchpoints(s);
    let _ = codec::parse_memory_sizes(s);
    let _ = codec::parse_unit_run_result(s);
    let _ = adt::search::parse_object_references(s);
    let _ = adt::dumps::parse_dumps_feed(s);
    if let Ok(doc) = adt::dumps::parse_dump(s) {
        let _ = doc.termination();
    }
    for chapters in [&[][..], &DUMP_CHAPTERS[..]] {
        let f = adt::dumps::parse_formatted(s, chapters);
        let _ = (
            f.short_text(),
            f.termination(),
            f.calls(),
            f.variables(),
            f.source(),
        );
        let _ = f.header("Except.");
    }
    let _ = codec::fragment_line(s);
    let _ = codec::multipart_boundary(s);
    let ex = adt::error::parse_exception(s);
    for status in [200, 400, 403, 404, 409, 500] {
        let _ = adt::error::classify(status, false, ex.as_ref(), s);
    }
    // Batch answers: the first line is taken as the content type, the rest as the body;
    // also the body under the boundaries of the seeds.
    let (first, rest) = s.split_once('\n').unwrap_or((s, ""));
    let _ = codec::parse_batch_response(first, &std::sync::Arc::new(rest.to_string()));
    let whole = std::sync::Arc::new(s.to_string());
    let _ =
        codec::parse_batch_response("multipart/mixed; boundary=ejjeeffe0c1d2e3f40516273", &whole);
    let _ = codec::parse_batch_response("multipart/mixed; boundary=\"batch_answer_77\"", &whole);
    for line in s.lines().take(4) {
        let _ = adt::address::parse_location(line);
    }
    let _ = adt::address::parse_location(s);
}
