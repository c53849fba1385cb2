//! What a system says it offers: the collections of its discovery document
//! (`GET /sap/bc/adt/discovery`) mapped to what the debugger can use, and the release of its
//! ABAP platform from the installed software components (`GET /sap/bc/adt/system/components`,
//! read only when the discovery document lists it).
//!
//! A capability is absent only when a discovery document was read and does not list its
//! collection; a system whose document could not be read is assumed to have everything (the
//! first use then tells, as before).

use serde::{Deserialize, Serialize};

use crate::codec::CodecError;
use crate::xml;

/// The collection each capability needs.
pub const BATCH: &str = "/sap/bc/adt/debugger/batch";
pub const WATCHPOINTS: &str = "/sap/bc/adt/debugger/watchpoints";
/// Debugger settings are a method of the debugger resource itself (`setDebuggerSettings`).
pub const DEBUGGER: &str = "/sap/bc/adt/debugger";
pub const DUMPS: &str = "/sap/bc/adt/runtime/dumps";
pub const ABAP_UNIT: &str = "/sap/bc/adt/abapunit/testruns";
pub const CLASSRUN: &str = "/sap/bc/adt/oo/classrun";
/// The software components feed that carries the release.
pub const COMPONENTS: &str = "/sap/bc/adt/system/components";

/// What the debugger can use on a system, one flag per feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// `POST /debugger/batch`: step, stack and variables in one round trip.
    pub batch: bool,
    /// Watchpoints (`watch`).
    pub watchpoints: bool,
    /// Debugger settings (`settings`, `configure` with settings).
    pub settings: bool,
    /// The short dump feed (`dumps`, `dump`).
    pub dumps: bool,
    /// ABAP Unit test runs (`test`).
    pub abap_unit: bool,
    /// Running a class's main method (`run` of a class).
    pub classrun: bool,
}

impl Capabilities {
    /// Everything: what is assumed while nothing is known.
    pub const ALL: Capabilities = Capabilities {
        batch: true,
        watchpoints: true,
        settings: true,
        dumps: true,
        abap_unit: true,
        classrun: true,
    };

    /// From the collection hrefs of a discovery document.
    pub fn from_collections(collections: &[String]) -> Capabilities {
        let has = |href: &str| {
            collections
                .iter()
                .any(|c| c.trim_end_matches('/').eq_ignore_ascii_case(href))
        };
        Capabilities {
            batch: has(BATCH),
            watchpoints: has(WATCHPOINTS),
            settings: has(DEBUGGER),
            dumps: has(DUMPS),
            abap_unit: has(ABAP_UNIT),
            classrun: has(CLASSRUN),
        }
    }

    /// `(name, available)` in a fixed order, with the names the protocol uses.
    pub fn named(&self) -> [(&'static str, bool); 6] {
        [
            ("batch", self.batch),
            ("watchpoints", self.watchpoints),
            ("settings", self.settings),
            ("dumps", self.dumps),
            ("abap_unit", self.abap_unit),
            ("classrun", self.classrun),
        ]
    }
}

/// What discovery found on one system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemDiscovery {
    /// The collection hrefs, in document order.
    pub collections: Vec<String>,
    pub capabilities: Capabilities,
    /// The release of the ABAP platform (`SAP_BASIS`, e.g. `758`), when the system says it.
    pub release: Option<String>,
}

impl SystemDiscovery {
    pub fn new(collections: Vec<String>, release: Option<String>) -> SystemDiscovery {
        SystemDiscovery {
            capabilities: Capabilities::from_collections(&collections),
            collections,
            release,
        }
    }

    /// Whether the document lists the components feed the release is read from.
    pub fn lists_components(&self) -> bool {
        self.collections
            .iter()
            .any(|c| c.trim_end_matches('/') == COMPONENTS)
    }
}

/// The `SAP_BASIS` release of a software components feed (an Atom feed whose entries have
/// the component as `id` and `release;support package;level;description` as `title`).
/// `Ok(None)` when the feed has no such entry.
pub fn parse_components_release(body: &str) -> Result<Option<String>, CodecError> {
    let feed = xml::parse(body)?;
    if feed.name != "feed" {
        return Err(CodecError(format!(
            "expected an Atom feed, got <{}>",
            feed.name
        )));
    }
    Ok(feed
        .children_named("entry")
        .find(|e| e.child_text("id").trim().eq_ignore_ascii_case("SAP_BASIS"))
        .and_then(|e| {
            let title = e.child_text("title");
            let release = title.split(';').next().unwrap_or_default().trim();
            (!release.is_empty() && release.len() <= 20).then(|| release.to_string())
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_follow_the_listed_collections() {
        let listed = |hrefs: &[&str]| {
            Capabilities::from_collections(&hrefs.iter().map(|h| h.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(
            listed(&[
                "/sap/bc/adt/debugger/batch",
                "/sap/bc/adt/debugger/watchpoints/",
                "/sap/bc/adt/debugger",
                "/sap/bc/adt/runtime/dumps",
                "/sap/bc/adt/abapunit/testruns",
                "/sap/bc/adt/oo/classrun",
            ]),
            Capabilities::ALL
        );
        let few = listed(&["/sap/bc/adt/debugger/breakpoints", "/sap/bc/adt/debugger"]);
        assert!(few.settings);
        assert!(!few.batch && !few.watchpoints && !few.dumps && !few.abap_unit && !few.classrun);
    }

    #[test]
    fn release_is_the_basis_component() {
        let feed = r#"<?xml version="1.0" encoding="utf-8"?><atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:title>Installed Components</atom:title><atom:entry><atom:id>SAP_ABA</atom:id><atom:title>75I;SAPK-75I02INSAPABA;0002;Cross-Application Component</atom:title></atom:entry><atom:entry><atom:id>SAP_BASIS</atom:id><atom:title>758;SAPK-75802INSAPBASIS;0002;SAP Basis Component</atom:title></atom:entry></atom:feed>"#;
        assert_eq!(
            parse_components_release(feed).ok().flatten().as_deref(),
            Some("758")
        );
        let none = r#"<feed><entry><id>SAP_ABA</id><title>75I;x</title></entry></feed>"#;
        assert_eq!(parse_components_release(none).ok().flatten(), None);
        assert!(parse_components_release("<service/>").is_err());
    }
}
