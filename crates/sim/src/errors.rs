//! `exc:exception` error documents (§13.1) and the catalogue of errors the simulator answers.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::xml::{XML_DECL, attr, esc};

pub(crate) const SUBTYPE_KEY: &str = "com.sap.adt.communicationFramework.subType";

/// An ADT error answer: status, exception type, message and properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AdtError {
    pub status: StatusCode,
    pub type_id: String,
    pub message: String,
    pub properties: Vec<(String, String)>,
}

impl AdtError {
    pub fn new(status: StatusCode, type_id: &str, message: impl Into<String>) -> Self {
        AdtError {
            status,
            type_id: type_id.to_string(),
            message: message.into(),
            properties: Vec::new(),
        }
    }

    pub fn prop(mut self, key: &str, value: impl Into<String>) -> Self {
        self.properties.push((key.to_string(), value.into()));
        self
    }

    pub fn sub_type(self, sub: &str) -> Self {
        self.prop(SUBTYPE_KEY, sub)
    }

    pub fn t100(self, id: &str, no: &str) -> Self {
        self.prop("T100KEY-ID", id).prop("T100KEY-NO", no)
    }

    /// The XML document.
    pub fn document(&self) -> String {
        let mut s = String::from(XML_DECL);
        s.push_str(
            "<exc:exception xmlns:exc=\"http://www.sap.com/abapxml/types/communicationframework\">",
        );
        s.push_str("<namespace id=\"com.sap.adt\"/>");
        s.push_str("<type");
        attr(&mut s, "id", &self.type_id);
        s.push_str("/>");
        s.push_str("<message lang=\"EN\">");
        s.push_str(&esc(&self.message));
        s.push_str("</message><localizedMessage lang=\"EN\">");
        s.push_str(&esc(&self.message));
        s.push_str("</localizedMessage><properties>");
        // Captured order: chained exceptions, other keys, the subType, the T100 key.
        let rank = |k: &str| {
            if k.starts_with("previous") {
                0
            } else if k == SUBTYPE_KEY {
                2
            } else if k.starts_with("T100KEY-") {
                3
            } else {
                1
            }
        };
        let mut props: Vec<&(String, String)> = self.properties.iter().collect();
        props.sort_by_key(|(k, _)| rank(k));
        for (k, v) in props {
            s.push_str("<entry");
            attr(&mut s, "key", k);
            s.push('>');
            s.push_str(&esc(v));
            s.push_str("</entry>");
        }
        s.push_str("</properties></exc:exception>");
        s
    }
}

impl IntoResponse for AdtError {
    fn into_response(self) -> Response {
        let body = self.document();
        let mut r = (self.status, body).into_response();
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/xml"),
        );
        r
    }
}

const RAISED: &str = "An exception was raised";

/// 404 `ExceptionResourceNotFound`.
pub(crate) fn not_found(message: impl Into<String>) -> AdtError {
    AdtError::new(StatusCode::NOT_FOUND, "ExceptionResourceNotFound", message)
}

/// 400 `ExceptionInvalidData` for a request body we cannot read.
pub(crate) fn invalid_data(message: impl Into<String>) -> AdtError {
    AdtError::new(StatusCode::BAD_REQUEST, "ExceptionInvalidData", message).t100("SADT_REST", "006")
}

/// 400 `ExceptionParameterNotFound` (SADT_RESOURCE/017).
pub(crate) fn parameter_not_found(name: &str) -> AdtError {
    AdtError::new(
        StatusCode::BAD_REQUEST,
        "ExceptionParameterNotFound",
        format!("Parameter {name} could not be found."),
    )
    .t100("SADT_RESOURCE", "017")
    .prop("T100KEY-V1", name)
}

/// 400 `Unknown method <m>` (TPDA_ADT/001).
pub(crate) fn unknown_method(method: &str) -> AdtError {
    AdtError::new(
        StatusCode::BAD_REQUEST,
        "ExceptionInvalidData",
        format!("Unknown method {method}"),
    )
    .t100("TPDA_ADT", "001")
    .prop("T100KEY-V1", method)
}

/// 500 `invalidDebuggee` (attach to a gone/foreign debuggee, or a second attach).
pub(crate) fn invalid_debuggee(message: &str) -> AdtError {
    AdtError::new(StatusCode::INTERNAL_SERVER_ERROR, "AdiFailed", message)
        .sub_type("invalidDebuggee")
        .t100("SY", "530")
}

/// 500 `debuggeeEnded`: the program ran to its end during a step.
pub(crate) fn debuggee_ended() -> AdtError {
    AdtError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "AdiFailed",
        "Debugging session has been terminated",
    )
    .sub_type("debuggeeEnded")
    .t100("TPDA_ADT", "030")
}

/// The success answer of `terminateDebuggee` (§7.4): HTTP 500.
pub(crate) fn terminate_success() -> AdtError {
    AdtError::new(StatusCode::INTERNAL_SERVER_ERROR, "AdiFailed", RAISED)
        .sub_type("terminateDebuggee")
        .t100("SY", "530")
        .prop("previous1Text", "Debuggee session terminated")
        .prop("previous1ExceptionClassName", "CX_TPDAPI_FAILURE")
        .prop("previous2Text", "Debug session ended")
        .prop(
            "previous2ExceptionClassName",
            "CX_TPDA_SYS_COMM_DBGSESSIONEND",
        )
}

/// A step after `terminateDebuggee` (§7.4): 500 without subType.
pub(crate) fn session_stopped() -> AdtError {
    AdtError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "AdiFailed",
        "Debuggee session stopped",
    )
    .t100("TPDAPI", "021")
    .prop("previous1Text", "Debuggee session stopped")
    .prop("previous1ExceptionClassName", "CX_TPDAPI_DEBUGGEE_ENDED")
}

/// `getStack` without a debuggee: 404 `AdtFailed` `noSessionAttached`.
pub(crate) fn no_session_stack() -> AdtError {
    AdtError::new(StatusCode::NOT_FOUND, "AdtFailed", RAISED)
        .sub_type("noSessionAttached")
        .t100("SY", "530")
}

/// Steps without a debuggee: 400 `ExceptionInvalidData` `noSessionAttached`.
pub(crate) fn no_session_step() -> AdtError {
    AdtError::new(
        StatusCode::BAD_REQUEST,
        "ExceptionInvalidData",
        "Data is invalid and could not be converted",
    )
    .sub_type("noSessionAttached")
    .t100("SADT_REST", "006")
}

/// Variables and other inspection calls without a debuggee: 500 `AdiFailed`.
pub(crate) fn no_session_other() -> AdtError {
    AdtError::new(StatusCode::INTERNAL_SERVER_ERROR, "AdiFailed", RAISED)
        .sub_type("noSessionAttached")
        .t100("SY", "530")
}

/// Listener conflict (§3.5), 409.
pub(crate) fn listener_conflict(sub: &str, user: &str) -> AdtError {
    AdtError::new(StatusCode::CONFLICT, "AdiFailed", RAISED)
        .sub_type(sub)
        .prop(
            "conflictText",
            format!("Another session already exists with global debugging scope for user {user}"),
        )
        .prop("ideUser", user)
        .t100("SY", "530")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_shape() {
        let d = debuggee_ended().document();
        assert!(d.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?><exc:exception xmlns:exc=\"http://www.sap.com/abapxml/types/communicationframework\"><namespace id=\"com.sap.adt\"/><type id=\"AdiFailed\"/><message lang=\"EN\">"));
        assert!(d.contains("<entry key=\"com.sap.adt.communicationFramework.subType\">debuggeeEnded</entry><entry key=\"T100KEY-ID\">TPDA_ADT</entry><entry key=\"T100KEY-NO\">030</entry>"));
        assert!(!session_stopped().document().contains(SUBTYPE_KEY));
    }
}
