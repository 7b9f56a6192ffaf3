//! The example server's router, settings and webhook prober, kept apart from `main` so that
//! the integration tests can include this file and serve the same router on a loopback port.
//! State lives behind `chatmark_api::store::Store`: SQLite (`sqlite.rs`) or PostgreSQL
//! (`postgres.rs`), chosen by `CHATMARK_API_DB`; every store call is bounded by the store
//! timeout and takes a turn from its table's share (issue 51). Request ids, logs and metrics
//! are `ops.rs`; health, readiness and draining for shutdown are here.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use chatmark::Limits;
use chatmark_api::store::{NewMessage, Store, StoreError};
use chatmark_api::{
    canonical_chat_id, resolve_send_message, Envelope, EpochMillis, QuotaRequest, QuotaResponse,
    SendMessageResult,
};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::Deserialize;

use crate::ops;
use crate::postgres::{self, PostgresStore};
use crate::probe::{self, Prober};
use crate::sqlite::SqliteStore;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Deadline of one webhook probe, name resolution included.
    pub probe_timeout: Duration,
    /// `testWebhook` calls allowed per bot and UTC day.
    pub daily_limit: u32,
    /// Let probes reach loopback targets (tests and local development only).
    pub allow_loopback: bool,
    /// Bots whose webhook (and whose `testWebhook` count of the day) the server holds.
    pub max_bots: usize,
    /// Time allowed for a request head, from its first byte.
    pub header_timeout: Duration,
    /// Time allowed for a request body, from the end of the head.
    pub body_timeout: Duration,
    /// Time a connection may stay open without a request.
    pub idle_timeout: Duration,
    /// Connections served at once; more answer 503.
    pub max_connections: usize,
    /// The database: a `postgres://` (or `postgresql://`) URL, shared by any number of
    /// server instances; else a SQLite file path (one process), or `:memory:`.
    pub db: String,
    /// A JSON file of quota assets seeding an empty database.
    pub quota_seed: Option<PathBuf>,
    /// Quota access tokens added to the database on start.
    pub quota_tokens: Vec<String>,
    /// The bot tokens served; `None` serves any (demo mode).
    pub bot_tokens: Option<HashSet<String>>,
    /// A PEM file of extra roots trusted by https probes.
    pub extra_roots: Option<PathBuf>,
    /// The longest a store call waits for its turn (a connection), and the longest its
    /// statement runs (PostgreSQL's `statement_timeout`, SQLite's busy timeout).
    pub store_timeout: Duration,
    /// PostgreSQL connections this instance keeps at most.
    pub db_pool_size: usize,
    /// A PostgreSQL connection unused this long is closed, giving its slot back.
    pub db_idle_timeout: Duration,
    /// On SIGTERM, how long the requests in flight may take to finish before the server
    /// exits anyway.
    pub shutdown_timeout: Duration,
    /// The most detailed log lines written (`info`: one per request).
    pub log_level: tracing::level_filters::LevelFilter,
}

/// The longest webhook URL `setWebhook` stores, in bytes.
pub const MAX_WEBHOOK_URL: usize = 2048;

impl Default for Config {
    fn default() -> Self {
        Config {
            probe_timeout: Duration::from_secs(2),
            daily_limit: 5,
            allow_loopback: false,
            max_bots: 10_000,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_connections: 256,
            db: "chatmark-api.sqlite3".to_owned(),
            quota_seed: None,
            quota_tokens: Vec::new(),
            bot_tokens: None,
            extra_roots: None,
            store_timeout: Duration::from_secs(5),
            db_pool_size: 16,
            db_idle_timeout: Duration::from_secs(30),
            shutdown_timeout: Duration::from_secs(10),
            log_level: tracing::level_filters::LevelFilter::INFO,
        }
    }
}

impl Config {
    /// Reads `TESTWEBHOOK_TIMEOUT_MS`, `TESTWEBHOOK_DAILY_LIMIT`, `CHATMARK_MAX_BOTS`,
    /// `CHATMARK_STORE_TIMEOUT_MS`, `CHATMARK_DB_POOL_SIZE`, `CHATMARK_DB_IDLE_TIMEOUT_MS`,
    /// `CHATMARK_SHUTDOWN_TIMEOUT_MS`,
    /// `CHATMARK_HEADER_TIMEOUT_MS`, `CHATMARK_BODY_TIMEOUT_MS`, `CHATMARK_IDLE_TIMEOUT_MS`,
    /// `CHATMARK_MAX_CONNECTIONS`, `CHATMARK_API_DB`, `CHATMARK_QUOTA_SEED`,
    /// `CHATMARK_QUOTA_TOKENS`, `CHATMARK_BOT_TOKENS`, `CHATMARK_EXTRA_ROOTS`, `CHATMARK_LOG`
    /// and `CHATMARK_ALLOW_LOOPBACK=1`, each optional; numbers are checked against their ranges
    /// and an empty `CHATMARK_API_DB` is refused (an error naming the variable).
    pub fn from_env() -> Result<Self, String> {
        let mut config = Config::default();
        for (name, range, into) in [
            (
                "CHATMARK_HEADER_TIMEOUT_MS",
                MILLIS,
                &mut config.header_timeout,
            ),
            ("CHATMARK_BODY_TIMEOUT_MS", MILLIS, &mut config.body_timeout),
            ("CHATMARK_IDLE_TIMEOUT_MS", MILLIS, &mut config.idle_timeout),
            (
                "TESTWEBHOOK_TIMEOUT_MS",
                PROBE_MILLIS,
                &mut config.probe_timeout,
            ),
            (
                "CHATMARK_STORE_TIMEOUT_MS",
                STORE_MILLIS,
                &mut config.store_timeout,
            ),
            (
                "CHATMARK_DB_IDLE_TIMEOUT_MS",
                MILLIS,
                &mut config.db_idle_timeout,
            ),
            (
                "CHATMARK_SHUTDOWN_TIMEOUT_MS",
                MILLIS,
                &mut config.shutdown_timeout,
            ),
        ] {
            if let Some(ms) = setting(name, range)? {
                *into = Duration::from_millis(ms);
            }
        }
        if let Some(n) = setting("CHATMARK_MAX_CONNECTIONS", MAX_CONNECTIONS)? {
            config.max_connections = usize::try_from(n).unwrap_or(usize::MAX);
        }
        if let Some(n) = setting("CHATMARK_DB_POOL_SIZE", POOL_SIZE)? {
            config.db_pool_size = usize::try_from(n).unwrap_or(usize::MAX);
        }
        if let Some(n) = setting("TESTWEBHOOK_DAILY_LIMIT", DAILY_LIMIT)? {
            config.daily_limit = u32::try_from(n).unwrap_or(u32::MAX);
        }
        if let Some(n) = setting("CHATMARK_MAX_BOTS", MAX_BOTS)? {
            config.max_bots = usize::try_from(n).unwrap_or(usize::MAX);
        }
        if let Ok(v) = std::env::var("CHATMARK_LOG") {
            config.log_level = match v.trim().to_ascii_lowercase().as_str() {
                level @ ("off" | "error" | "warn" | "info" | "debug") => {
                    level.parse().unwrap_or(config.log_level)
                }
                _ => {
                    return Err(format!(
                        "CHATMARK_LOG={v:?} is not one of off, error, warn, info, debug"
                    ))
                }
            };
        }
        config.allow_loopback = std::env::var("CHATMARK_ALLOW_LOOPBACK").is_ok_and(|v| v == "1");
        if let Ok(v) = std::env::var("CHATMARK_API_DB") {
            // an empty path would be SQLite's private temporary database: nothing kept
            if v.trim().is_empty() {
                return Err("CHATMARK_API_DB is set but empty: give a postgres:// URL or a SQLite file (or :memory:), or unset it for chatmark-api.sqlite3".to_owned());
            }
            config.db = v;
        }
        config.quota_seed = std::env::var_os("CHATMARK_QUOTA_SEED").map(PathBuf::from);
        config.extra_roots = std::env::var_os("CHATMARK_EXTRA_ROOTS").map(PathBuf::from);
        let list = |name: &str| -> Option<Vec<String>> {
            std::env::var(name).ok().map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
        };
        config.quota_tokens = list("CHATMARK_QUOTA_TOKENS").unwrap_or_default();
        config.bot_tokens = list("CHATMARK_BOT_TOKENS").map(|t| t.into_iter().collect());
        Ok(config)
    }
}

/// The allowed range of each numeric setting (the README lists them): values past these
/// would overflow a deadline or a semaphore after the server has started.
const MILLIS: (u64, u64) = (1, 86_400_000);
const PROBE_MILLIS: (u64, u64) = (1, 60_000);
const STORE_MILLIS: (u64, u64) = (1, 600_000);
const POOL_SIZE: (u64, u64) = (1, 10_000);
const MAX_CONNECTIONS: (u64, u64) = (1, 100_000);
const DAILY_LIMIT: (u64, u64) = (0, 1_000_000);
const MAX_BOTS: (u64, u64) = (1, 100_000_000);

/// The setting `name` as a whole number in `min..=max`, `None` when unset; an error naming
/// it and its range otherwise.
fn setting(name: &str, (min, max): (u64, u64)) -> Result<Option<u64>, String> {
    let Ok(v) = std::env::var(name) else {
        return Ok(None);
    };
    match v.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(format!(
            "{name}={v:?} is not a whole number from {min} to {max}"
        )),
    }
}

/// The part of the store a call needs, each a table or two: when one is held up (a lock, a
/// slow statement), its calls may take at most half of the store's turns, so that the
/// calls of the others keep being served (issue 51 finding 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    Messages,
    Webhooks,
    ProbeCounts,
    Quota,
    /// None: the readiness probe's trivial statement.
    Health,
}

impl Table {
    /// The table's name in metrics.
    fn label(self) -> &'static str {
        match self {
            Table::Messages => "messages",
            Table::Webhooks => "webhooks",
            Table::ProbeCounts => "probe_counts",
            Table::Quota => "quota",
            Table::Health => "health",
        }
    }

    const ALL: [Table; 5] = [
        Table::Messages,
        Table::Webhooks,
        Table::ProbeCounts,
        Table::Quota,
        Table::Health,
    ];
}

struct AppState {
    config: Config,
    store: Arc<dyn Store>,
    /// Store calls allowed at once: what the store serves in parallel (one SQLite
    /// connection, or the PostgreSQL pool's connections).
    turns: tokio::sync::Semaphore,
    /// Per [`Table`], the calls allowed at once: half of the turns (at least one).
    tables: [tokio::sync::Semaphore; Table::ALL.len()],
    prober: Prober,
    metrics: Arc<ops::Metrics>,
    /// The server is shutting down: `/readyz` answers 503 so that no more is sent here.
    draining: std::sync::atomic::AtomicBool,
}

/// The app as `main` holds it to stop it (see [`build`]).
pub struct App {
    /// The router to serve.
    pub router: Router,
    /// Notes for the operator (what was seeded, which roots were loaded).
    pub notes: Vec<String>,
    state: Arc<AppState>,
}

impl App {
    /// Marks the app as shutting down: `/readyz` answers 503 from now on.
    pub fn drain(&self) {
        self.state
            .draining
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Closes the store (its pooled connections), once no request needs it.
    pub fn close(&self) {
        self.state.store.close();
    }
}

impl AppState {
    /// Runs `call`, which needs `table`, on the store on a blocking thread: a store's
    /// methods block (a local file, or a query on a pooled connection), which must not
    /// stall the async workers. A call waits for its turn at most the store timeout
    /// (`StoreError::Timeout`), and the store bounds the call itself by the same time.
    async fn store<T: Send + 'static>(
        &self,
        table: Table,
        call: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let limit = self.config.store_timeout;
        let deadline = tokio::time::Instant::now() + limit;
        let closed = |e: tokio::sync::AcquireError| StoreError::Backend(e.to_string());
        let index = Table::ALL.iter().position(|&t| t == table).unwrap_or(0);
        let share = self.tables.get(index).unwrap_or(&self.turns);
        // the calls the store cannot serve yet wait here, in order, instead of on blocking
        // threads contending for its lock (which let some wait for a second under load)
        let waiting = self.metrics.store_waits(table.label());
        let turns = async {
            let share = tokio::time::timeout_at(deadline, share.acquire())
                .await
                .map_err(|_| StoreError::Timeout(limit))?
                .map_err(closed)?;
            let turn = tokio::time::timeout_at(deadline, self.turns.acquire())
                .await
                .map_err(|_| StoreError::Timeout(limit))?
                .map_err(closed)?;
            Ok((share, turn))
        };
        let answer = match turns.await {
            Ok(_turns) => {
                drop(waiting);
                let store = Arc::clone(&self.store);
                tokio::task::spawn_blocking(move || call(store.as_ref()))
                    .await
                    .unwrap_or_else(|e| {
                        Err(StoreError::Backend(format!("a store call failed: {e}")))
                    })
            }
            Err(e) => Err(e),
        };
        if let Err(e) = &answer {
            let kind = match e {
                StoreError::Timeout(_) => Some("timeout"),
                StoreError::Unavailable(_) => Some("unavailable"),
                StoreError::TooManyBots(_) | StoreError::DailyLimit(_) => None,
                _ => Some("failed"),
            };
            if let Some(kind) = kind {
                self.metrics.store_error(table.label(), kind);
            }
        }
        answer
    }
}

/// The app over the database of `config` (see [`SqliteStore::open`] and
/// [`PostgresStore::open`]) and a prober with its trusted roots (see [`probe::client_config`]):
/// its router, and notes for the operator (what was seeded, which roots were loaded).
pub async fn build(config: &Config) -> Result<App, String> {
    let (tls, mut notes) = probe::client_config(config.extra_roots.as_deref())?;
    let (store, turns): (Arc<dyn Store>, usize) = if postgres::is_url(&config.db) {
        let settings = postgres::Settings {
            pool_size: config.db_pool_size,
            timeout: config.store_timeout,
            idle_timeout: config.db_idle_timeout,
        };
        let (store, more) = PostgresStore::open(
            &config.db,
            config.quota_seed.as_deref(),
            &config.quota_tokens,
            &tls,
            &settings,
        )
        .await?;
        notes.extend(more);
        (Arc::new(store), settings.pool_size)
    } else {
        let (store, more) = SqliteStore::open(
            &config.db,
            config.quota_seed.as_deref(),
            &config.quota_tokens,
        )?;
        store.set_timeout(config.store_timeout)?;
        notes.extend(more);
        // one connection: two turns keep the next call's thread ready while one runs
        (Arc::new(store), 2)
    };
    let prober = Prober::with_config(config.probe_timeout, config.allow_loopback, tls);
    let (router, state) = router(config.clone(), store, turns, prober)?;
    Ok(App {
        router,
        notes,
        state,
    })
}

/// The router: `POST /bot<TOKEN>/{sendMessage,setWebhook,testWebhook}`,
/// `POST /v3.0/oa/quota/group`, and for operators `GET /healthz`, `GET /readyz` and
/// `GET /metrics`, over `store` serving `turns` calls at once.
fn router(
    config: Config,
    store: Arc<dyn Store>,
    turns: usize,
    prober: Prober,
) -> Result<(Router, Arc<AppState>), String> {
    let metrics = Arc::new(ops::Metrics::new().map_err(|e| format!("metrics: {e}"))?);
    let turns = turns.max(1);
    let state = Arc::new(AppState {
        config,
        store,
        turns: tokio::sync::Semaphore::new(turns),
        tables: Table::ALL.map(|_| tokio::sync::Semaphore::new((turns / 2).max(1))),
        prober,
        metrics: Arc::clone(&metrics),
        draining: std::sync::atomic::AtomicBool::new(false),
    });
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route(
            "/metrics",
            get(ops::metrics).with_state(Arc::clone(&metrics)),
        )
        .route("/{bot}/sendMessage", post(send_message))
        .route("/{bot}/setWebhook", post(set_webhook))
        .route("/{bot}/testWebhook", post(test_webhook))
        .route("/v3.0/oa/quota/group", post(quota_group))
        .fallback(|uri: Uri| async move {
            error_response(is_quota(uri.path()), StatusCode::NOT_FOUND, "Not Found")
        })
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .layer(DefaultBodyLimit::max(body_limit(&Limits::default())))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&metrics),
            ops::observe,
        ))
        .with_state(Arc::clone(&state));
    Ok((router, state))
}

/// `GET /healthz`: the process is live (it answers; nothing else is checked).
async fn healthz() -> Response {
    reply(Envelope::success("live"))
}

/// `GET /readyz`: ready to serve, when the store answers a trivial statement within the
/// store timeout and the server is not shutting down; else 503 with the cause (a load
/// balancer drains the instance meanwhile).
async fn readyz(
    State(st): State<Arc<AppState>>,
    Extension(id): Extension<ops::RequestId>,
) -> Response {
    if st.draining.load(std::sync::atomic::Ordering::SeqCst) {
        st.metrics.readiness(false);
        return error_response(
            false,
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the server is shutting down (request id {id})"),
        );
    }
    let answer = st.store(Table::Health, |s| s.ping()).await;
    st.metrics.readiness(answer.is_ok());
    match answer {
        Ok(()) => reply(Envelope::success("ready")),
        Err(e) => store_failure(false, "not ready", &e, &id),
    }
}

/// The largest request body read, in bytes, derived from the `Limits` that `sendMessage`
/// resolves with, so that every valid request fits (issue 20 item 4): the largest valid body
/// written compactly, plus a quarter for whitespace. That body holds `max_text_len` UTF-16
/// units each written as a `\uXXXX` escape (6 bytes), and `max_text_styles` runs each with
/// 20-character numbers and every style code once, `{"start":-9223372036854775808,
/// "len":…,"st":["b",…,"ind_5"]}`, besides the envelope's fields. A cap of 0 (none) sizes as
/// the default cap. For the default `Limits`: 2,778,140 bytes.
pub fn body_limit(limits: &Limits) -> usize {
    let defaults = Limits::default();
    let or_default = |n: usize, d: usize| if n == 0 { d } else { n };
    let text = 6 * or_default(limits.max_text_len, defaults.max_text_len);
    let codes: usize = chatmark::StyleCode::ALL
        .iter()
        .map(|c| c.as_str().len() + 3)
        .sum();
    let run = r#"{"start":,"len":,"st":[]},"#.len() + 2 * 20 + codes;
    let runs = run * or_default(limits.max_text_styles, defaults.max_text_styles);
    let compact = 512 + text + runs;
    compact + compact / 4
}

/// The longest request target (path and query) served, in bytes.
pub const MAX_TARGET: usize = 4096;

/// Whether `path` belongs to the quota API, whose answers are `{data, error, message}`
/// rather than the Bot API envelope.
fn is_quota(path: &str) -> bool {
    path.starts_with("/v3.0/")
}

/// A failure in the route's own shape: `{"ok":false,"errorCode":N,"description":…}` for bot
/// routes, `{"data":[],"error":N,"message":…}` for the quota route, with HTTP status `N`.
pub fn error_response(quota: bool, status: StatusCode, message: impl Into<String>) -> Response {
    let code = status.as_u16();
    if quota {
        (status, Json(QuotaResponse::failure(code.into(), message))).into_response()
    } else {
        (status, Json(Envelope::<()>::error(code, message))).into_response()
    }
}

/// Runs before every route: refuses over-long targets (414), transfer codings other than
/// plain `chunked` (501: the body would be read as if it were plain JSON), and bodies over
/// [`body_limit`] (413); reads the body within `body_timeout` (else 408), and turns any
/// answer that is not JSON (axum's rejections: 400 for a path that is not UTF-8, 405 for a
/// wrong method…) into the route's envelope with the same status.
async fn guard(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let quota = is_quota(req.uri().path());
    let body_limit = body_limit(&Limits::default());
    let codings: Vec<String> = req
        .headers()
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .split(',')
                .map(|c| c.trim().to_ascii_lowercase())
                .collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty())
        .collect();
    if !codings.is_empty() && codings != ["chunked"] {
        let mut r = error_response(
            quota,
            StatusCode::NOT_IMPLEMENTED,
            format!(
                "Transfer-Encoding {:?} is not served: send the body plain or chunked only",
                codings.join(", ")
            ),
        );
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return r;
    }
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_TARGET {
        return error_response(
            quota,
            StatusCode::URI_TOO_LONG,
            format!("the request target is longer than {MAX_TARGET} bytes"),
        );
    }
    let too_large = || {
        let mut r = error_response(
            quota,
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {body_limit} bytes"),
        );
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > body_limit as u64) {
        return too_large();
    }
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(
        st.config.body_timeout,
        Limited::new(body, body_limit).collect(),
    );
    let bytes = match read.await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => return too_large(),
        Err(_) => {
            let mut r = error_response(
                quota,
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} ms",
                    st.config.body_timeout.as_millis()
                ),
            );
            r.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return r;
        }
        Ok(Err(e)) => {
            return error_response(
                quota,
                StatusCode::BAD_REQUEST,
                format!("reading the body: {e}"),
            )
        }
    };
    let answer = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    as_envelope(quota, answer).await
}

/// The answer itself when it is JSON, else the route's envelope with its status (the text
/// of axum's rejection, or the status's reason, as the description).
async fn as_envelope(quota: bool, answer: Response) -> Response {
    let is_json = answer
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json || answer.status().is_success() {
        return answer;
    }
    let status = answer.status();
    let (parts, body) = answer.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_owned()
    } else {
        text
    };
    let mut out = error_response(quota, status, message);
    if let Some(allow) = parts.headers.get(header::ALLOW) {
        out.headers_mut().insert(header::ALLOW, allow.clone());
    }
    out
}

/// An envelope with the HTTP status of its `errorCode` (200 when `ok`).
fn reply<T: serde::Serialize>(env: Envelope<T>) -> Response {
    let status = env
        .error_code
        .and_then(|c| StatusCode::from_u16(c).ok())
        .unwrap_or(StatusCode::OK);
    (status, Json(env)).into_response()
}

/// The token of a `bot<TOKEN>` path segment: 404 when the segment is not one, 401 when
/// tokens are configured and this one is not among them.
fn token<'a>(st: &AppState, segment: &'a str) -> Result<&'a str, Envelope<()>> {
    let token = segment
        .strip_prefix("bot")
        .filter(|t| !t.is_empty())
        .ok_or_else(|| Envelope::error(404, "Not Found"))?;
    // a percent-escaped control character (`%00`) is never part of a token, and a database
    // column of text could not hold U+0000
    if token.chars().any(char::is_control) {
        return Err(Envelope::error(
            401,
            "Unauthorized: a bot token has no control characters",
        ));
    }
    match &st.config.bot_tokens {
        Some(known) if !known.contains(token) => {
            Err(Envelope::error(401, "Unauthorized: unknown bot token"))
        }
        _ => Ok(token),
    }
}

/// A store call's refusal (the bot envelope) or failure (the route's envelope): a failure
/// says `what` failed in the client's terms, with the request id and no backend detail,
/// which goes to the request's log line under that id (issue 51 finding 9). A database
/// that did not answer in time or cannot be reached answers 503 (try again), any other
/// failure 500.
fn store_failure(quota: bool, what: &str, e: &StoreError, id: &ops::RequestId) -> Response {
    let (status, text) = match e {
        StoreError::TooManyBots(max) => return reply::<()>(Envelope::error(
            429,
            format!("this server holds webhooks for at most {max} bots; remove one with setWebhook {{\"url\": \"\"}} first"),
        )),
        StoreError::DailyLimit(limit) => return reply::<()>(Envelope::error(
            426,
            format!("testWebhook is limited to {limit} calls a day; try again tomorrow (UTC)"),
        )),
        StoreError::Timeout(limit) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{what}: the database did not answer within {} ms; try again (request id {id})",
                limit.as_millis()
            ),
        ),
        StoreError::Unavailable(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{what}: the database cannot be reached; try again shortly (request id {id})"),
        ),
        _ => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what}: the database failed (request id {id})"),
        ),
    };
    let mut answer = error_response(quota, status, text);
    answer.extensions_mut().insert(ops::Failure(e.to_string()));
    answer
}

/// Reads a request body that must be a JSON object: serde would otherwise read an array as a
/// struct's fields in order (`["http://…"]` as `{"url": …}`).
/// A JSON object body read straight into `T` (one reader, one rule on every route): lone
/// surrogates read as U+FFFD (L2), and fields `T` ignores are skipped whatever their depth,
/// as sendMessage's reader skips them. `shape` says what was expected, for the error.
fn read_object<T: serde::de::DeserializeOwned>(body: &Bytes, shape: &str) -> Result<T, String> {
    let text = String::from_utf8_lossy(body);
    // an array would read as a struct's fields in order: only an object is a body
    if !text.trim_start().starts_with('{') {
        return Err(
            match chatmark::json_from_str_lossy::<serde::de::IgnoredAny>(&text) {
                Err(e) => format!("the body is not valid JSON: {e}"),
                Ok(_) => "the body must be a JSON object".to_owned(),
            },
        );
    }
    chatmark::json_from_str_lossy(&text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            format!("the body is not valid JSON: {e}")
        } else {
            format!("expected {shape}: {e}")
        }
    })
}

async fn send_message(
    Path(bot): Path<String>,
    State(st): State<Arc<AppState>>,
    Extension(id): Extension<ops::RequestId>,
    body: Bytes,
) -> Response {
    let token = match token(&st, &bot) {
        Ok(t) => t,
        Err(e) => return reply(e),
    };
    let text = String::from_utf8_lossy(&body);
    let trimmed = text.trim_start();
    if !trimmed.is_empty() && !trimmed.starts_with('{') {
        return reply::<()>(Envelope::error(400, "the body must be a JSON object"));
    }
    // Read straight from the text: numbers by value (N1), ignored fields skipped unread.
    let resolved = match resolve_send_message(&text, &Limits::default()) {
        Ok(r) => r,
        Err(e) => return reply::<()>(Envelope::from_resolve_error(&e)),
    };
    // one chat, one id: `100`, `1e2` and `1.0` are stored alike (issue 51 finding 6)
    let Some(chat_id) = canonical_chat_id(&chat_id_text(&text)) else {
        return reply::<()>(Envelope::error(
            400,
            "chat_id must be a non-empty string or an integer from -9223372036854775808 to 9223372036854775807",
        ));
    };
    let date = EpochMillis::now();
    let message = NewMessage {
        bot: token.to_owned(),
        chat_id,
        date,
        text: resolved.formatted.text,
        text_styles: serde_json::to_string(&resolved.formatted.text_styles)
            .unwrap_or_else(|_| "[]".to_owned()),
    };
    match st
        .store(Table::Messages, move |s| s.add_message(&message))
        .await
    {
        Ok(message_id) => reply(Envelope::success(SendMessageResult { message_id, date })),
        Err(e) => store_failure(false, "the message was not stored", &e, &id),
    }
}

/// The `chat_id` of a body that resolved (so it is JSON with a valid `chat_id`), as JSON
/// text for the message record; other fields are skipped unread (serde_json ignores values
/// iteratively and does not convert their numbers), so N1's bodies read here too.
fn chat_id_text(body: &str) -> String {
    /// The last `chat_id` of a JSON object, as its JSON text (a later duplicate key replaces
    /// an earlier one, as the body's reader takes every field).
    struct LastChatId(String);
    impl<'de> Deserialize<'de> for LastChatId {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = LastChatId;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(
                    self,
                    mut map: A,
                ) -> Result<LastChatId, A::Error> {
                    let mut last = String::new();
                    while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                        if key == "chat_id" {
                            let raw: Box<serde_json::value::RawValue> = map.next_value()?;
                            last = raw.get().to_owned();
                        } else {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                    Ok(LastChatId(last))
                }
            }
            d.deserialize_map(V)
        }
    }
    chatmark::json_from_str_lossy::<LastChatId>(body).map_or_else(|_| String::new(), |c| c.0)
}

#[derive(Deserialize)]
struct SetWebhook {
    url: String,
}

async fn set_webhook(
    Path(bot): Path<String>,
    State(st): State<Arc<AppState>>,
    Extension(id): Extension<ops::RequestId>,
    body: Bytes,
) -> Response {
    let token = match token(&st, &bot) {
        Ok(t) => t,
        Err(e) => return reply(e),
    };
    let req: SetWebhook = match read_object(&body, "{\"url\": string}") {
        Ok(r) => r,
        Err(e) => return reply::<()>(Envelope::error(400, e)),
    };
    if req.url.len() > MAX_WEBHOOK_URL {
        return reply::<()>(Envelope::error(
            400,
            format!("the webhook URL is longer than {MAX_WEBHOOK_URL} bytes"),
        ));
    }
    // Only the syntax is checked here: the blocked-target guard runs at probe time, on the
    // addresses the host resolves to then.
    if !req.url.is_empty() {
        if let Err(e) = chatmark_api::WebhookUrl::parse(&req.url) {
            return reply::<()>(Envelope::error(400, format!("invalid webhook URL: {e}")));
        }
    }
    let url = Some(req.url).filter(|u| !u.is_empty());
    let (bot, max_bots) = (token.to_owned(), st.config.max_bots);
    match st
        .store(Table::Webhooks, move |s| {
            s.set_webhook(&bot, url.as_deref(), max_bots)
        })
        .await
    {
        Ok(()) => reply(Envelope::success(true)),
        Err(e) => store_failure(false, "the webhook was not saved", &e, &id),
    }
}

fn utc_day() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

async fn test_webhook(
    Path(bot): Path<String>,
    State(st): State<Arc<AppState>>,
    Extension(id): Extension<ops::RequestId>,
) -> Response {
    let token = match token(&st, &bot) {
        Ok(t) => t,
        Err(e) => return reply(e),
    };
    let bot = token.to_owned();
    let url = match st.store(Table::Webhooks, move |s| s.webhook(&bot)).await {
        Ok(u) => u,
        Err(e) => return store_failure(false, "the webhook could not be read", &e, &id),
    };
    let Some(url) = url else {
        return reply::<()>(Envelope::error(
            400,
            "no webhook is set: call setWebhook first",
        ));
    };
    let (bot, day) = (token.to_owned(), utc_day());
    let (limit, max_bots) = (st.config.daily_limit, st.config.max_bots);
    let counted = st
        .store(Table::ProbeCounts, move |s| {
            s.count_probe(&bot, day, limit, max_bots)
        })
        .await;
    if let Err(e) = counted {
        return store_failure(
            false,
            "the day's testWebhook calls could not be counted",
            &e,
            &id,
        );
    }
    let result = st.prober.probe(&url).await;
    st.metrics.probe(result.outcome.as_str());
    reply(Envelope::success(result))
}

async fn quota_group(
    State(st): State<Arc<AppState>>,
    Extension(id): Extension<ops::RequestId>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let token = headers
        .get("access_token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty());
    let Some(token) = token else {
        return error_response(
            true,
            StatusCode::UNAUTHORIZED,
            "the access_token header is required",
        );
    };
    let key = token.to_owned();
    match st
        .store(Table::Quota, move |s| s.access_token_known(&key))
        .await
    {
        Ok(true) => {}
        Ok(false) => return error_response(true, StatusCode::UNAUTHORIZED, "unknown access_token"),
        Err(e) => return store_failure(true, "the access token could not be checked", &e, &id),
    }
    let req: QuotaRequest = match read_object(&body, "a quota request")
        .and_then(|r: QuotaRequest| r.check().map(|()| r).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                Json(QuotaResponse::failure(400, e)),
            )
                .into_response()
        }
    };
    match st.store(Table::Quota, move |s| s.quota_assets(&req)).await {
        Ok(assets) => Json(QuotaResponse::success(assets)).into_response(),
        Err(e) => store_failure(true, "the quota assets could not be read", &e, &id),
    }
}
