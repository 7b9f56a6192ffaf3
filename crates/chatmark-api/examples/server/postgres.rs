//! The example server's [`Store`] in PostgreSQL, shared by every server instance given the
//! same `CHATMARK_API_DB=postgres://…` URL: tokio-postgres over a deadpool pool, rustls when
//! the URL says `sslmode=require`. The schema is migrated at start-up under an advisory
//! lock (instances starting together migrate and seed once); each rule that must hold
//! across instances is one SQL statement: message ids from one identity sequence, the daily
//! `testWebhook` count as one upsert that refuses past the limit.
//!
//! The [`Store`] methods block (the trait is synchronous): they run the query on the tokio
//! runtime the store was opened on and wait for it, so they must be called off that
//! runtime's worker threads (the handlers call the store through `spawn_blocking`), and the
//! runtime must be multi-threaded.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use chatmark_api::store::{NewMessage, Store, StoreError};
use chatmark_api::{QuotaAsset, QuotaRequest};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use rustls::ClientConfig;
use tokio::runtime::Handle;
use tokio_postgres::config::{Host, SslMode};

use crate::seed::{self, DEMO_ACCESS_TOKEN};

/// The schema, one step per version (the table `chatmark_schema` holds the steps applied).
/// Add steps at the end; never edit a released one.
const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE webhooks (
        bot TEXT PRIMARY KEY,
        url TEXT NOT NULL
    );
    CREATE TABLE probe_counts (
        bot TEXT NOT NULL,
        day BIGINT NOT NULL,
        calls INTEGER NOT NULL,
        PRIMARY KEY (bot, day)
    );
    CREATE INDEX probe_counts_day ON probe_counts (day);
    CREATE TABLE messages (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        bot TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        date BIGINT NOT NULL,
        text TEXT NOT NULL,
        text_styles TEXT NOT NULL
    );
    CREATE TABLE quota_assets (
        owner TEXT NOT NULL,
        position INTEGER NOT NULL,
        asset_id TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (owner, asset_id)
    );
    CREATE TABLE access_tokens (
        token TEXT PRIMARY KEY
    );
",
    "
    -- TEXT cannot hold U+0000, which a message text may (R1): texts are kept as UTF-8
    -- bytes, in a new column so that the table is not rewritten under a lock and instances
    -- still on version 1 keep inserting into text; a row has one or the other
    ALTER TABLE messages ADD COLUMN text_utf8 BYTEA;
    ALTER TABLE messages ALTER COLUMN text DROP NOT NULL;
",
];

/// The advisory lock held while migrating and seeding ("chatmark" in ASCII): the first
/// instance to start does it, the others wait and then find it done.
const SETUP_LOCK: i64 = 0x6368_6174_6d61_726b;

/// How a store uses the database: its connections and time limits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Connections each instance keeps at most; the server's connections queue for them.
    pub pool_size: usize,
    /// The longest a call waits for a connection (a connection the database refuses for
    /// want of slots is retried meanwhile, with backoff), and the longest a statement runs
    /// (`statement_timeout`, set on each connection): then [`StoreError::Timeout`].
    pub timeout: Duration,
    /// A pooled connection unused this long is closed, giving its slot back to the database
    /// (and so to the other instances).
    pub idle_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pool_size: 16,
            timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(30),
        }
    }
}

/// How long an instance starting waits for the database to accept a connection when it
/// refuses for want of slots (or because it is starting up), before the start fails.
const START_WAIT: Duration = Duration::from_secs(30);

/// Whether a failed connection attempt may succeed if tried again soon: the database is
/// out of connection slots or other resources (SQLSTATE class 53), starting up or shutting
/// down (57P01–57P03); with `unreachable`, also when it could not be reached at all (a
/// refused or reset socket: a restart under way).
fn retriable(e: &tokio_postgres::Error, unreachable: bool) -> bool {
    match e.as_db_error() {
        Some(db) => {
            let code = db.code().code();
            code.starts_with("53") || matches!(code, "57P01" | "57P02" | "57P03")
        }
        None => unreachable,
    }
}

/// `pause` stretched by a random factor in [0.5, 1.5), so that instances refused together
/// do not all try again together.
fn jittered(pause: Duration) -> Duration {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    let unit = (h.finish() >> 11) as f64 / (1u64 << 53) as f64;
    pause.mul_f64(0.5 + unit)
}

/// The first pause between two connection attempts, and the longest (it doubles).
const FIRST_PAUSE: Duration = Duration::from_millis(10);
const LONGEST_PAUSE: Duration = Duration::from_millis(500);

/// A connection from `pool` within `wait`, trying again with backoff while the database
/// refuses for reasons that pass ([`retriable`]).
async fn connection(
    pool: &Pool,
    wait: Duration,
    unreachable: bool,
) -> Result<deadpool_postgres::Object, deadpool_postgres::PoolError> {
    let deadline = tokio::time::Instant::now() + wait;
    let mut pause = FIRST_PAUSE;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let timeouts = deadpool_postgres::Timeouts {
            wait: Some(left),
            create: Some(left),
            recycle: Some(left),
        };
        match pool.timeout_get(&timeouts).await {
            Err(deadpool_postgres::PoolError::Backend(e))
                if retriable(&e, unreachable) && left > pause =>
            {
                tokio::time::sleep(jittered(pause)).await;
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
            answer => return answer,
        }
    }
}

/// How long a connection to the database may take when the URL does not say
/// (`connect_timeout`, in seconds).
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// State in a PostgreSQL database shared by any number of server instances.
pub struct PostgresStore {
    pool: Pool,
    runtime: Handle,
    timeout: Duration,
    /// The task closing idle connections, stopped with the store.
    reaper: tokio::task::AbortHandle,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.reaper.abort();
    }
}

/// Whether the `CHATMARK_API_DB` value names a PostgreSQL database (else a SQLite file).
pub fn is_url(db: &str) -> bool {
    scheme_len(db).is_some()
}

/// The length of a `postgres://` or `postgresql://` scheme at the start of `db`, in any case
/// (a URL scheme is case-insensitive: `POSTGRES://…` is not a file name either).
fn scheme_len(db: &str) -> Option<usize> {
    ["postgres://", "postgresql://"]
        .into_iter()
        .find(|s| db.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s)))
        .map(str::len)
}

/// `url` with its scheme in lower case, which is all tokio-postgres's parser reads.
fn lower_scheme(url: &str) -> String {
    match scheme_len(url) {
        Some(n) => format!(
            "{}{}",
            url.get(..n).unwrap_or_default().to_ascii_lowercase(),
            url.get(n..).unwrap_or_default()
        ),
        None => url.to_owned(),
    }
}

/// A failed statement: refused by the database (its error, SQLSTATE included, for the log),
/// or not run at all because the connection is gone.
fn backend(e: &tokio_postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(_) => StoreError::Backend(describe(e)),
        None => StoreError::Unavailable(describe(e)),
    }
}

impl PostgresStore {
    /// [`backend`], and a statement cancelled by `statement_timeout` as a timeout.
    fn fail(&self, e: &tokio_postgres::Error) -> StoreError {
        if e.code() == Some(&tokio_postgres::error::SqlState::QUERY_CANCELED) {
            return StoreError::Timeout(self.timeout);
        }
        backend(e)
    }
}

/// The server's message for a database error (tokio-postgres's own display says only "db
/// error" for those).
fn describe(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    // the causes too: "error performing TLS handshake" alone does not say the certificate
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// A connection the pool could not give in `timeout`: the database refused or could not be
/// reached, or every connection stayed busy.
fn pool_error(e: &deadpool_postgres::PoolError, timeout: Duration) -> StoreError {
    use deadpool_postgres::PoolError;
    match e {
        PoolError::Backend(e) => StoreError::Unavailable(describe(e)),
        PoolError::Timeout(_) => StoreError::Timeout(timeout),
        PoolError::Closed => StoreError::Unavailable("the connection pool is closed".to_owned()),
        other => StoreError::Backend(other.to_string()),
    }
}

/// The database named without its password: `database <name> on <host>:<port>`.
fn label(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let name = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("PostgreSQL database {name} on {host}:{port}")
}

impl PostgresStore {
    /// Connects to the database at `url` (TLS with the roots of `tls` when the URL says
    /// `sslmode=require`), migrates its schema, seeds quota assets when it holds none (from
    /// the JSON file `seed`, else [`seed::SAMPLE_ASSETS`]) and adds `access_tokens`, as
    /// the SQLite store does, with the connections and time limits of `settings`. Answers the
    /// store and notes for the operator.
    pub async fn open(
        url: &str,
        seed: Option<&Path>,
        access_tokens: &[String],
        tls: &Arc<ClientConfig>,
        settings: &Settings,
    ) -> Result<(Self, Vec<String>), String> {
        // its blocking methods wait on the runtime's other workers to drive the connections
        if Handle::current().runtime_flavor() != tokio::runtime::RuntimeFlavor::MultiThread {
            return Err("the PostgreSQL store needs a multi-threaded tokio runtime".to_owned());
        }
        let mut config = tokio_postgres::Config::from_str(&lower_scheme(url))
            .map_err(|e| format!("CHATMARK_API_DB is not a usable PostgreSQL URL: {e}"))?;
        if config.get_connect_timeout().is_none() {
            // an unreachable host fails the start (or a request) instead of hanging on it
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        // every statement of every connection is bounded (a lock held elsewhere included)
        let options = format!(
            "{} -c statement_timeout={}",
            config.get_options().unwrap_or_default(),
            settings.timeout.as_millis()
        );
        config.options(options.trim_start());
        let name = label(&config);
        let manager_config = ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        };
        let manager = if config.get_ssl_mode() == SslMode::Require {
            let connector = tokio_postgres_rustls::MakeRustlsConnect::new((**tls).clone());
            Manager::from_config(config, connector, manager_config)
        } else {
            Manager::from_config(config, tokio_postgres::NoTls, manager_config)
        };
        let pool = Pool::builder(manager)
            .max_size(settings.pool_size.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(settings.timeout))
            .create_timeout(Some(settings.timeout))
            .recycle_timeout(Some(settings.timeout))
            .build()
            .map_err(|e| format!("{name}: {e}"))?;
        let notes = setup(&pool, seed, access_tokens)
            .await
            .map_err(|e| format!("{name}: {e}"))?;
        let store = PostgresStore {
            reaper: close_idle(&pool, settings.idle_timeout).abort_handle(),
            pool,
            runtime: Handle::current(),
            timeout: settings.timeout,
        };
        Ok((store, notes))
    }

    /// Runs `query` on the store's runtime and waits for it (see the module's note), at
    /// most the time of a connection wait and a statement and a second more: a database
    /// that stops answering altogether (a network gone silent) ends in a timeout too.
    fn wait<T>(
        &self,
        query: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let backstop = self.timeout * 2 + Duration::from_secs(1);
        self.runtime.block_on(async {
            tokio::time::timeout(backstop, query)
                .await
                .unwrap_or(Err(StoreError::Timeout(self.timeout)))
        })
    }

    /// A pooled connection within the store's timeout; a connection the database refuses
    /// or cannot make yet (out of slots, restarting) is tried again meanwhile.
    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        connection(&self.pool, self.timeout, true)
            .await
            .map_err(|e| pool_error(&e, self.timeout))
    }
}

/// Closes the connections of `pool` unused for `idle`, from a task checking a few times per
/// `idle`; it ends with the pool.
fn close_idle(pool: &Pool, idle: Duration) -> tokio::task::JoinHandle<()> {
    let pool = pool.weak();
    let every = (idle / 4).clamp(Duration::from_millis(25), Duration::from_secs(5));
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let Some(pool) = pool.upgrade() else {
                return;
            };
            pool.retain(|_, metrics| metrics.last_used() < idle);
        }
    })
}

/// Migrates and seeds under [`SETUP_LOCK`], in one transaction: another instance starting
/// at the same time waits, then finds the schema current and the seed in place.
async fn setup(
    pool: &Pool,
    seed: Option<&Path>,
    access_tokens: &[String],
) -> Result<Vec<String>, String> {
    // a database out of connection slots (other instances hold them) may free one soon
    let mut client = connection(pool, START_WAIT, false)
        .await
        .map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(e) => describe(&e),
            other => other.to_string(),
        })?;
    let fail = |e: tokio_postgres::Error| describe(&e);
    let tx = client.transaction().await.map_err(fail)?;
    // instances starting together wait here for the first one's migration: longer than a
    // request's statement may
    tx.batch_execute("SET LOCAL statement_timeout = '60s'")
        .await
        .map_err(fail)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SETUP_LOCK])
        .await
        .map_err(fail)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS chatmark_schema (version INTEGER NOT NULL)")
        .await
        .map_err(fail)?;
    let version: i32 = match tx
        .query_opt("SELECT version FROM chatmark_schema", &[])
        .await
        .map_err(fail)?
    {
        Some(row) => row.get(0),
        None => {
            tx.execute("INSERT INTO chatmark_schema (version) VALUES (0)", &[])
                .await
                .map_err(fail)?;
            0
        }
    };
    let known = i32::try_from(MIGRATIONS.len()).unwrap_or(i32::MAX);
    if version > known {
        return Err(format!(
            "schema version {version} is newer than this server's ({known})"
        ));
    }
    for sql in MIGRATIONS
        .iter()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        tx.batch_execute(sql).await.map_err(fail)?;
    }
    tx.execute("UPDATE chatmark_schema SET version = $1", &[&known])
        .await
        .map_err(fail)?;

    let mut notes = Vec::new();
    let assets: i64 = tx
        .query_one("SELECT COUNT(*) FROM quota_assets", &[])
        .await
        .map_err(fail)?
        .get(0);
    if assets == 0 {
        let (parsed, from) = seed::load(seed)?;
        let mut n = 0;
        for owner in seed::OWNERS {
            for (position, asset) in parsed.get(&owner).into_iter().flatten().enumerate() {
                let record = serde_json::to_string(asset).map_err(|e| e.to_string())?;
                let position = i32::try_from(position).unwrap_or(i32::MAX);
                tx.execute(
                    "INSERT INTO quota_assets (owner, position, asset_id, record)
                     VALUES ($1, $2, $3, $4)",
                    &[
                        &seed::owner_name(owner),
                        &position,
                        &asset.asset_id,
                        &record,
                    ],
                )
                .await
                .map_err(fail)?;
                n += 1;
            }
        }
        notes.push(format!("seeded {n} quota assets from {from}"));
    }
    for token in access_tokens {
        tx.execute(
            "INSERT INTO access_tokens (token) VALUES ($1) ON CONFLICT DO NOTHING",
            &[token],
        )
        .await
        .map_err(fail)?;
    }
    if seed::revokes_demo_token(access_tokens) {
        let revoked = tx
            .execute(
                "DELETE FROM access_tokens WHERE token = $1",
                &[&DEMO_ACCESS_TOKEN],
            )
            .await
            .map_err(fail)?;
        if revoked > 0 {
            notes.push(seed::revoked_note());
        }
    }
    let tokens: i64 = tx
        .query_one("SELECT COUNT(*) FROM access_tokens", &[])
        .await
        .map_err(fail)?
        .get(0);
    if tokens == 0 {
        tx.execute(
            "INSERT INTO access_tokens (token) VALUES ($1)",
            &[&DEMO_ACCESS_TOKEN],
        )
        .await
        .map_err(fail)?;
        notes.push(seed::demo_note());
    }
    tx.commit().await.map_err(fail)?;
    Ok(notes)
}

/// A stored `date` column as the message's date.
fn stored_date(ms: i64) -> Result<chatmark_api::EpochMillis, StoreError> {
    u64::try_from(ms)
        .map_err(|e| e.to_string())
        .and_then(chatmark_api::EpochMillis::new)
        .map_err(|e| StoreError::Backend(format!("a stored message date: {e}")))
}

/// `max_bots` as a SQL bigint.
fn cap(max_bots: usize) -> i64 {
    i64::try_from(max_bots).unwrap_or(i64::MAX)
}

impl Store for PostgresStore {
    fn set_webhook(&self, bot: &str, url: Option<&str>, max_bots: usize) -> Result<(), StoreError> {
        self.wait(async {
            let client = self.client().await?;
            let Some(url) = url else {
                client
                    .execute("DELETE FROM webhooks WHERE bot = $1", &[&bot])
                    .await
                    .map_err(|e| self.fail(&e))?;
                return Ok(());
            };
            // One statement: a bot that holds a webhook replaces it; a new one is inserted
            // while fewer than `max_bots` hold one (a memory bound: concurrent first calls
            // of different bots may pass it by a few).
            let stmt = client
                .prepare_cached(
                    "INSERT INTO webhooks (bot, url)
                     SELECT $1, $2
                     WHERE EXISTS (SELECT 1 FROM webhooks WHERE bot = $1)
                        OR (SELECT COUNT(*) FROM webhooks) < $3
                     ON CONFLICT (bot) DO UPDATE SET url = excluded.url",
                )
                .await
                .map_err(|e| self.fail(&e))?;
            let written = client
                .execute(&stmt, &[&bot, &url, &cap(max_bots)])
                .await
                .map_err(|e| self.fail(&e))?;
            if written == 0 {
                return Err(StoreError::TooManyBots(max_bots));
            }
            Ok(())
        })
    }

    fn webhook(&self, bot: &str) -> Result<Option<String>, StoreError> {
        self.wait(async {
            let client = self.client().await?;
            let stmt = client
                .prepare_cached("SELECT url FROM webhooks WHERE bot = $1")
                .await
                .map_err(|e| self.fail(&e))?;
            let row = client
                .query_opt(&stmt, &[&bot])
                .await
                .map_err(|e| self.fail(&e))?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn count_probe(
        &self,
        bot: &str,
        day: u64,
        limit: u32,
        max_bots: usize,
    ) -> Result<u32, StoreError> {
        if limit == 0 {
            return Err(StoreError::DailyLimit(limit));
        }
        let day = i64::try_from(day).unwrap_or(i64::MAX);
        let sql_limit = i32::try_from(limit).unwrap_or(i32::MAX);
        self.wait(async {
            let client = self.client().await?;
            // One atomic upsert: the row lock taken by ON CONFLICT makes concurrent calls of
            // one bot count one after the other, each seeing the count the last one left,
            // so exactly `limit` calls succeed however they are spread over instances.
            let stmt = client
                .prepare_cached(
                    "WITH forget AS (DELETE FROM probe_counts WHERE day < $2)
                     INSERT INTO probe_counts AS p (bot, day, calls)
                     SELECT $1, $2, 1
                     WHERE EXISTS (SELECT 1 FROM probe_counts WHERE bot = $1 AND day = $2)
                        OR (SELECT COUNT(*) FROM probe_counts WHERE day = $2) < $4
                     ON CONFLICT (bot, day) DO UPDATE SET calls = p.calls + 1
                     WHERE p.calls < $3
                     RETURNING p.calls",
                )
                .await
                .map_err(|e| self.fail(&e))?;
            let row = client
                .query_opt(&stmt, &[&bot, &day, &sql_limit, &cap(max_bots)])
                .await
                .map_err(|e| self.fail(&e))?;
            if let Some(row) = row {
                let calls: i32 = row.get(0);
                return Ok(u32::try_from(calls).unwrap_or(0));
            }
            // Nothing written: the bot's count is at the limit, or it is new and the day's
            // bots are at the cap (a read only to name the refusal).
            let counted = client
                .query_opt(
                    "SELECT 1 FROM probe_counts WHERE bot = $1 AND day = $2",
                    &[&bot, &day],
                )
                .await
                .map_err(|e| self.fail(&e))?;
            Err(match counted {
                Some(_) => StoreError::DailyLimit(limit),
                None => StoreError::TooManyBots(max_bots),
            })
        })
    }

    fn add_message(&self, m: &NewMessage) -> Result<u64, StoreError> {
        let date = i64::try_from(m.date.get()).unwrap_or(i64::MAX);
        self.wait(async {
            let client = self.client().await?;
            let stmt = client
                .prepare_cached(
                    "INSERT INTO messages (bot, chat_id, date, text_utf8, text_styles)
                     VALUES ($1, $2, $3, $4, $5)
                     RETURNING id",
                )
                .await
                .map_err(|e| self.fail(&e))?;
            let text = m.text.as_bytes();
            let row = client
                .query_one(&stmt, &[&m.bot, &m.chat_id, &date, &text, &m.text_styles])
                .await
                .map_err(|e| self.fail(&e))?;
            let id: i64 = row.get(0);
            u64::try_from(id).map_err(|_| StoreError::Backend("negative message id".to_owned()))
        })
    }

    fn message(&self, id: u64) -> Result<Option<NewMessage>, StoreError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        self.wait(async {
            let client = self.client().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT bot, chat_id, date, COALESCE(text_utf8, convert_to(text, 'UTF8')),
                            text_styles
                     FROM messages WHERE id = $1",
                )
                .await
                .map_err(|e| self.fail(&e))?;
            let Some(row) = client
                .query_opt(&stmt, &[&id])
                .await
                .map_err(|e| self.fail(&e))?
            else {
                return Ok(None);
            };
            Ok(Some(NewMessage {
                bot: row.get(0),
                chat_id: row.get(1),
                date: stored_date(row.get(2))?,
                text: String::from_utf8(row.get(3))
                    .map_err(|e| StoreError::Backend(format!("a stored message text: {e}")))?,
                text_styles: row.get(4),
            }))
        })
    }

    fn quota_assets(&self, request: &QuotaRequest) -> Result<Vec<QuotaAsset>, StoreError> {
        self.wait(async {
            let client = self.client().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT record FROM quota_assets WHERE owner = $1 ORDER BY position",
                )
                .await
                .map_err(|e| self.fail(&e))?;
            let rows = client
                .query(&stmt, &[&seed::owner_name(request.quota_owner)])
                .await
                .map_err(|e| self.fail(&e))?;
            let mut assets = Vec::with_capacity(rows.len());
            for row in rows {
                let record: &str = row.get(0);
                assets.push(
                    serde_json::from_str(record)
                        .map_err(|e| StoreError::Backend(format!("a stored quota asset: {e}")))?,
                );
            }
            Ok(request.filter(&assets))
        })
    }

    fn close(&self) {
        self.reaper.abort();
        self.pool.close();
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.wait(async {
            let client = self.client().await?;
            client
                .simple_query("SELECT 1")
                .await
                .map_err(|e| self.fail(&e))?;
            Ok(())
        })
    }

    fn access_token_known(&self, token: &str) -> Result<bool, StoreError> {
        self.wait(async {
            let client = self.client().await?;
            let stmt = client
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM access_tokens WHERE token = $1)")
                .await
                .map_err(|e| self.fail(&e))?;
            let row = client
                .query_one(&stmt, &[&token])
                .await
                .map_err(|e| self.fail(&e))?;
            Ok(row.get(0))
        })
    }
}
