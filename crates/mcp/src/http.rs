//! `abapdbg mcp --http 127.0.0.1:PORT`: the same server over MCP's streamable HTTP, on a
//! loopback address only (anything else is refused: the tools drive a debugger on a real
//! system), behind a bearer token made for this start and written to a file only the user can
//! read (0600), whose path goes to stderr. Every request without that token is answered 401.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::server::Server;

/// Reads `--http`'s address: an IP address (loopback only) and a port.
pub fn loopback(addr: &str) -> Result<SocketAddr, String> {
    let parsed: SocketAddr = addr.parse().map_err(|_| {
        format!("--http {addr}: give a loopback address and a port, e.g. 127.0.0.1:8765")
    })?;
    if !parsed.ip().is_loopback() {
        return Err(format!(
            "--http {addr}: only a loopback address (127.0.0.1, ::1) is served; the tools drive a debugger"
        ));
    }
    Ok(parsed)
}

fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("no random bytes for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Writes the token to `<state dir>/mcp-<port>.token`, 0600, replacing an older one.
fn write_token(port: u16, token: &str) -> Result<PathBuf, String> {
    let dir = client::state_dir(|k| std::env::var(k).ok())
        .ok_or("no state directory for the token file: set ABAPDBG_STATE_DIR or HOME")?;
    if !dir.exists() {
        // The directory of our own in the state directory is 0700, as `serve` makes it.
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let path = dir.join(format!("mcp-{port}.token"));
    let _ = std::fs::remove_file(&path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(token.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

pub async fn serve(server: Server, addr: &str) -> Result<(), String> {
    let addr = loopback(addr)?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("--http {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let token = new_token()?;
    let path = write_token(bound.port(), &token)?;
    let expected: Arc<str> = format!("Bearer {token}").into();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(
            move |req: Request, next: Next| {
                let expected = expected.clone();
                async move { authorize(&expected, req, next).await }
            },
        ));
    eprintln!(
        "abapdbg mcp: streamable HTTP on http://{bound}/mcp; send 'Authorization: Bearer <token>' with the token in {} (0600, made for this start)",
        path.display()
    );
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(stopped())
        .await
        .map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&path);
    served
}

/// SIGINT or SIGTERM: the server ends and removes its token file.
async fn stopped() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

async fn authorize(expected: &str, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    if given.is_some_and(|g| constant_time_eq(g.as_bytes(), expected.as_bytes())) {
        next.run(req).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            [(axum::http::header::WWW_AUTHENTICATE, "Bearer")],
            "abapdbg mcp: a bearer token is required (see the file named on stderr at start)",
        )
            .into_response()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert!(loopback("127.0.0.1:8765").is_ok());
        assert!(loopback("[::1]:0").is_ok());
        assert!(loopback("0.0.0.0:8765").is_err());
        assert!(loopback("192.168.1.5:80").is_err());
        assert!(loopback("localhost:80").is_err());
        assert!(loopback("127.0.0.1").is_err());
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"Bearer ab", b"Bearer ab"));
        assert!(!constant_time_eq(b"Bearer a", b"Bearer ab"));
        assert!(!constant_time_eq(b"Bearer ac", b"Bearer ab"));
    }
}
