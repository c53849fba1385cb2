//! A tiny ADT test client: one cookie jar and CSRF token per session, like a real client.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use base64::Engine as _;

pub const DEMO_URI: &str = "/sap/bc/adt/oo/classes/zcl_abapdbg_demo/source/main";
pub const TERMINAL: &str = "TERMINAL00000000000000000000TEST";
pub const IDE: &str = "IDE00000000000000000000000000TEST";

pub struct Resp {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    pub fn content_type(&self) -> Option<&str> {
        self.header("content-type")
    }
}

impl std::fmt::Debug for Resp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:?} {}", self.status, self.content_type(), self.body)
    }
}

pub struct Session {
    http: reqwest::Client,
    base: String,
    user: String,
    password: String,
    stateful: bool,
    cookies: Mutex<HashMap<String, String>>,
    csrf: Mutex<Option<String>>,
}

impl Session {
    pub fn new(base: &str, stateful: bool) -> Self {
        Self::with_user(base, stateful, "DEVELOPER", "abap")
    }

    pub fn with_user(base: &str, stateful: bool, user: &str, password: &str) -> Self {
        Session {
            http: reqwest::Client::builder()
                .no_proxy()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("client"),
            base: base.to_string(),
            user: user.to_string(),
            password: password.to_string(),
            stateful,
            cookies: Mutex::new(HashMap::new()),
            csrf: Mutex::new(None),
        }
    }

    pub fn cookie(&self, name: &str) -> Option<String> {
        self.cookies.lock().unwrap().get(name).cloned()
    }

    pub async fn raw(
        &self,
        method: reqwest::Method,
        path: &str,
        extra: &[(&str, &str)],
        body: Option<(&str, String)>,
        auth: bool,
    ) -> Resp {
        let mut rb = self.http.request(method, format!("{}{}", self.base, path));
        if auth {
            let cred = base64::engine::general_purpose::STANDARD
                .encode(format!("{}:{}", self.user, self.password));
            rb = rb.header("authorization", format!("Basic {cred}"));
        }
        let cookie_header = {
            let jar = self.cookies.lock().unwrap();
            jar.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ")
        };
        if !cookie_header.is_empty() {
            rb = rb.header("cookie", cookie_header);
        }
        if self.stateful {
            rb = rb.header("X-sap-adt-sessiontype", "stateful");
        }
        let own_token = extra
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("x-csrf-token"));
        if let Some(t) = self.csrf.lock().unwrap().clone().filter(|_| !own_token) {
            rb = rb.header("x-csrf-token", t);
        }
        for (k, v) in extra {
            rb = rb.header(*k, *v);
        }
        if let Some((ct, b)) = body {
            rb = rb.header("content-type", ct).body(b);
        }
        let resp = rb.send().await.expect("send");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        {
            let mut jar = self.cookies.lock().unwrap();
            for sc in headers.get_all("set-cookie") {
                let Ok(sc) = sc.to_str() else { continue };
                let mut parts = sc.split(';');
                let first = parts.next().unwrap_or("");
                // A deletion expires the cookie in the past; only the attributes say so (a
                // session id may well contain the digits 1970).
                let deleted = parts.any(|a| {
                    let a = a.trim().to_ascii_lowercase();
                    (a.starts_with("expires=") && a.contains("1970")) || a == "max-age=0"
                });
                if let Some((k, v)) = first.split_once('=') {
                    if v.is_empty() || deleted {
                        jar.remove(k.trim());
                    } else {
                        jar.insert(k.trim().to_string(), v.trim().to_string());
                    }
                }
            }
        }
        let body = resp.text().await.expect("body");
        Resp {
            status,
            headers,
            body,
        }
    }

    pub async fn fetch_csrf(&self) -> Resp {
        let r = self
            .raw(
                reqwest::Method::GET,
                "/sap/bc/adt/debugger/breakpoints/messagetypes",
                &[("x-csrf-token", "fetch")],
                None,
                true,
            )
            .await;
        assert_eq!(r.status, 200, "{r:?}");
        let token = r.header("x-csrf-token").expect("token").to_string();
        *self.csrf.lock().unwrap() = Some(token);
        r
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.raw(reqwest::Method::GET, path, &[], None, true).await
    }

    pub async fn post(&self, path: &str) -> Resp {
        self.raw(reqwest::Method::POST, path, &[], None, true).await
    }

    pub async fn post_xml(&self, path: &str, ct: &str, body: String) -> Resp {
        self.raw(reqwest::Method::POST, path, &[], Some((ct, body)), true)
            .await
    }

    pub async fn delete(&self, path: &str) -> Resp {
        self.raw(reqwest::Method::DELETE, path, &[], None, true)
            .await
    }

    // --- ADT operations -------------------------------------------------------------

    pub async fn set_breakpoints(&self, lines: &[(&str, u32)], sync_partial: bool) -> Resp {
        let mut inner = String::new();
        if sync_partial {
            inner.push_str(&format!("<syncScope mode=\"partial\"><adtcore:objectReference xmlns:adtcore=\"http://www.sap.com/adt/core\" adtcore:uri=\"{DEMO_URI}\"/></syncScope>"));
        }
        for (client_id, line) in lines {
            inner.push_str(&line_breakpoint(client_id, DEMO_URI, *line));
        }
        self.post_xml(
            "/sap/bc/adt/debugger/breakpoints",
            "application/xml",
            breakpoints_body(&inner),
        )
        .await
    }

    pub async fn delete_breakpoint(&self, id: &str) -> Resp {
        let enc: String =
            percent_encoding::utf8_percent_encode(id, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        self.delete(&format!("/sap/bc/adt/debugger/breakpoints/{enc}?scope=external&debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}")).await
    }

    pub async fn listen(&self, timeout: u32) -> Resp {
        self.post(&format!("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&timeout={timeout}")).await
    }

    pub async fn stop_listener(&self) -> Resp {
        self.delete(&format!("/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false&notifyConflict=true")).await
    }

    pub async fn attach(&self, debuggee: &str) -> Resp {
        self.post(&format!("/sap/bc/adt/debugger?method=attach&debuggeeId={debuggee}&dynproDebugging=true&debuggingMode=user&requestUser=DEVELOPER")).await
    }

    pub async fn stack(&self) -> Resp {
        self.get("/sap/bc/adt/debugger/stack?method=getStack&emode=_&semanticURIs=true")
            .await
    }

    pub async fn step(&self, method: &str) -> Resp {
        self.post(&format!("/sap/bc/adt/debugger?method={method}"))
            .await
    }

    pub async fn children(&self, parents: &[&str]) -> Resp {
        let mut body = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><asx:abap xmlns:asx=\"http://www.sap.com/abapxml\" version=\"1.0\"><asx:values><DATA><HIERARCHIES>",
        );
        for p in parents {
            body.push_str(&format!(
                "<STPDA_ADT_VARIABLE_HIERARCHY><PARENT_ID>{}</PARENT_ID></STPDA_ADT_VARIABLE_HIERARCHY>",
                xml_text(p)
            ));
        }
        body.push_str("</HIERARCHIES></DATA></asx:values></asx:abap>");
        self.post_xml(
            "/sap/bc/adt/debugger?method=getChildVariables",
            "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.ChildVariables",
            body,
        )
        .await
    }

    pub async fn variables(&self, ids: &[&str]) -> Resp {
        let mut body = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><asx:abap xmlns:asx=\"http://www.sap.com/abapxml\" version=\"1.0\"><asx:values><DATA>",
        );
        for id in ids {
            body.push_str(&format!(
                "<STPDA_ADT_VARIABLE><ID>{}</ID></STPDA_ADT_VARIABLE>",
                xml_text(id)
            ));
        }
        body.push_str("</DATA></asx:values></asx:abap>");
        self.post_xml(
            "/sap/bc/adt/debugger?method=getVariables",
            "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.debugger.Variables",
            body,
        )
        .await
    }

    pub async fn classrun(&self, class: &str) -> Resp {
        self.post(&format!("/sap/bc/adt/oo/classrun/{class}")).await
    }
}

/// Text of the first `<NAME>…</NAME>` (or `NAME="…"` attribute) in `xml`.
/// The body of a breakpoints request from the external debugger of this test user and terminal,
/// around `inner` (breakpoints, a sync scope).
pub fn breakpoints_body(inner: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><dbg:breakpoints xmlns:dbg=\"http://www.sap.com/adt/debugger\" scope=\"external\" debuggingMode=\"user\" requestUser=\"DEVELOPER\" terminalId=\"{TERMINAL}\" ideId=\"{IDE}\" systemDebugging=\"false\" deactivated=\"false\">{inner}</dbg:breakpoints>"
    )
}

/// One line breakpoint of a breakpoints request.
pub fn line_breakpoint(client_id: &str, uri: &str, line: u32) -> String {
    format!(
        "<breakpoint xmlns:adtcore=\"http://www.sap.com/adt/core\" kind=\"line\" clientId=\"{client_id}\" skipCount=\"0\" adtcore:uri=\"{uri}#start={line}\"/>"
    )
}

pub fn element(xml: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))? + start;
    Some(xml[start..end].to_string())
}

pub fn attribute(xml: &str, name: &str) -> Option<String> {
    let pat = format!(" {name}=\"");
    let start = xml.find(&pat)? + pat.len();
    let end = xml[start..].find('"')? + start;
    Some(xml[start..end].to_string())
}

/// The `STPDA_ADT_VARIABLE` record with that `ID`.
pub fn record<'a>(xml: &'a str, id: &str) -> Option<&'a str> {
    // The id as it appears in XML text (`ME->X` is written `ME-&gt;X`).
    let escaped = id
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let at = xml
        .find(&format!("<ID>{escaped}</ID>"))
        .or_else(|| xml.find(&format!("<ID>{id}</ID>")))?;
    let start = xml[..at].rfind("<STPDA_ADT_VARIABLE>")?;
    let end = xml[at..].find("</STPDA_ADT_VARIABLE>")? + at;
    Some(&xml[start..end])
}

/// `line="N"` of the first stack entry.
pub fn top_line(stack: &str) -> Option<u32> {
    let at = stack.find("<stackEntry")?;
    attribute(&stack[at..], "line")?.parse().ok()
}

pub fn subtype(body: &str) -> Option<String> {
    let key = "<entry key=\"com.sap.adt.communicationFramework.subType\">";
    let start = body.find(key)? + key.len();
    let end = body[start..].find('<')? + start;
    Some(body[start..end].to_string())
}

/// `text` escaped for XML character data (ids such as `<FS>` and `REF->*`).
pub fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A session with its CSRF token fetched.
pub async fn session(base: &str, stateful: bool) -> Session {
    let s = Session::new(base, stateful);
    s.fetch_csrf().await;
    s
}

/// Waits until the listener of the test's ids is registered.
pub async fn wait_for_listener(s: &Session) {
    let q = format!(
        "/sap/bc/adt/debugger/listeners?debuggingMode=user&requestUser=DEVELOPER&terminalId={TERMINAL}&ideId={IDE}&checkConflict=false"
    );
    // Up to 30 s, ended as soon as it holds: a loaded machine is slow.
    for _ in 0..1500 {
        if s.get(&q).await.status == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("listener never registered");
}

/// The repository's samples folder (abapGit files, each class with its expected output).
pub fn samples_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples")
}

/// A simulator that has loaded the samples folder.
pub async fn samples_sim() -> sim::SimHandle {
    sim::start(sim::SimConfig {
        program_dirs: vec![samples_dir()],
        ..sim::SimConfig::default()
    })
    .await
    .expect("the simulator starts with the samples folder")
}

/// With a breakpoint of the test's ids set through `l`: listens, starts `trigger` (a path
/// such as `/sap/bc/adt/oo/classrun/ZCL_X`) in a task of its own, and attaches a stateful
/// session to the program the listener caught. The trigger's answer comes when it ends.
pub async fn catch_and_attach(
    base: &str,
    l: &Session,
    trigger: &str,
) -> (Session, tokio::task::JoinHandle<Resp>) {
    catch_and_attach_posting(base, l, trigger, None).await
}

/// [`catch_and_attach`] with a trigger that posts `body` (content type, XML) to `trigger`,
/// such as an ABAP Unit run configuration.
pub async fn catch_and_attach_posting(
    base: &str,
    l: &Session,
    trigger: &str,
    body: Option<(&'static str, String)>,
) -> (Session, tokio::task::JoinHandle<Resp>) {
    let lbase = base.to_string();
    let listen = tokio::spawn(async move { session(&lbase, false).await.listen(30).await });
    wait_for_listener(l).await;
    let (tbase, tpath) = (base.to_string(), trigger.to_string());
    let run = tokio::spawn(async move {
        let t = session(&tbase, false).await;
        match body {
            Some((content_type, b)) => t.post_xml(&tpath, content_type, b).await,
            None => t.post(&tpath).await,
        }
    });
    let caught = tokio::time::timeout(Duration::from_secs(60), listen)
        .await
        .expect("the listener answers")
        .expect("listener task joins");
    assert_eq!(caught.status, 200, "listener: {caught:?}");
    let d = session(base, true).await;
    let id = element(&caught.body, "DEBUGGEE_ID").expect("the listener names a debuggee");
    let r = d.attach(&id).await;
    assert_eq!(r.status, 200, "attach: {r:?}");
    (d, run)
}
