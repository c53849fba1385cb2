//! The breakpoint registry: what the user asked for, and what the system made of it.
//!
//! The registry is the source of truth; the server is synced per object with a partial
//! `syncScope`, so breakpoints we do not own (other objects, other tools) are never removed.

use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BpStatus {
    /// Not yet confirmed by the system.
    Pending,
    Verified,
    Rejected,
}

impl BpStatus {
    fn as_str(self) -> &'static str {
        match self {
            BpStatus::Pending => "pending",
            BpStatus::Verified => "verified",
            BpStatus::Rejected => "rejected",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Breakpoint {
    pub(crate) id: u32,
    /// As the user wrote it (`ZCL_X:12`).
    pub(crate) location: String,
    pub(crate) object: String,
    /// Object source URI without fragment.
    pub(crate) uri: String,
    pub(crate) line: u32,
    pub(crate) condition: Option<String>,
    pub(crate) status: BpStatus,
    pub(crate) server_id: Option<String>,
    pub(crate) reason: Option<String>,
}

impl Breakpoint {
    pub(crate) fn client_id(&self) -> String {
        format!("abapdbg-{}", self.id)
    }

    pub(crate) fn spec(&self) -> adt::BreakpointSpec {
        adt::BreakpointSpec {
            client_id: self.client_id(),
            kind: adt::BreakpointKind::Line {
                uri: self.uri.clone(),
                line: self.line,
            },
            condition: self.condition.clone(),
        }
    }

    pub(crate) fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id,
            "location": self.location,
            "object": self.object,
            "line": self.line,
            "uri": format!("{}#start={}", self.uri, self.line),
            "status": self.status.as_str(),
        });
        if let Some(c) = &self.condition {
            v["condition"] = c.clone().into();
        }
        if let Some(s) = &self.server_id {
            v["server_id"] = s.clone().into();
        }
        if let Some(r) = &self.reason {
            v["reason"] = r.clone().into();
            v["code"] = "breakpoint.not_executable".into();
        }
        v
    }
}

#[derive(Default)]
pub(crate) struct Registry {
    next_id: u32,
    items: Vec<Breakpoint>,
}

impl Registry {
    pub(crate) fn add(
        &mut self,
        loc: adt::address::SourceLocation,
        text: &str,
        condition: Option<String>,
    ) -> u32 {
        self.next_id += 1;
        self.items.push(Breakpoint {
            id: self.next_id,
            location: text.to_string(),
            object: loc.object,
            uri: loc.uri,
            line: loc.line,
            condition,
            status: BpStatus::Pending,
            server_id: None,
            reason: None,
        });
        self.next_id
    }

    pub(crate) fn all(&self) -> &[Breakpoint] {
        &self.items
    }

    pub(crate) fn get(&self, id: u32) -> Option<&Breakpoint> {
        self.items.iter().find(|b| b.id == id)
    }

    /// Every breakpoint of one object source, as the partial sync must send them.
    pub(crate) fn specs_for(&self, uri: &str) -> Vec<adt::BreakpointSpec> {
        self.items
            .iter()
            .filter(|b| b.uri == uri)
            .map(Breakpoint::spec)
            .collect()
    }

    /// Object source URIs we hold breakpoints in, each once.
    pub(crate) fn uris(&self) -> Vec<String> {
        let mut uris: Vec<String> = Vec::new();
        for b in &self.items {
            if !uris.contains(&b.uri) {
                uris.push(b.uri.clone());
            }
        }
        uris
    }

    /// Records the server's verdicts (matched by clientId, never by position).
    pub(crate) fn apply(&mut self, results: &[adt::BreakpointResult]) {
        for r in results {
            let Some(bp) = self.items.iter_mut().find(|b| b.client_id() == r.client_id) else {
                continue;
            };
            match (&r.id, &r.error_message) {
                (Some(server_id), _) => {
                    bp.status = BpStatus::Verified;
                    bp.server_id = Some(server_id.clone());
                    bp.reason = None;
                }
                (None, reason) => {
                    bp.status = BpStatus::Rejected;
                    bp.server_id = None;
                    bp.reason = Some(
                        reason
                            .clone()
                            .unwrap_or_else(|| "refused by the system without a reason".into()),
                    );
                }
            }
        }
    }

    /// Our ids of the breakpoints behind server ids (as reported in a stop).
    pub(crate) fn ids_for_server_ids(&self, server_ids: &[String]) -> Vec<u32> {
        self.items
            .iter()
            .filter(|b| b.server_id.as_ref().is_some_and(|s| server_ids.contains(s)))
            .map(|b| b.id)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(object: &str, line: u32) -> adt::address::SourceLocation {
        adt::address::SourceLocation {
            object: object.into(),
            uri: format!(
                "/sap/bc/adt/oo/classes/{}/source/main",
                object.to_lowercase()
            ),
            line,
        }
    }

    #[test]
    fn verdicts_match_by_client_id_whatever_the_order() {
        let mut r = Registry::default();
        let a = r.add(loc("ZCL_A", 10), "ZCL_A:10", None);
        let b = r.add(loc("ZCL_A", 3), "ZCL_A:3", None);
        r.apply(&[
            adt::BreakpointResult {
                client_id: format!("abapdbg-{b}"),
                id: None,
                error_message: Some("Cannot create a breakpoint at this position".into()),
                kind: "line".into(),
                uri: None,
            },
            adt::BreakpointResult {
                client_id: format!("abapdbg-{a}"),
                id: Some("KIND=0.X".into()),
                error_message: None,
                kind: "line".into(),
                uri: None,
            },
        ]);
        assert_eq!(r.get(a).map(|x| x.status), Some(BpStatus::Verified));
        assert_eq!(r.get(b).map(|x| x.status), Some(BpStatus::Rejected));
        assert_eq!(r.ids_for_server_ids(&["KIND=0.X".into()]), vec![a]);
        assert_eq!(
            r.get(b).map(|x| x.to_json()["code"].clone()),
            Some("breakpoint.not_executable".into())
        );
    }

    #[test]
    fn specs_are_per_object() {
        let mut r = Registry::default();
        r.add(loc("ZCL_A", 10), "ZCL_A:10", None);
        r.add(loc("ZCL_B", 5), "ZCL_B:5", None);
        r.add(loc("ZCL_A", 12), "ZCL_A:12", None);
        assert_eq!(r.uris().len(), 2);
        assert_eq!(
            r.specs_for("/sap/bc/adt/oo/classes/zcl_a/source/main")
                .len(),
            2
        );
    }
}
