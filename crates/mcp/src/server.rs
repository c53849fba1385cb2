//! The MCP server: rmcp's `ServerHandler` written by hand (tools and resources as plain JSON
//! from tools.rs, so the schemas are exactly ours). Every tool runs on a blocking thread on
//! the session client; cancellation (`notifications/cancelled`) reaches it through the
//! request's cancellation token, progress goes out as `notifications/progress`.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, Peer, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::error::ToolError;
use crate::link::Link;
use crate::ops::{self, Call};

/// The resource holding the current stop view.
pub const STOP_URI: &str = "abapdbg://session/stop";
const SOURCE_PREFIX: &str = "abapdbg://source/";

const INSTRUCTIONS: &str = "abapdbg debugs ABAP programs on an SAP system (or its simulator). \
A typical session: abap_breakpoints {set: [{location: 'ZCL_X:42'}]}, abap_run {class: 'ZCL_X'} \
(answers the stop view: location, source, variables), abap_variables / abap_table / abap_stack \
to look, abap_step to move, and abap_end {how: 'shutdown'} to release everything. From a short \
dump: abap_dumps to list and read it, abap_breakpoints {catch: {dump: id}} to stop its next \
occurrence before it dies. No call waits \
longer than its wait_seconds; {waiting: true} means call abap_wait. A person may be on the same \
stop: name thread and frame, never assume you are alone. Writes (abap_set_variable) only where \
the system allows them.";

/// Who asked to hear about the stop resource.
type Subscribers = Arc<Mutex<Vec<Peer<RoleServer>>>>;

#[derive(Clone)]
pub struct Server {
    link: Arc<Link>,
    subscribers: Subscribers,
}

impl Server {
    /// A server on the session of `target`; must be made inside the tokio runtime (stop and
    /// end notifications are sent from it).
    pub fn new(target: Result<client::Target, ToolError>) -> Server {
        let subscribers: Subscribers = Arc::default();
        let subs = subscribers.clone();
        let handle = tokio::runtime::Handle::current();
        let on_change = Arc::new(move || {
            let peers = subs.lock().map(|p| p.clone()).unwrap_or_default();
            for peer in peers {
                handle.spawn(async move {
                    let _ = peer
                        .notify_resource_updated(ResourceUpdatedNotificationParam::new(STOP_URI))
                        .await;
                });
            }
        });
        Server {
            link: Arc::new(Link::new(target, on_change)),
            subscribers,
        }
    }
}

fn from_json<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, McpError> {
    serde_json::from_value(v).map_err(|e| McpError::internal_error(e.to_string(), None))
}

/// Runs `f` on a blocking thread with a `Call` for this request.
async fn blocking<T: Send + 'static>(
    link: Arc<Link>,
    context: &RequestContext<RoleServer>,
    f: impl FnOnce(&Call) -> T + Send + 'static,
) -> Result<T, McpError> {
    let ct = context.ct.clone();
    let token = context.meta.get_progress_token();
    let peer = context.peer.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let cancelled = move || ct.is_cancelled();
        let progress = move |done: f64, total: f64, message: String| {
            if let Some(token) = &token {
                let param = ProgressNotificationParam::new(token.clone(), done)
                    .with_total(total)
                    .with_message(message);
                let peer = peer.clone();
                handle.spawn(async move {
                    let _ = peer.notify_progress(param).await;
                });
            }
        };
        let call = Call {
            link: &link,
            cancelled: &cancelled,
            progress: &progress,
        };
        f(&call)
    })
    .await
    .map_err(|e| McpError::internal_error(format!("the tool stopped: {e}"), None))
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
        )
        .with_server_info(Implementation::new("abapdbg", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        from_json(json!({"tools": crate::tools::list()}))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if !crate::tools::list()
            .iter()
            .any(|t| t["name"] == name.as_str())
        {
            return Err(McpError::invalid_params(format!("no tool '{name}'"), None));
        }
        let arguments = request.arguments.unwrap_or_default();
        let outcome = blocking(self.link.clone(), &context, move |call| {
            ops::call_tool(&name, &arguments, call)
        })
        .await?;
        let mut result = match outcome {
            Ok(answer) => {
                let mut r = CallToolResult::structured(answer.structured);
                r.content = vec![ContentBlock::text(answer.summary)];
                r
            }
            Err(e) => {
                let mut r = CallToolResult::structured_error(e.structured());
                r.content = vec![ContentBlock::text(e.text())];
                r
            }
        };
        result.meta = None;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        from_json(json!({"resources": [{
            "uri": STOP_URI,
            "name": "stop",
            "title": "The current stop",
            "description": "The current stop view as JSON ({state, stop, last_end}); subscribe to hear of every stop and end.",
            "mimeType": "application/json"
        }]}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        from_json(json!({"resourceTemplates": [{
            "uriTemplate": "abapdbg://source/{object}",
            "name": "source",
            "title": "Source of an object",
            "description": "The whole source of an object: a name (ZCL_ORDER, ZREP) or an abapGit file name (zcl_order.clas.testclasses.abap).",
            "mimeType": "text/plain"
        }]}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.clone();
        let read = if uri == STOP_URI {
            blocking(self.link.clone(), &context, |call| {
                ops::stop_resource(call).map(|v| ("application/json", v.to_string()))
            })
            .await?
        } else if let Some(object) = uri.strip_prefix(SOURCE_PREFIX).filter(|o| !o.is_empty()) {
            let object = object.to_string();
            blocking(self.link.clone(), &context, move |call| {
                ops::source_resource(call, &object).map(|t| ("text/plain", t))
            })
            .await?
        } else {
            return Err(McpError::resource_not_found(
                format!("no resource {uri}: {STOP_URI} and {SOURCE_PREFIX}{{object}} exist"),
                None,
            ));
        };
        match read {
            Ok((mime, text)) => {
                let r: ReadResourceResult = from_json(json!({
                    "contents": [{"uri": uri, "mimeType": mime, "text": text}]
                }))?;
                Ok(r.into())
            }
            Err(e) => Err(McpError::invalid_params(e.text(), Some(e.structured()))),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if request.uri == STOP_URI {
            if let Ok(mut s) = self.subscribers.lock() {
                s.push(context.peer.clone());
            }
            // The session's events are watched once it is connected; connect now.
            let link = self.link.clone();
            let _ = tokio::task::spawn_blocking(move || link.session()).await;
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if request.uri == STOP_URI
            && let Ok(mut s) = self.subscribers.lock()
        {
            s.clear();
        }
        Ok(())
    }
}
