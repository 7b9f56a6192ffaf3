//! The webhook prober: the blocked-target guard, one name resolution, the guard again on the
//! addresses found, then one HTTP/1.1 `POST` to those very addresses — over TLS for
//! `https://` (rustls with the ring provider; roots from webpki-roots, the system store and
//! an optional PEM file), reading only the status line.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chatmark_api::blocked::check_target_with;
use chatmark_api::{Failure, Host, Observation, TestWebhookResult, WebhookUrl};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{CertificateError, ClientConfig, RootCertStore};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

/// The TLS client configuration of outgoing connections (https probes, and the database
/// when its URL asks for TLS): the Mozilla roots (webpki-roots), the system's roots where
/// found, and the certificates of the PEM file `extra_roots`; answers it with notes for the
/// operator. Fails when `extra_roots` cannot be read or holds no usable certificate.
pub fn client_config(
    extra_roots: Option<&Path>,
) -> Result<(Arc<ClientConfig>, Vec<String>), String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let mut notes = Vec::new();
    let system = rustls_native_certs::load_native_certs();
    let (added, _ignored) = roots.add_parsable_certificates(system.certs);
    if added > 0 {
        notes.push(format!(
            "https probes trust {added} roots of the system store too"
        ));
    }
    if let Some(path) = extra_roots {
        let fail =
            |e: &dyn std::fmt::Display| format!("CHATMARK_EXTRA_ROOTS {}: {e}", path.display());
        let pem = std::fs::read(path).map_err(|e| fail(&e))?;
        let mut count = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| fail(&e))?;
            roots.add(cert).map_err(|e| fail(&e))?;
            count += 1;
        }
        if count == 0 {
            return Err(fail(&"no PEM certificate found"));
        }
        notes.push(format!(
            "https probes trust {count} extra root(s) from {}",
            path.display()
        ));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS configuration: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((Arc::new(config), notes))
}

/// Probes webhooks with a deadline, a loopback setting and a TLS client configuration.
pub struct Prober {
    timeout: Duration,
    allow_loopback: bool,
    tls: TlsConnector,
}

impl Prober {
    /// A prober over the TLS client configuration `tls` (see [`client_config`]).
    pub fn with_config(timeout: Duration, allow_loopback: bool, tls: Arc<ClientConfig>) -> Self {
        Prober {
            timeout,
            allow_loopback,
            tls: TlsConnector::from(tls),
        }
    }

    /// Probes `url` once within the deadline (name resolution included).
    pub async fn probe(&self, url: &str) -> TestWebhookResult {
        let start = Instant::now();
        let (observed, detail) = tokio::time::timeout(self.timeout, self.probe_inner(url))
            .await
            .unwrap_or((Observation::Failed(Failure::Timeout), None));
        let latency_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let result = TestWebhookResult::new(url, observed, latency_ms);
        match detail {
            Some(d) => {
                let hint = format!("{} ({d})", result.outcome.default_hint());
                result.with_hint(hint)
            }
            None => result,
        }
    }

    async fn probe_inner(&self, url: &str) -> (Observation, Option<String>) {
        let failed = |f: Failure, why: String| (Observation::Failed(f), Some(why));
        let parsed = match check_target_with(url, &[], self.allow_loopback) {
            Ok(p) => p,
            Err(e) => return failed(Failure::Blocked, e.to_string()),
        };
        let addrs: Vec<SocketAddr> = match &parsed.host {
            Host::Ip(ip) => vec![SocketAddr::new(*ip, parsed.port)],
            Host::Name(name) => match tokio::net::lookup_host((name.as_str(), parsed.port)).await {
                Ok(found) => found.collect(),
                Err(e) => return failed(Failure::Dns, format!("{name}: {e}")),
            },
        };
        if addrs.is_empty() {
            return failed(Failure::Dns, "no address found".to_owned());
        }
        let ips: Vec<IpAddr> = addrs.iter().map(SocketAddr::ip).collect();
        if let Err(e) = check_target_with(url, &ips, self.allow_loopback) {
            return failed(Failure::Blocked, e.to_string());
        }
        // Connect to the very addresses checked above, so a second lookup cannot rebind.
        let mut last_error = None;
        let mut stream = None;
        for addr in &addrs {
            match TcpStream::connect(addr).await {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last_error = Some(e),
            }
        }
        let Some(stream) = stream else {
            let why = last_error.map_or_else(String::new, |e| e.to_string());
            return failed(Failure::Connection, why);
        };
        let request = request(&parsed);
        if !parsed.https {
            return exchange(stream, &request).await;
        }
        // SNI and the certificate check use the URL's host, not the address connected to.
        let server_name = match &parsed.host {
            Host::Name(name) => match ServerName::try_from(name.clone()) {
                Ok(n) => n,
                Err(e) => return failed(Failure::Tls, format!("host name {name:?}: {e}")),
            },
            Host::Ip(ip) => ServerName::IpAddress((*ip).into()),
        };
        match self.tls.connect(server_name, stream).await {
            Ok(tls) => exchange(tls, &request).await,
            Err(e) => failed(Failure::Tls, tls_cause(&e, &parsed.host)),
        }
    }
}

/// The probe request: a small JSON `POST` closing the connection.
fn request(url: &WebhookUrl) -> String {
    let default_port = if url.https { 443 } else { 80 };
    let host = if url.port == default_port {
        url.host.to_string()
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let body = r#"{"update_id":0,"test_webhook":true}"#;
    format!(
        "POST {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: chatmark-api-example\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        url.target,
        body.len()
    )
}

/// Names the cause of a failed TLS handshake, for the hint: the certificate's validity
/// period, its chain, its names, or the handshake itself.
fn tls_cause(e: &io::Error, host: &Host) -> String {
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>());
    match inner {
        Some(rustls::Error::InvalidCertificate(c)) => match c {
            CertificateError::Expired
            | CertificateError::ExpiredContext { .. }
            | CertificateError::NotValidYet
            | CertificateError::NotValidYetContext { .. } => {
                format!("the certificate is expired or not yet valid: {c}")
            }
            CertificateError::UnknownIssuer | CertificateError::BadSignature => format!(
                "unknown issuer or incomplete chain: the certificate does not chain to a trusted \
                 root; serve the intermediate certificates too ({c})"
            ),
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                format!("name mismatch: the certificate is not valid for {host} ({c})")
            }
            other => format!("invalid certificate: {other}"),
        },
        Some(other) => format!("handshake or protocol failure: {other}"),
        None => format!("handshake or protocol failure: {e}"),
    }
}

/// Sends `request` and reads the status line of the answer.
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    request: &str,
) -> (Observation, Option<String>) {
    if let Err(e) = stream.write_all(request.as_bytes()).await {
        return (
            Observation::Failed(Failure::Connection),
            Some(format!("sending the request: {e}")),
        );
    }
    match read_status(&mut stream).await {
        Ok(code) => (Observation::Status(code), None),
        Err((f, why)) => (Observation::Failed(f), Some(why)),
    }
}

/// Reads the status code of an HTTP/1.x status line (redirects are never followed). The
/// line may end in a bare LF, as common HTTP parsers accept.
async fn read_status<S: AsyncRead + Unpin>(stream: &mut S) -> Result<u16, (Failure, String)> {
    let mut buf = Vec::with_capacity(256);
    let mut chunk = [0u8; 256];
    let line_end = loop {
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            break if i > 0 && buf.get(i - 1) == Some(&b'\r') {
                i - 1
            } else {
                i
            };
        }
        if buf.len() > 4096 {
            return Err((Failure::Other, "the status line is too long".to_owned()));
        }
        match stream.read(&mut chunk).await {
            Ok(0) => {
                return Err((
                    Failure::Other,
                    "the connection closed without an HTTP answer".to_owned(),
                ))
            }
            Ok(n) => buf.extend_from_slice(chunk.get(..n).unwrap_or_default()),
            Err(e) => return Err((Failure::Connection, format!("reading the answer: {e}"))),
        }
    };
    let line = String::from_utf8_lossy(buf.get(..line_end).unwrap_or_default());
    let mut parts = line.splitn(3, ' ');
    let (version, code) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    match code.parse::<u16>() {
        Ok(c) if version.starts_with("HTTP/1.") && code.len() == 3 => Ok(c),
        _ => Err((
            Failure::Other,
            format!(
                "not an HTTP/1.x status line: {:?}",
                line.chars().take(80).collect::<String>()
            ),
        )),
    }
}
