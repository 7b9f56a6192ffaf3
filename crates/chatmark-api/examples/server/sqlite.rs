//! The example server's [`Store`] in SQLite (rusqlite, SQLite compiled in): one file, or
//! `:memory:`, with its schema created and migrated on open.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use chatmark_api::store::{NewMessage, Store, StoreError};
use chatmark_api::{QuotaAsset, QuotaRequest};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

use crate::seed::{self, DEMO_ACCESS_TOKEN};

/// The schema, one step per version (`PRAGMA user_version` counts the steps applied). Add
/// steps at the end; never edit a released one.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE webhooks (
        bot TEXT PRIMARY KEY,
        url TEXT NOT NULL
    );
    CREATE TABLE probe_counts (
        bot TEXT NOT NULL,
        day INTEGER NOT NULL,
        calls INTEGER NOT NULL,
        PRIMARY KEY (bot, day)
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        bot TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        date INTEGER NOT NULL,
        text TEXT NOT NULL,
        text_styles TEXT NOT NULL
    );
    CREATE TABLE quota_assets (
        owner TEXT NOT NULL,
        position INTEGER NOT NULL,
        asset_id TEXT NOT NULL,
        product_type TEXT NOT NULL,
        quota_type TEXT NOT NULL,
        valid_through TEXT NOT NULL,
        auto_renew INTEGER NOT NULL,
        status TEXT NOT NULL,
        used_id TEXT,
        PRIMARY KEY (owner, asset_id)
    );
    CREATE INDEX quota_assets_filter ON quota_assets (owner, product_type, quota_type);
    CREATE TABLE access_tokens (
        token TEXT PRIMARY KEY
    );
"];

/// State in one SQLite database; one connection, used under a lock (queries take
/// microseconds; several server instances would share a database server instead).
pub struct SqliteStore {
    conn: Mutex<Connection>,
    /// How long a statement waits for another process's lock on the file (SQLite's busy
    /// timeout), in milliseconds.
    timeout_ms: std::sync::atomic::AtomicU64,
    /// The exclusive lock on `<db>.lock`, held while the store lives: one process per file.
    _lock: Option<std::fs::File>,
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A stored `date` column as the message's date.
fn stored_date(ms: i64) -> Result<chatmark_api::EpochMillis, StoreError> {
    u64::try_from(ms)
        .map_err(|e| e.to_string())
        .and_then(chatmark_api::EpochMillis::new)
        .map_err(|e| StoreError::Backend(format!("a stored message date: {e}")))
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` (`:memory:` for one in memory),
    /// migrates its schema, seeds quota assets when it holds none (from the JSON file
    /// `seed`, `{"OA": [...], "APP": [...]}`, else [`seed::SAMPLE_ASSETS`]) and adds
    /// `access_tokens`. Answers the store and notes for the operator (what was seeded).
    pub fn open(
        path: &str,
        seed: Option<&Path>,
        access_tokens: &[String],
    ) -> Result<(Self, Vec<String>), String> {
        let fail = |e: rusqlite::Error| format!("database {path}: {e}");
        let lock = if path == ":memory:" {
            None
        } else {
            Some(lock_file(path)?)
        };
        let mut conn = Connection::open(path).map_err(fail)?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))
            .map_err(fail)?;
        if path != ":memory:" {
            // WAL: readers do not block the writer; NORMAL: no fsync per commit, durable
            // across process crashes (not power loss), as fits a demo.
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(fail)?;
            conn.pragma_update(None, "synchronous", "NORMAL")
                .map_err(fail)?;
        }
        migrate(&mut conn).map_err(|e| format!("database {path}: {e}"))?;
        let mut notes = Vec::new();
        let tx = conn.transaction().map_err(fail)?;
        let assets: i64 = tx
            .query_row("SELECT COUNT(*) FROM quota_assets", [], |r| r.get(0))
            .map_err(fail)?;
        if assets == 0 {
            let (parsed, from) = seed::load(seed)?;
            let n = seed_assets(&tx, &parsed).map_err(fail)?;
            notes.push(format!("seeded {n} quota assets from {from}"));
        }
        for token in access_tokens {
            tx.execute(
                "INSERT OR IGNORE INTO access_tokens (token) VALUES (?1)",
                [token],
            )
            .map_err(fail)?;
        }
        // real tokens given: the demo token is revoked, whatever an earlier start seeded
        if seed::revokes_demo_token(access_tokens) {
            let revoked = tx
                .execute(
                    "DELETE FROM access_tokens WHERE token = ?1",
                    [DEMO_ACCESS_TOKEN],
                )
                .map_err(fail)?;
            if revoked > 0 {
                notes.push(seed::revoked_note());
            }
        }
        let tokens: i64 = tx
            .query_row("SELECT COUNT(*) FROM access_tokens", [], |r| r.get(0))
            .map_err(fail)?;
        if tokens == 0 {
            tx.execute(
                "INSERT INTO access_tokens (token) VALUES (?1)",
                [DEMO_ACCESS_TOKEN],
            )
            .map_err(fail)?;
            notes.push(seed::demo_note());
        }
        tx.commit().map_err(fail)?;
        Ok((
            SqliteStore {
                conn: Mutex::new(conn),
                timeout_ms: std::sync::atomic::AtomicU64::new(BUSY_TIMEOUT_MS),
                _lock: lock,
            },
            notes,
        ))
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets how long a statement waits for a lock on the file held by another process
    /// (another tool, a backup) before it fails with [`StoreError::Timeout`].
    pub fn set_timeout(&self, timeout: std::time::Duration) -> Result<(), String> {
        self.lock()
            .busy_timeout(timeout)
            .map_err(|e| format!("database busy timeout: {e}"))?;
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        self.timeout_ms
            .store(ms, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// A failed statement: busy past the timeout, or another failure.
    fn fail(&self, e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                let ms = self.timeout_ms.load(std::sync::atomic::Ordering::Relaxed);
                StoreError::Timeout(std::time::Duration::from_millis(ms))
            }
            _ => backend(e),
        }
    }
}

/// How long a statement waits for a lock held by another process, unless set otherwise.
const BUSY_TIMEOUT_MS: u64 = 5_000;

/// Takes the exclusive lock of `<path>.lock` (created if needed), or says that another
/// server process holds it: two processes on one SQLite file fail each other's writes
/// ("database is locked") under load, so the second refuses to start.
fn lock_file(path: &str) -> Result<std::fs::File, String> {
    let lock_path = format!("{path}.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("database lock {lock_path}: {e}"))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "database {path} is in use by another server process (it holds {lock_path}); \
             one SQLite file serves one process: stop the other, or give this one its own \
             CHATMARK_API_DB"
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("database lock {lock_path}: {e}")),
    }
}

fn migrate(conn: &mut Connection) -> Result<(), String> {
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| e.to_string())?;
    let known = i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX);
    if version > known {
        return Err(format!(
            "schema version {version} is newer than this server's ({known})"
        ));
    }
    for (step, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        let tx = conn.transaction().map_err(|e| e.to_string())?;
        tx.execute_batch(sql).map_err(|e| e.to_string())?;
        tx.pragma_update(None, "user_version", step + 1)
            .map_err(|e| e.to_string())?;
        tx.commit().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn seed_assets(tx: &Transaction<'_>, assets: &seed::Assets) -> Result<usize, rusqlite::Error> {
    let mut stmt = tx.prepare(
        "INSERT INTO quota_assets (owner, position, asset_id, product_type, quota_type,
             valid_through, auto_renew, status, used_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let mut n = 0;
    for owner in seed::OWNERS {
        for (position, a) in assets.get(&owner).into_iter().flatten().enumerate() {
            let status = match a.status {
                chatmark_api::AssetStatus::Available => "available",
                chatmark_api::AssetStatus::Used => "used",
            };
            stmt.execute(params![
                seed::owner_name(owner),
                position,
                a.asset_id,
                a.product_type.as_str(),
                a.quota_type,
                a.valid_through.as_str(),
                a.auto_renew,
                status,
                a.used_id,
            ])?;
            n += 1;
        }
    }
    Ok(n)
}

impl Store for SqliteStore {
    fn set_webhook(&self, bot: &str, url: Option<&str>, max_bots: usize) -> Result<(), StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        match url {
            None => {
                tx.execute("DELETE FROM webhooks WHERE bot = ?1", [bot])
                    .map_err(|e| self.fail(e))?;
            }
            Some(url) => {
                let held: bool = tx
                    .query_row("SELECT 1 FROM webhooks WHERE bot = ?1", [bot], |_| Ok(()))
                    .optional()
                    .map_err(|e| self.fail(e))?
                    .is_some();
                let count: i64 = tx
                    .query_row("SELECT COUNT(*) FROM webhooks", [], |r| r.get(0))
                    .map_err(|e| self.fail(e))?;
                if !held && usize::try_from(count).unwrap_or(usize::MAX) >= max_bots {
                    return Err(StoreError::TooManyBots(max_bots));
                }
                tx.execute(
                    "INSERT INTO webhooks (bot, url) VALUES (?1, ?2)
                     ON CONFLICT (bot) DO UPDATE SET url = excluded.url",
                    [bot, url],
                )
                .map_err(|e| self.fail(e))?;
            }
        }
        tx.commit().map_err(|e| self.fail(e))
    }

    fn webhook(&self, bot: &str) -> Result<Option<String>, StoreError> {
        self.lock()
            .query_row("SELECT url FROM webhooks WHERE bot = ?1", [bot], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.fail(e))
    }

    fn count_probe(
        &self,
        bot: &str,
        day: u64,
        limit: u32,
        max_bots: usize,
    ) -> Result<u32, StoreError> {
        let day = i64::try_from(day).unwrap_or(i64::MAX);
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        tx.execute("DELETE FROM probe_counts WHERE day < ?1", [day])
            .map_err(|e| self.fail(e))?;
        let calls: Option<u32> = tx
            .query_row(
                "SELECT calls FROM probe_counts WHERE bot = ?1 AND day = ?2",
                params![bot, day],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.fail(e))?;
        let calls = match calls {
            Some(c) => c,
            None => {
                let bots: i64 = tx
                    .query_row(
                        "SELECT COUNT(*) FROM probe_counts WHERE day = ?1",
                        [day],
                        |r| r.get(0),
                    )
                    .map_err(|e| self.fail(e))?;
                if usize::try_from(bots).unwrap_or(usize::MAX) >= max_bots {
                    return Err(StoreError::TooManyBots(max_bots));
                }
                0
            }
        };
        if calls >= limit {
            return Err(StoreError::DailyLimit(limit));
        }
        tx.execute(
            "INSERT INTO probe_counts (bot, day, calls) VALUES (?1, ?2, 1)
             ON CONFLICT (bot, day) DO UPDATE SET calls = calls + 1",
            params![bot, day],
        )
        .map_err(|e| self.fail(e))?;
        tx.commit().map_err(|e| self.fail(e))?;
        Ok(calls + 1)
    }

    fn add_message(&self, m: &NewMessage) -> Result<u64, StoreError> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO messages (bot, chat_id, date, text, text_styles)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                m.bot,
                m.chat_id,
                i64::try_from(m.date.get()).unwrap_or(i64::MAX),
                m.text,
                m.text_styles
            ],
        )
        .map_err(|e| self.fail(e))?;
        u64::try_from(conn.last_insert_rowid())
            .map_err(|_| StoreError::Backend("negative message id".to_owned()))
    }

    fn message(&self, id: u64) -> Result<Option<NewMessage>, StoreError> {
        let Ok(id) = i64::try_from(id) else {
            return Ok(None);
        };
        self.lock()
            .query_row(
                "SELECT bot, chat_id, date, text, text_styles FROM messages WHERE id = ?1",
                [id],
                |r| {
                    let date: i64 = r.get(2)?;
                    Ok((r.get(0)?, r.get(1)?, date, r.get(3)?, r.get(4)?))
                },
            )
            .optional()
            .map_err(|e| self.fail(e))?
            .map(|(bot, chat_id, date, text, text_styles)| {
                Ok(NewMessage {
                    bot,
                    chat_id,
                    date: stored_date(date)?,
                    text,
                    text_styles,
                })
            })
            .transpose()
    }

    fn quota_assets(&self, request: &QuotaRequest) -> Result<Vec<QuotaAsset>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare_cached(
                "SELECT product_type, quota_type, asset_id, valid_through, auto_renew, status,
                        used_id
                 FROM quota_assets
                 WHERE owner = ?1
                   AND (?2 IS NULL OR product_type = ?2)
                   AND (?3 IS NULL OR quota_type = ?3)
                 ORDER BY position",
            )
            .map_err(|e| self.fail(e))?;
        let rows = stmt
            .query_map(
                params![
                    seed::owner_name(request.quota_owner),
                    request.product_type.as_ref().map(|p| p.as_str()),
                    request.quota_type,
                ],
                |r| {
                    Ok(serde_json::json!({
                        "product_type": r.get::<_, String>(0)?,
                        "quota_type": r.get::<_, String>(1)?,
                        "asset_id": r.get::<_, String>(2)?,
                        "valid_through": r.get::<_, String>(3)?,
                        "auto_renew": r.get::<_, bool>(4)?,
                        "status": r.get::<_, String>(5)?,
                        "used_id": r.get::<_, Option<String>>(6)?,
                    }))
                },
            )
            .map_err(|e| self.fail(e))?;
        let mut out = Vec::new();
        for row in rows {
            let value = row.map_err(|e| self.fail(e))?;
            let asset = serde_json::from_value(value)
                .map_err(|e| StoreError::Backend(format!("a stored quota asset: {e}")))?;
            out.push(asset);
        }
        Ok(out)
    }

    fn ping(&self) -> Result<(), StoreError> {
        self.lock()
            .query_row("SELECT 1", [], |_| Ok(()))
            .map_err(|e| self.fail(e))
    }

    fn access_token_known(&self, token: &str) -> Result<bool, StoreError> {
        self.lock()
            .query_row(
                "SELECT 1 FROM access_tokens WHERE token = ?1",
                [token],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
            .map_err(|e| self.fail(e))
    }
}
