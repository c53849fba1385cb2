//! The breakpoint registry: what the user asked for, and what the system made of it.
//!
//! The registry is the source of truth. Line breakpoints are synced per object with a partial
//! `syncScope`, so breakpoints we do not own (other objects, other tools) are never removed;
//! the kinds that belong to no object (statement, exception, message) are added without a
//! scope and removed by their server id.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BpStatus {
    /// Not yet confirmed by the system.
    Pending,
    Verified,
    Rejected,
    /// Kept here, not on the system (`bp.disable`, `detach`).
    Disabled,
}

impl BpStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            BpStatus::Pending => "pending",
            BpStatus::Verified => "verified",
            BpStatus::Rejected => "rejected",
            BpStatus::Disabled => "disabled",
        }
    }
}

/// What a breakpoint stops on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    Line {
        object: String,
        /// Object source URI without fragment.
        uri: String,
        line: u32,
    },
    Statement(String),
    Exception(String),
    Message {
        id: String,
        number: String,
        ty: String,
    },
}

impl Target {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Target::Line { .. } => "line",
            Target::Statement(_) => "statement",
            Target::Exception(_) => "exception",
            Target::Message { .. } => "message",
        }
    }

    /// The object of a line breakpoint.
    pub(crate) fn object(&self) -> Option<&str> {
        match self {
            Target::Line { object, .. } => Some(object),
            _ => None,
        }
    }

    /// The object source it is synced with, for line breakpoints.
    pub(crate) fn uri(&self) -> Option<&str> {
        match self {
            Target::Line { uri, .. } => Some(uri),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Breakpoint {
    pub(crate) id: u32,
    /// As the user wrote it (`ZCL_X:12`), or a description for the other kinds.
    pub(crate) location: String,
    pub(crate) target: Target,
    pub(crate) condition: Option<String>,
    pub(crate) enabled: bool,
    pub(crate) status: BpStatus,
    pub(crate) server_id: Option<String>,
    pub(crate) reason: Option<String>,
    /// Another user whose runs it stops (a `dump.catch` of that user's dump); `None`: the
    /// session's user. Sent with that user as `requestUser`, caught by that user's listener.
    pub(crate) user: Option<String>,
}

impl Breakpoint {
    /// Rejected with the system's plain "not at this position" (and nothing more said yet).
    pub(crate) fn refused_at_position(&self) -> bool {
        self.status == BpStatus::Rejected
            && self
                .reason
                .as_deref()
                .is_some_and(|r| refusal_code(r) == "breakpoint.not_executable")
    }

    pub(crate) fn client_id(&self) -> String {
        format!("abapdbg-{}", self.id)
    }

    pub(crate) fn spec(&self) -> adt::BreakpointSpec {
        let kind = match &self.target {
            Target::Line { uri, line, .. } => adt::BreakpointKind::Line {
                uri: uri.clone(),
                line: *line,
            },
            Target::Statement(s) => adt::BreakpointKind::Statement {
                statement: s.clone(),
            },
            Target::Exception(c) => adt::BreakpointKind::Exception { class: c.clone() },
            Target::Message { id, number, ty } => adt::BreakpointKind::Message {
                id: id.clone(),
                number: number.clone(),
                ty: ty.clone(),
            },
        };
        adt::BreakpointSpec {
            client_id: self.client_id(),
            kind,
            condition: self.condition.clone(),
        }
    }

    #[cfg(test)]
    pub(crate) fn to_json(&self) -> serde_json::Value {
        crate::to_proto::json(&crate::to_proto::breakpoint(self))
    }
}

/// Include and include line from a line breakpoint's server id
/// (`KIND=0.SOURCETYPE=ABAP.MAIN_PROGRAM=P.INCLUDE=I.LINE_NR=7`).
pub(crate) fn include_of(server_id: &str) -> Option<(String, u32)> {
    let include = server_id
        .split(".INCLUDE=")
        .nth(1)?
        .split(".LINE_NR=")
        .next()?;
    let line = server_id.split(".LINE_NR=").nth(1)?.parse().ok()?;
    Some((include.to_string(), line))
}

/// A stable code for the system's refusal text.
pub(crate) fn refusal_code(reason: &str) -> &'static str {
    let r = reason.to_ascii_lowercase();
    if r.contains("does not exist on the system") {
        "breakpoint.object_not_found"
    } else if r.contains("cannot create a breakpoint at this position") {
        "breakpoint.not_executable"
    } else if r.contains("invalid breakpoint kind") {
        "breakpoint.invalid_kind"
    } else if r.contains("condition") {
        "breakpoint.condition_error"
    } else {
        "breakpoint.rejected"
    }
}

/// The most breakpoints one session holds. A real system takes about 30 external breakpoints
/// per user; beyond this a `bp.set` or `bp.import` is refused (`breakpoint.limit`, issue 25),
/// so a client cannot make every later sync and `bp.list` grow without bound.
pub const MAX_BREAKPOINTS: usize = 100;

#[derive(Default)]
pub(crate) struct Registry {
    next_id: u32,
    items: Vec<Breakpoint>,
}

impl Registry {
    #[cfg(test)]
    pub(crate) fn add(&mut self, target: Target, text: &str, condition: Option<String>) -> u32 {
        self.add_for(target, text, condition, None)
    }

    /// Adds a breakpoint that stops the runs of `user` (`None`: the session's user).
    pub(crate) fn add_for(
        &mut self,
        target: Target,
        text: &str,
        condition: Option<String>,
        user: Option<String>,
    ) -> u32 {
        self.next_id += 1;
        self.items.push(Breakpoint {
            id: self.next_id,
            location: text.to_string(),
            target,
            condition,
            enabled: true,
            status: BpStatus::Pending,
            server_id: None,
            reason: None,
            user,
        });
        self.next_id
    }

    /// The breakpoint that stops on `target` under `condition`, if one is registered: a second
    /// `bp.set` of it answers this one, never a duplicate.
    pub(crate) fn find(
        &self,
        target: &Target,
        condition: Option<&str>,
        user: Option<&str>,
    ) -> Option<u32> {
        self.items
            .iter()
            .find(|b| {
                &b.target == target
                    && b.condition.as_deref() == condition
                    && b.user.as_deref() == user
            })
            .map(|b| b.id)
    }

    /// How many breakpoints of one object source the system holds: enabled (a disabled one
    /// was taken off) and accepted (a server id).
    pub(crate) fn on_system_for(&self, uri: &str, user: Option<&str>) -> usize {
        self.items
            .iter()
            .filter(|b| {
                b.enabled
                    && b.target.uri() == Some(uri)
                    && b.user.as_deref() == user
                    && b.server_id.is_some()
            })
            .count()
    }

    pub(crate) fn all(&self) -> &[Breakpoint] {
        &self.items
    }

    pub(crate) fn get(&self, id: u32) -> Option<&Breakpoint> {
        self.items.iter().find(|b| b.id == id)
    }

    pub(crate) fn get_mut(&mut self, id: u32) -> Option<&mut Breakpoint> {
        self.items.iter_mut().find(|b| b.id == id)
    }

    pub(crate) fn remove(&mut self, id: u32) -> Option<Breakpoint> {
        let i = self.items.iter().position(|b| b.id == id)?;
        Some(self.items.remove(i))
    }

    /// Every enabled line breakpoint of one object source for one user, as the partial sync
    /// (which the system scopes to its `requestUser`) must send them.
    pub(crate) fn specs_for(&self, uri: &str, user: Option<&str>) -> Vec<adt::BreakpointSpec> {
        self.items
            .iter()
            .filter(|b| b.enabled && b.target.uri() == Some(uri) && b.user.as_deref() == user)
            .map(Breakpoint::spec)
            .collect()
    }

    /// Object source URIs we hold line breakpoints in, each once per user they are for.
    pub(crate) fn uris(&self) -> Vec<(String, Option<String>)> {
        let mut uris: Vec<(String, Option<String>)> = Vec::new();
        for b in &self.items {
            if let Some(u) = b.target.uri()
                && !uris.iter().any(|(x, who)| x == u && *who == b.user)
            {
                uris.push((u.to_string(), b.user.clone()));
            }
        }
        uris
    }

    /// Server ids of the breakpoints that belong to no object (removed one by one), with the
    /// user they were set for.
    pub(crate) fn unscoped_server_ids(&self) -> Vec<(String, Option<String>)> {
        self.items
            .iter()
            .filter(|b| b.target.uri().is_none())
            .filter_map(|b| b.server_id.clone().map(|s| (s, b.user.clone())))
            .collect()
    }

    /// The other users some breakpoint is for, each once.
    pub(crate) fn other_users(&self) -> Vec<String> {
        let mut users: Vec<String> = Vec::new();
        for u in self.items.iter().filter_map(|b| b.user.as_ref()) {
            if !users.contains(u) {
                users.push(u.clone());
            }
        }
        users
    }

    /// Records the server's verdicts (matched by clientId, never by position). Returns the
    /// ids whose status changed.
    pub(crate) fn apply(&mut self, results: &[adt::BreakpointResult]) -> Vec<u32> {
        let mut changed = Vec::new();
        for r in results {
            let Some(bp) = self.items.iter_mut().find(|b| b.client_id() == r.client_id) else {
                continue;
            };
            let before = (bp.status, bp.server_id.clone());
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
            if before != (bp.status, bp.server_id.clone()) {
                changed.push(bp.id);
            }
        }
        changed
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
    use serde_json::json;

    fn line(object: &str, line: u32) -> Target {
        Target::Line {
            object: object.into(),
            uri: format!(
                "/sap/bc/adt/oo/classes/{}/source/main",
                object.to_lowercase()
            ),
            line,
        }
    }

    fn result(client_id: String, id: Option<&str>, error: Option<&str>) -> adt::BreakpointResult {
        adt::BreakpointResult {
            client_id,
            id: id.map(str::to_string),
            error_message: error.map(str::to_string),
            kind: "line".into(),
            uri: None,
        }
    }

    #[test]
    fn verdicts_match_by_client_id_whatever_the_order() {
        let mut r = Registry::default();
        let a = r.add(line("ZCL_A", 10), "ZCL_A:10", None);
        let b = r.add(line("ZCL_A", 3), "ZCL_A:3", None);
        let changed = r.apply(&[
            result(
                format!("abapdbg-{b}"),
                None,
                Some("Cannot create a breakpoint at this position"),
            ),
            result(
                format!("abapdbg-{a}"),
                Some("KIND=0.SOURCETYPE=ABAP.MAIN_PROGRAM=P.INCLUDE=ZCL_A=====CM001.LINE_NR=4"),
                None,
            ),
        ]);
        assert_eq!(changed, vec![b, a]);
        assert_eq!(r.get(a).map(|x| x.status), Some(BpStatus::Verified));
        assert_eq!(r.get(b).map(|x| x.status), Some(BpStatus::Rejected));
        let server = r
            .get(a)
            .and_then(|x| x.server_id.clone())
            .unwrap_or_default();
        assert_eq!(r.ids_for_server_ids(&[server]), vec![a]);
        let ja = r.get(a).map(Breakpoint::to_json).unwrap_or_default();
        assert_eq!(ja["include"], "ZCL_A=====CM001");
        assert_eq!(ja["include_line"], 4);
        let jb = r.get(b).map(Breakpoint::to_json).unwrap_or_default();
        assert_eq!(jb["code"], "breakpoint.not_executable");
    }

    #[test]
    fn specs_are_per_object_and_skip_disabled() {
        let mut r = Registry::default();
        r.add(line("ZCL_A", 10), "ZCL_A:10", None);
        r.add(line("ZCL_B", 5), "ZCL_B:5", None);
        let c = r.add(line("ZCL_A", 12), "ZCL_A:12", None);
        r.add(Target::Statement("CATCH".into()), "statement CATCH", None);
        assert_eq!(r.uris().len(), 2);
        let uri = "/sap/bc/adt/oo/classes/zcl_a/source/main";
        assert_eq!(r.specs_for(uri, None).len(), 2);
        // Another user's breakpoint in the same source is synced apart, with that user.
        r.add_for(line("ZCL_A", 14), "ZCL_A:14", None, Some("TESTER".into()));
        assert_eq!(r.uris().len(), 3);
        assert_eq!(r.specs_for(uri, None).len(), 2);
        assert_eq!(r.specs_for(uri, Some("TESTER")).len(), 1);
        assert_eq!(r.other_users(), vec!["TESTER".to_string()]);
        if let Some(bp) = r.get_mut(c) {
            bp.enabled = false;
        }
        assert_eq!(r.specs_for(uri, None).len(), 1);
    }

    #[test]
    fn only_enabled_accepted_breakpoints_count_as_on_the_system() {
        let mut r = Registry::default();
        let uri = "/sap/bc/adt/oo/classes/zcl_a/source/main";
        let ids: Vec<u32> = [10, 11, 12]
            .iter()
            .map(|l| r.add(line("ZCL_A", *l), "ZCL_A", None))
            .collect();
        r.apply(&[
            result(format!("abapdbg-{}", ids[0]), Some("S1"), None),
            result(format!("abapdbg-{}", ids[1]), None, Some("not here")),
            result(format!("abapdbg-{}", ids[2]), Some("S3"), None),
        ]);
        assert_eq!(r.on_system_for(uri, None), 2);
        if let Some(bp) = r.get_mut(ids[2]) {
            bp.enabled = false;
        }
        assert_eq!(r.on_system_for(uri, None), 1);
        // The same target and condition is found again; another condition is not.
        assert_eq!(r.find(&line("ZCL_A", 10), None, None), Some(ids[0]));
        assert_eq!(r.find(&line("ZCL_A", 10), Some("X = 1"), None), None);
    }

    /// The form `bp.export` writes and `bp.import`/`bp.set` read back.
    fn export(b: &Breakpoint) -> serde_json::Value {
        crate::to_proto::json(&crate::to_proto::breakpoint_args(b))
    }

    #[test]
    fn export_round_trips_the_shape_of_bp_set() {
        let mut r = Registry::default();
        let a = r.add(line("ZCL_A", 10), "ZCL_A:10", Some("LV_X > 1".into()));
        let m = r.add(
            Target::Message {
                id: "00".into(),
                number: "001".into(),
                ty: "E".into(),
            },
            "message 00/001 E",
            None,
        );
        let ea = r.get(a).map(export).unwrap_or_default();
        assert_eq!(
            ea,
            json!({"location": "ZCL_A:10", "condition": "LV_X > 1", "enabled": true})
        );
        let em = r.get(m).map(export).unwrap_or_default();
        assert_eq!(em["message"]["type"], "E");
    }
}
