//! Systems behind TLS: `abapdbg serve` trusts the platform's store (which SSL_CERT_FILE
//! replaces) plus a CA bundle from a flag, a variable or the profile, and checks nothing only
//! when told to, saying so. The system is the simulator behind a TLS front whose certificate
//! a certificate authority made for this run signed.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use e2e::{Simulator, abapdbg_bin};
use serde_json::{Value, json};
use tokio_rustls::rustls;

/// A TLS front on loopback that hands every connection to the simulator.
struct TlsFront {
    port: u16,
    /// The PEM of the authority that signed the front's certificate.
    ca_pem: String,
}

fn tls_front(sim_url: &str) -> TlsFront {
    let ca_key = rcgen::KeyPair::generate().expect("CA key");
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "abapdbg test authority");
    ca_params.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::CrlSign,
    ];
    let ca_cert = ca_params.self_signed(&ca_key).expect("CA certificate");
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().expect("server key");
    let params = rcgen::CertificateParams::new(vec!["localhost".to_string()]).expect("params");
    let cert = params.signed_by(&key, &issuer).expect("server certificate");

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .expect("server config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let backend = sim_url.trim_start_matches("http://").to_string();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        rt.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                return;
            };
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                let backend = backend.clone();
                tokio::spawn(async move {
                    // A client that refuses our certificate ends the handshake: nothing to do.
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let Ok(mut sim) = tokio::net::TcpStream::connect(&backend).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut sim).await;
                });
            }
        });
    });
    TlsFront {
        port,
        ca_pem: ca_cert.pem(),
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abapdbg-tls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `abapdbg serve` for the TLS front, with nothing trusted but what `tune` adds.
fn serve(front: &TlsFront, dir: &Path, tune: impl FnOnce(&mut Command)) -> Command {
    let mut cmd = Command::new(abapdbg_bin());
    cmd.args(["serve", "--no-socket"])
        .env("ABAPDBG_URL", format!("https://localhost:{}", front.port))
        .env("ABAPDBG_USER", "DEVELOPER")
        .env("ABAPDBG_PASSWORD", "abap")
        .env("ABAPDBG_CLIENT", "001")
        .env("ABAPDBG_STATE_DIR", dir.join("state"))
        .env("ABAPDBG_RUNTIME_DIR", dir.join("run"))
        .env("ABAPDBG_CONFIG", dir.join("none.toml"))
        .env_remove("ABAPDBG_PROFILE")
        .env_remove("ABAPDBG_CA_BUNDLE")
        .env_remove("ABAPDBG_INSECURE")
        .env_remove("SSL_CERT_DIR")
        // A file without certificates: the platform's store is not asked.
        .env("SSL_CERT_FILE", dir.join("empty.pem"));
    let _ = std::fs::write(dir.join("empty.pem"), b"");
    let _ = std::fs::write(dir.join("none.toml"), b"");
    tune(&mut cmd);
    cmd
}

/// Runs `hello` through `cmd`; the logon part of its answer and what serve wrote on stderr.
fn logon(mut cmd: Command) -> (Value, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start serve");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "{}", json!({"id": 1, "cmd": "hello"})).expect("write");
    let mut answer = Value::Null;
    for line in BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
    {
        let v: Value = serde_json::from_str(&line).expect("JSON");
        if v["id"] == 1 {
            answer = v;
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().expect("serve ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert_eq!(answer["ok"], true, "{answer}\n{stderr}");
    (answer["result"]["system"]["logon"].clone(), stderr)
}

#[test]
fn tls_trusts_the_platform_store_a_ca_bundle_and_insecure_only_when_asked() {
    let sim = Simulator::start();
    let front = tls_front(&sim.url);
    let dir = temp_dir("trust");
    let ca = dir.join("company-ca.pem");
    std::fs::write(&ca, &front.ca_pem).expect("write CA");

    // Nothing trusts the authority: refused, and the reason is the certificate.
    let (refused, _) = logon(serve(&front, &dir, |_| {}));
    assert_eq!(refused["ok"], false, "{refused}");
    let why = refused["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(why.contains("certificate"), "{refused}");

    // The platform's store, as SSL_CERT_FILE names it.
    let (platform, _) = logon(serve(&front, &dir, |c| {
        c.env("SSL_CERT_FILE", &ca);
    }));
    assert_eq!(platform["ok"], true, "{platform}");

    // A CA bundle: the flag, the variable, the profile.
    let (flag, _) = logon(serve(&front, &dir, |c| {
        c.arg("--ca-bundle").arg(&ca);
    }));
    assert_eq!(flag["ok"], true, "{flag}");
    let (variable, _) = logon(serve(&front, &dir, |c| {
        c.env("ABAPDBG_CA_BUNDLE", &ca);
    }));
    assert_eq!(variable["ok"], true, "{variable}");
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.tls]\nurl = \"https://localhost:{}\"\nuser = \"DEVELOPER\"\nclient = \"001\"\nca_bundle = \"{}\"\n",
            front.port,
            ca.display()
        ),
    )
    .expect("config");
    let (profile, _) = logon(serve(&front, &dir, |c| {
        c.env("ABAPDBG_CONFIG", &config)
            .env_remove("ABAPDBG_URL")
            .env_remove("ABAPDBG_USER")
            .env_remove("ABAPDBG_CLIENT")
            .args(["--profile", "tls"]);
    }));
    assert_eq!(profile["ok"], true, "{profile}");

    // Insecure: accepted, and said at the start.
    let (insecure, stderr) = logon(serve(&front, &dir, |c| {
        c.arg("--insecure");
    }));
    assert_eq!(insecure["ok"], true, "{insecure}");
    assert!(stderr.to_ascii_lowercase().contains("insecure"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
