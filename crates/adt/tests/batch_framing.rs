//! A batch answer read in every framing the multipart rules allow, not only the one the
//! simulator writes: the boundary from the content type (quoted or not) or, when a multipart
//! type names none, from the body; CRLF or LF line ends; a preamble and an epilogue; parts with
//! or without MIME headers and `Content-ID`; transport padding after a delimiter.

use std::sync::Arc;

use adt::codec::parse_batch_response;

/// Two answers (a stack document and a 404) written with the given line end, headers and
/// surroundings.
fn framed(eol: &str, mime_headers: &str, preamble: &str, epilogue: &str, pad: &str) -> String {
    let part = |status: &str, body: &str| {
        format!(
            "--b1{pad}{eol}{mime_headers}{eol}HTTP/1.1 {status}{eol}Content-Type: application/xml{eol}Content-Length: {}{eol}{eol}{body}{eol}",
            body.len()
        )
    };
    format!(
        "{preamble}{}{}--b1--{eol}{epilogue}",
        part("200 OK", "<dbg:stack/>"),
        part("404 Not Found", "<exc:exception/>")
    )
}

fn read(content_type: &str, body: String) -> Vec<(u16, String)> {
    let body = Arc::new(body);
    let parts = parse_batch_response(content_type, &body)
        .unwrap_or_else(|e| panic!("not read: {e:?}\n{body}"));
    parts
        .into_iter()
        .map(|p| {
            let p = p.unwrap_or_else(|e| panic!("a part not read: {e:?}\n{body}"));
            (p.status, p.body.to_string())
        })
        .collect()
}

#[test]
fn every_framing_the_multipart_rules_allow_is_read() {
    let expected = vec![
        (200, "<dbg:stack/>".to_string()),
        (404, "<exc:exception/>".to_string()),
    ];
    for eol in ["\r\n", "\n"] {
        for headers in [
            format!("Content-Type: application/http{eol}Content-Transfer-Encoding: binary{eol}"),
            format!("Content-Type: application/http{eol}Content-ID: <part-1>{eol}"),
            String::new(),
        ] {
            for preamble in ["", "This is a multipart answer.\r\n", "\r\n"] {
                for epilogue in ["", "trailing words\r\n"] {
                    for pad in ["", "  ", "\t"] {
                        for ct in [
                            "multipart/mixed; boundary=b1",
                            "multipart/mixed; boundary=\"b1\"",
                            "Multipart/Mixed;charset=utf-8;Boundary=b1",
                            "multipart/mixed",
                        ] {
                            let body = framed(eol, &headers, preamble, epilogue, pad);
                            assert_eq!(
                                read(ct, body.clone()),
                                expected,
                                "content type {ct:?}, body {body:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn what_is_not_multipart_is_an_error_not_a_guess() {
    let body = Arc::new("<dbg:stack/>".to_string());
    assert!(parse_batch_response("application/xml", &body).is_err());
    assert!(parse_batch_response("multipart/mixed", &body).is_err());
}
