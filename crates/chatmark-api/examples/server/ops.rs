//! What an operator reads off the example server: a request id for every request (the
//! `x-request-id` answer header, and the description of every 5xx answer), one structured
//! log line per request through `tracing` (JSON on stdout, after the address line: see
//! `main`) with that id, the method, the route, the status and the latency, and metrics in
//! the Prometheus text format (`GET /metrics`, through the `prometheus` crate). A failure's
//! detail (a database error, say) goes into the log line, never into the answer. Routes are
//! named by their template (`sendMessage`, `quota`…), never by the path, which holds the
//! bot token.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, IntGaugeVec, Opts, Registry, TextEncoder,
};

/// The answer header carrying the request id.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// The id of one request: this process's random prefix and a sequence number, unique
/// across instances with overwhelming probability and ordered within one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

impl RequestId {
    /// The next id of this process.
    pub fn next() -> Self {
        static PREFIX: OnceLock<u32> = OnceLock::new();
        static SEQUENCE: AtomicU64 = AtomicU64::new(1);
        let prefix = PREFIX.get_or_init(|| {
            use std::hash::{BuildHasher, Hasher};
            // std's randomly keyed hasher: a random prefix without a dependency
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u32(std::process::id());
            (h.finish() >> 32) as u32
        });
        let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        RequestId(format!("{prefix:08x}-{n:08}"))
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What went wrong behind an answer, for its log line only (a response extension).
#[derive(Clone, Debug)]
pub struct Failure(pub String);

/// The route of a request path, as logs and metrics name it: never the path itself, which
/// holds the bot token, and one of a few names whatever the client sends.
pub fn route_label(path: &str) -> &'static str {
    match path {
        "/v3.0/oa/quota/group" => "quota",
        "/healthz" => "healthz",
        "/readyz" => "readyz",
        "/metrics" => "metrics",
        _ => {
            let mut segments = path.strip_prefix('/').unwrap_or(path).split('/');
            let first = segments.next().unwrap_or("");
            match (first.starts_with("bot"), segments.next(), segments.next()) {
                (true, Some("sendMessage"), None) => "sendMessage",
                (true, Some("setWebhook"), None) => "setWebhook",
                (true, Some("testWebhook"), None) => "testWebhook",
                _ => "other",
            }
        }
    }
}

/// The route of a request line's target (`POST /bot…/sendMessage HTTP/1.1`), for answers
/// given before a request reached the router.
pub fn route_of_line(start: &[u8]) -> &'static str {
    let line = String::from_utf8_lossy(start);
    let target = line.split(' ').nth(1).unwrap_or("");
    route_label(target.split('?').next().unwrap_or(target))
}

/// Logs one answer: its id, method, route, status, latency and failure detail if any.
pub fn log_request(
    id: &RequestId,
    method: &str,
    route: &str,
    status: u16,
    started: Instant,
    failure: Option<&str>,
) {
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    let latency_ms = (latency_ms * 1000.0).round() / 1000.0;
    let id = id.0.as_str();
    macro_rules! line {
        ($level:ident) => {
            match failure {
                Some(error) => tracing::$level!(
                    request_id = id,
                    method,
                    route,
                    status,
                    latency_ms,
                    error,
                    "request"
                ),
                None => {
                    tracing::$level!(
                        request_id = id,
                        method,
                        route,
                        status,
                        latency_ms,
                        "request"
                    )
                }
            }
        };
    }
    match status {
        500 => line!(error),
        501..=599 => line!(warn),
        _ => line!(info),
    }
}

/// The server's metrics, one registry per router (so that tests do not share counts).
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    store_wait: HistogramVec,
    store_errors: IntCounterVec,
    store_waiting: IntGaugeVec,
    probes: IntCounterVec,
    readiness: IntCounterVec,
}

/// Latency buckets, in seconds: 1 ms to 10 s.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

impl Metrics {
    /// A registry holding every metric of the server, each at zero.
    pub fn new() -> Result<Self, prometheus::Error> {
        let registry = Registry::new();
        let counter = |name: &str, help: &str, labels: &[&str]| {
            let c = IntCounterVec::new(Opts::new(name, help), labels)?;
            registry.register(Box::new(c.clone()))?;
            Ok::<_, prometheus::Error>(c)
        };
        let histogram = |name: &str, help: &str, label: &str| {
            let h = HistogramVec::new(
                HistogramOpts::new(name, help).buckets(BUCKETS.to_vec()),
                &[label],
            )?;
            registry.register(Box::new(h.clone()))?;
            Ok::<_, prometheus::Error>(h)
        };
        let metrics = Metrics {
            requests: counter(
                "chatmark_http_requests_total",
                "Requests answered by the router, by route and HTTP status.",
                &["route", "status"],
            )?,
            latency: histogram(
                "chatmark_http_request_duration_seconds",
                "Time from a request's head to its answer, by route.",
                "route",
            )?,
            store_wait: histogram(
                "chatmark_store_wait_seconds",
                "Time a store call waited for its turn (a connection), by the table it needs.",
                "table",
            )?,
            store_errors: counter(
                "chatmark_store_errors_total",
                "Store calls that failed, by table and kind (timeout, unavailable, failed).",
                &["table", "kind"],
            )?,
            store_waiting: {
                let g = IntGaugeVec::new(
                    Opts::new(
                        "chatmark_store_waiting",
                        "Store calls waiting for their turn now, by table.",
                    ),
                    &["table"],
                )?;
                registry.register(Box::new(g.clone()))?;
                g
            },
            probes: counter(
                "chatmark_webhook_probes_total",
                "testWebhook probes, by outcome code (webhook.ok, webhook.err.tls…).",
                &["outcome"],
            )?,
            readiness: counter(
                "chatmark_readiness_checks_total",
                "GET /readyz answers, by result (ready, not_ready).",
                &["result"],
            )?,
            registry,
        };
        Ok(metrics)
    }

    /// Counts an answer of the router.
    fn request(&self, route: &str, status: u16, latency: Duration) {
        let status = status.to_string();
        self.requests.with_label_values(&[route, &status]).inc();
        self.latency
            .with_label_values(&[route])
            .observe(latency.as_secs_f64());
    }

    /// A store call needing `table` starts waiting for its turn; the guard records the wait
    /// when dropped (the turn taken, or the wait given up).
    pub fn store_waits(&self, table: &'static str) -> StoreWait<'_> {
        self.store_waiting.with_label_values(&[table]).inc();
        StoreWait {
            metrics: self,
            table,
            started: Instant::now(),
        }
    }

    /// Counts a failed store call: `kind` is `timeout`, `unavailable` or `failed`.
    pub fn store_error(&self, table: &str, kind: &str) {
        self.store_errors.with_label_values(&[table, kind]).inc();
    }

    /// Counts a webhook probe's outcome.
    pub fn probe(&self, outcome: &str) {
        self.probes.with_label_values(&[outcome]).inc();
    }

    /// Counts a readiness check's result.
    pub fn readiness(&self, ready: bool) {
        let result = if ready { "ready" } else { "not_ready" };
        self.readiness.with_label_values(&[result]).inc();
    }

    /// The metrics in the Prometheus text format, with its content type.
    fn encode(&self) -> (String, Vec<u8>) {
        let encoder = TextEncoder::new();
        let mut out = Vec::new();
        if let Err(e) = encoder.encode(&self.registry.gather(), &mut out) {
            tracing::error!(error = %e, "encoding the metrics");
        }
        (encoder.format_type().to_owned(), out)
    }
}

/// A store call's wait for its turn, recorded when dropped.
pub struct StoreWait<'a> {
    metrics: &'a Metrics,
    table: &'static str,
    started: Instant,
}

impl Drop for StoreWait<'_> {
    fn drop(&mut self) {
        let m = self.metrics;
        m.store_waiting.with_label_values(&[self.table]).dec();
        m.store_wait
            .with_label_values(&[self.table])
            .observe(self.started.elapsed().as_secs_f64());
    }
}

/// `GET /metrics`: every metric in the Prometheus text format.
pub async fn metrics(State(metrics): State<Arc<Metrics>>) -> Response {
    let (content_type, body) = metrics.encode();
    let mut answer = body.into_response();
    if let Ok(value) = HeaderValue::from_str(&content_type) {
        answer.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    answer
}

/// The outermost layer of the router: gives the request its id (a request extension the
/// handlers read, and the answer's `x-request-id` header), logs the answer and counts it.
pub async fn observe(
    State(metrics): State<Arc<Metrics>>,
    mut req: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let id = RequestId::next();
    let method = req.method().clone();
    let route = route_label(req.uri().path());
    req.extensions_mut().insert(id.clone());
    let mut answer = next.run(req).await;
    if let Ok(value) = HeaderValue::from_str(&id.0) {
        answer.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    let failure = answer.extensions().get::<Failure>().map(|f| f.0.as_str());
    metrics.request(route, answer.status().as_u16(), started.elapsed());
    log_request(
        &id,
        method_name(&method),
        route,
        answer.status().as_u16(),
        started,
        failure,
    );
    answer
}

/// A method's name for the log, one of a few (a client may send any token as a method).
fn method_name(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// Installs the JSON log writer on stdout at `level` (`off`, `error`, `warn`, `info`,
/// `debug`); write errors (stdout closed) are ignored.
pub fn init_logs(level: tracing::level_filters::LevelFilter) {
    let _ = tracing_subscriber::fmt()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .with_max_level(level)
        .with_writer(std::io::stdout)
        .log_internal_errors(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_named_without_the_token() {
        for (path, route) in [
            ("/bot123:secret/sendMessage", "sendMessage"),
            ("/bot1/setWebhook", "setWebhook"),
            ("/botx/testWebhook", "testWebhook"),
            ("/bot1/sendMessage/x", "other"),
            ("/nobot/sendMessage", "other"),
            ("/v3.0/oa/quota/group", "quota"),
            ("/healthz", "healthz"),
            ("/", "other"),
            ("", "other"),
        ] {
            assert_eq!(route_label(path), route, "{path}");
        }
        assert_eq!(
            route_of_line(b"POST /bot1:a/sendMessage?x HTTP/1.1"),
            "sendMessage"
        );
    }
}
