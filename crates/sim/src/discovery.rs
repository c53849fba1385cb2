//! The discovery document (`GET /sap/bc/adt/discovery`): every resource the simulator serves,
//! grouped by workspace as a system groups them, less the collections a fault leaves out
//! (`discoveryWithout`, to stand for a system that lacks them). And the software components
//! feed a system says its release in (`GET /sap/bc/adt/system/components`).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// `(workspace title, [(href, collection title)])`, in document order.
const WORKSPACES: &[(&str, &[(&str, &str)])] = &[
    (
        "Debugger",
        &[
            ("/sap/bc/adt/debugger", "Debugger"),
            ("/sap/bc/adt/debugger/breakpoints", "Breakpoints"),
            (
                "/sap/bc/adt/debugger/breakpoints/statements",
                "Breakpoint Statements",
            ),
            (
                "/sap/bc/adt/debugger/breakpoints/messagetypes",
                "Breakpoint Message Types",
            ),
            (
                "/sap/bc/adt/debugger/breakpoints/validations",
                "Breakpoint Validations",
            ),
            ("/sap/bc/adt/debugger/listeners", "Listeners"),
            ("/sap/bc/adt/debugger/stack", "Stack"),
            ("/sap/bc/adt/debugger/watchpoints", "Watchpoints"),
            ("/sap/bc/adt/debugger/actions", "Actions"),
            ("/sap/bc/adt/debugger/memorysizes", "Memory Sizes"),
            ("/sap/bc/adt/debugger/batch", "Batch Request"),
        ],
    ),
    (
        "ABAP Runtime Errors",
        &[
            ("/sap/bc/adt/runtime/dumps", "Runtime Errors"),
            ("/sap/bc/adt/runtime/dump", "Runtime Error"),
        ],
    ),
    (
        "ABAP Unit",
        &[("/sap/bc/adt/abapunit/testruns", "Test Runs")],
    ),
    ("Class Run", &[("/sap/bc/adt/oo/classrun", "Run a Class")]),
    (
        "Repository Information System",
        &[(crate::search::PATH, "Search")],
    ),
    (
        "Sources",
        &[
            ("/sap/bc/adt/oo/classes", "Classes"),
            ("/sap/bc/adt/programs/programs", "Programs"),
            ("/sap/bc/adt/functions/groups", "Function Groups"),
        ],
    ),
    (
        "Simulator",
        &[("/sap/bc/adt/abapdbg/reportrun", "Run a Report")],
    ),
    (
        "Compatibility",
        &[("/sap/bc/adt/compatibility/graph", "Compatibility Graph")],
    ),
    (
        "System Information",
        &[("/sap/bc/adt/system/components", "Installed Components")],
    ),
];

/// The release the simulator reports (its answers follow captures of SAP_BASIS 758).
const BASIS_RELEASE: &str = "758";

/// The discovery document without the collections in `without` (compared ignoring a
/// trailing slash).
pub(crate) fn document(without: &[String]) -> String {
    let left_out = |href: &str| without.iter().any(|w| w.trim_end_matches('/') == href);
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><app:service xmlns:app=\"http://www.w3.org/2007/app\" xmlns:atom=\"http://www.w3.org/2005/Atom\">",
    );
    for (workspace, collections) in WORKSPACES {
        out.push_str("<app:workspace><atom:title>");
        out.push_str(workspace);
        out.push_str("</atom:title>");
        for (href, title) in collections.iter().filter(|(h, _)| !left_out(h)) {
            out.push_str("<app:collection href=\"");
            out.push_str(href);
            out.push_str("\"><atom:title>");
            out.push_str(title);
            out.push_str("</atom:title></app:collection>");
        }
        out.push_str("</app:workspace>");
    }
    out.push_str("</app:service>");
    out
}

/// The software components feed: an Atom feed, one entry per component, its title
/// `release;support package;level;description`.
pub(crate) fn components() -> Response {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><atom:feed xmlns:atom=\"http://www.w3.org/2005/Atom\"><atom:title>Installed Software Components</atom:title>\
<atom:entry><atom:id>SAP_BASIS</atom:id><atom:title>{BASIS_RELEASE};SAPK-{BASIS_RELEASE}02INSAPBASIS;0002;SAP Basis Component (simulated)</atom:title></atom:entry>\
<atom:entry><atom:id>SAP_ABA</atom:id><atom:title>75I;SAPK-75I02INSAPABA;0002;Cross-Application Component (simulated)</atom:title></atom:entry></atom:feed>"
    );
    let mut r = body.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/atom+xml;type=feed; charset=utf-8"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_out_what_it_is_told() {
        let all = document(&[]);
        assert!(all.contains("href=\"/sap/bc/adt/debugger/batch\""));
        let less = document(&["/sap/bc/adt/debugger/batch/".to_string()]);
        assert!(!less.contains("/sap/bc/adt/debugger/batch"));
        assert!(less.contains("href=\"/sap/bc/adt/debugger/watchpoints\""));
    }
}
