//! Framing and request parsing: well-formed messages round-trip; malformed ones are typed
//! errors; arbitrary bytes never panic and always end.

use std::io::Cursor;

use dap::framing::{FramingError, MAX_CONTENT_BYTES, encode, read_body, read_message};
use dap::message::{RequestError, parse_request};
use proptest::prelude::*;
use serde_json::{Value, json};

fn read_all(bytes: &[u8]) -> Vec<Result<Value, String>> {
    let mut input = Cursor::new(bytes.to_vec());
    let mut out = Vec::new();
    // Every read consumes input or ends it: the loop is bounded by the input's length.
    for _ in 0..=bytes.len() {
        match read_message(&mut input) {
            Ok(None) => return out,
            Ok(Some(v)) => out.push(Ok(v)),
            Err(e) => {
                let go_on = e.recoverable();
                out.push(Err(e.to_string()));
                if !go_on {
                    return out;
                }
            }
        }
    }
    panic!("the reader did not finish a finite input");
}

#[test]
fn messages_round_trip_back_to_back() {
    let a = json!({"seq": 1, "type": "request", "command": "initialize", "arguments": {"adapterID": "abap"}});
    let b = json!({"seq": 2, "type": "request", "command": "threads"});
    let mut bytes = encode(&a);
    bytes.extend(encode(&b));
    let got = read_all(&bytes);
    assert_eq!(got, vec![Ok(a), Ok(b)]);
}

#[test]
fn the_length_counts_bytes_not_characters() {
    let m = json!({"seq": 1, "type": "request", "command": "evaluate", "arguments": {"expression": "ÄÖÜ €"}});
    let bytes = encode(&m);
    let text = String::from_utf8(bytes.clone()).unwrap();
    let body = m.to_string();
    assert!(text.starts_with(&format!("Content-Length: {}\r\n\r\n", body.len())));
    assert_eq!(read_all(&bytes), vec![Ok(m)]);
}

#[test]
fn header_case_extra_headers_and_bare_newlines_are_accepted() {
    let body = r#"{"seq":3,"type":"request","command":"next"}"#;
    let bytes = format!(
        "content-length: {}\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{body}",
        body.len()
    );
    assert_eq!(read_all(bytes.as_bytes()).len(), 1);
    assert!(read_all(bytes.as_bytes())[0].is_ok());
}

#[test]
fn a_clean_end_is_no_error() {
    assert!(read_all(b"").is_empty());
    let mut input = Cursor::new(Vec::new());
    assert!(matches!(read_body(&mut input), Ok(None)));
}

fn first_error(bytes: &[u8]) -> FramingError {
    let mut input = Cursor::new(bytes.to_vec());
    match read_message(&mut input) {
        Err(e) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn malformed_headers_are_typed_errors() {
    assert!(matches!(
        first_error(b"Content-Type: x\r\n\r\n{}"),
        FramingError::MissingLength
    ));
    assert!(matches!(
        first_error(b"Content-Length: ten\r\n\r\n{}"),
        FramingError::BadLength(_)
    ));
    assert!(matches!(
        first_error(b"Content-Length: -1\r\n\r\n{}"),
        FramingError::BadLength(_)
    ));
    assert!(matches!(
        first_error(b"just some text\r\n\r\n"),
        FramingError::BadHeader(_)
    ));
    let huge = format!("Content-Length: {}\r\n\r\n", MAX_CONTENT_BYTES + 1);
    assert!(matches!(
        first_error(huge.as_bytes()),
        FramingError::TooLarge(_)
    ));
    let long = format!("X-Pad: {}\r\n", "a".repeat(5000));
    assert!(matches!(
        first_error(long.as_bytes()),
        FramingError::HeaderTooLong
    ));
}

#[test]
fn a_body_shorter_than_announced_is_truncated_not_a_wait() {
    assert!(matches!(
        first_error(b"Content-Length: 100\r\n\r\n{\"seq\":1}"),
        FramingError::Truncated
    ));
    assert!(matches!(
        first_error(b"Content-Length: 2\r\n"),
        FramingError::Truncated
    ));
}

#[test]
fn a_bad_body_is_skipped_and_the_next_message_read() {
    let good = json!({"seq": 2, "type": "request", "command": "threads"});
    let mut bytes = b"Content-Length: 5\r\n\r\n{oops".to_vec();
    bytes.extend(encode(&good));
    let got = read_all(&bytes);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].as_ref().is_err_and(|e| e.contains("not UTF-8 JSON")));
    assert_eq!(got[1], Ok(good));
}

#[test]
fn requests_are_read_and_non_requests_refused() {
    let r = parse_request(
        &json!({"seq": 7, "type": "request", "command": "next", "arguments": {"threadId": 1}}),
    )
    .unwrap();
    assert_eq!((r.seq, r.command.as_str()), (7, "next"));
    assert_eq!(r.arguments["threadId"], 1);
    let r = parse_request(&json!({"seq": 8, "type": "request", "command": "threads"})).unwrap();
    assert_eq!(r.arguments, json!({}));

    assert_eq!(parse_request(&json!([1])), Err(RequestError::NotAnObject));
    assert_eq!(
        parse_request(&json!({"type": "request", "command": "x"})),
        Err(RequestError::NoSeq)
    );
    assert!(matches!(
        parse_request(&json!({"seq": 1, "type": "event", "event": "x"})),
        Err(RequestError::NotARequest(_))
    ));
    let no_command = parse_request(&json!({"seq": 4, "type": "request"})).unwrap_err();
    assert_eq!(no_command.answerable(), Some((4, "")));
    let bad_args =
        parse_request(&json!({"seq": 5, "type": "request", "command": "next", "arguments": 3}))
            .unwrap_err();
    assert_eq!(bad_args.answerable(), Some((5, "next")));
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_always_end(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = read_all(&bytes);
    }

    #[test]
    fn header_like_noise_never_panics(
        lines in proptest::collection::vec("(Content-Length|content-length|X)(: ?)[0-9a-z -]{0,12}", 0..4),
        body in "[ -~]{0,40}",
    ) {
        let mut text = lines.join("\r\n");
        text.push_str("\r\n\r\n");
        text.push_str(&body);
        let _ = read_all(text.as_bytes());
    }

    #[test]
    fn any_json_value_round_trips(s in "[ -~]{0,60}", n in any::<i64>()) {
        let m = json!({"seq": n, "type": "request", "command": s, "arguments": {"text": s}});
        prop_assert_eq!(read_all(&encode(&m)), vec![Ok(m)]);
    }

    #[test]
    fn request_parsing_never_panics(s in "[ -~]{0,80}") {
        if let Ok(v) = serde_json::from_str::<Value>(&s) {
            let _ = parse_request(&v);
        }
    }

    #[test]
    fn request_shapes_never_panic(
        seq in proptest::option::of(any::<i64>()),
        ty in proptest::option::of("[a-z]{0,8}"),
        command in proptest::option::of("[a-zA-Z]{0,12}"),
        args in prop_oneof![Just(Value::Null), Just(json!(1)), Just(json!({})), Just(json!([]))],
    ) {
        let mut m = json!({"arguments": args});
        if let Some(seq) = seq { m["seq"] = json!(seq); }
        if let Some(ty) = ty { m["type"] = json!(ty); }
        if let Some(c) = command { m["command"] = json!(c); }
        let _ = parse_request(&m);
    }
}
