//! The state a Bot API server keeps — webhooks per bot, `testWebhook` counts per bot and UTC
//! day, sent messages, quota assets and the access tokens that may query them — behind one
//! small trait, so that the storage can be replaced without touching the HTTP handlers.
//!
//! The example server stores it in SQLite (`examples/server/sqlite.rs`, one process) or in
//! PostgreSQL (`examples/server/postgres.rs`, shared by several instances behind a load
//! balancer). [`MemoryStore`] keeps it in memory (tests, and the reference for what each
//! method must do); `tests/store_contract.rs` runs one behaviour suite on all three.
//!
//! ```
//! use chatmark_api::store::{MemoryStore, Store};
//! let store = MemoryStore::default();
//! store.set_webhook("bot1", Some("https://example.com/hook"), 10).unwrap();
//! assert_eq!(store.webhook("bot1").unwrap().as_deref(), Some("https://example.com/hook"));
//! ```

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use crate::{EpochMillis, QuotaAsset, QuotaOwner, QuotaRequest};

/// Why a [`Store`] refused or failed an operation.
///
/// # Examples
///
/// ```
/// let e = chatmark_api::store::StoreError::DailyLimit(5);
/// assert_eq!(e.to_string(), "the daily limit of 5 calls is reached");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store holds state for its maximum number of bots; the payload is that maximum.
    #[error("the store holds state for at most {0} bots")]
    TooManyBots(usize),
    /// The bot has used up its calls of the day; the payload is the limit.
    #[error("the daily limit of {0} calls is reached")]
    DailyLimit(u32),
    /// The storage itself failed (a statement refused, corruption); the payload says why,
    /// for the operator's log.
    #[error("storage failure: {0}")]
    Backend(String),
    /// The storage could not be reached (a database refusing or losing connections); the
    /// payload says why, for the operator's log.
    #[error("the store cannot be reached: {0}")]
    Unavailable(String),
    /// The storage did not answer within its time limit (waiting for a connection, or
    /// running a statement held up by a lock); the payload is that limit.
    #[error("the store did not answer within {} ms", .0.as_millis())]
    Timeout(std::time::Duration),
}

/// A message as stored by `sendMessage`.
///
/// # Examples
///
/// ```
/// let m = chatmark_api::store::NewMessage {
///     bot: "123:abc".into(),
///     chat_id: "1".into(),
///     date: chatmark_api::EpochMillis::now(),
///     text: "hi".into(),
///     text_styles: "[]".into(),
/// };
/// assert_eq!(m.text, "hi");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMessage {
    /// The sending bot's token.
    pub bot: String,
    /// The target chat as JSON (`1` or `"@chan"`).
    pub chat_id: String,
    /// When it was accepted.
    pub date: EpochMillis,
    /// The formatted text.
    pub text: String,
    /// The canonical style runs as JSON.
    pub text_styles: String,
}

/// Storage of a Bot API server's state. Methods block; they are meant to be quick (a local
/// database, or a connection pool to a shared one), and an async server calls them on a
/// blocking thread (the example server uses `tokio::task::spawn_blocking`).
///
/// # Examples
///
/// ```
/// use chatmark_api::store::{MemoryStore, Store, StoreError};
/// let store = MemoryStore::default();
/// assert_eq!(store.count_probe("b", 20_000, 1, 10), Ok(1));
/// assert_eq!(store.count_probe("b", 20_000, 1, 10), Err(StoreError::DailyLimit(1)));
/// assert_eq!(store.count_probe("b", 20_001, 1, 10), Ok(1));
/// ```
pub trait Store: Send + Sync {
    /// Sets (`Some`) or removes (`None`) `bot`'s webhook URL. A bot without a webhook is
    /// refused with [`StoreError::TooManyBots`] when `max_bots` bots hold one.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store, StoreError};
    /// let s = MemoryStore::default();
    /// s.set_webhook("a", Some("http://h/"), 1).unwrap();
    /// assert_eq!(s.set_webhook("b", Some("http://h/"), 1), Err(StoreError::TooManyBots(1)));
    /// ```
    fn set_webhook(&self, bot: &str, url: Option<&str>, max_bots: usize) -> Result<(), StoreError>;

    /// `bot`'s webhook URL, if one is set.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// assert_eq!(MemoryStore::default().webhook("a").unwrap(), None);
    /// ```
    fn webhook(&self, bot: &str) -> Result<Option<String>, StoreError>;

    /// Counts one `testWebhook` call by `bot` on UTC day `day` (days since 1970-01-01) and
    /// answers the calls of that day so far; counters of earlier days are dropped. Refused
    /// with [`StoreError::DailyLimit`] after `limit` calls, and with
    /// [`StoreError::TooManyBots`] when `max_bots` other bots were counted that day.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// let s = MemoryStore::default();
    /// assert_eq!(s.count_probe("a", 1, 5, 10), Ok(1));
    /// assert_eq!(s.count_probe("a", 1, 5, 10), Ok(2));
    /// ```
    fn count_probe(
        &self,
        bot: &str,
        day: u64,
        limit: u32,
        max_bots: usize,
    ) -> Result<u32, StoreError>;

    /// Stores a sent message and answers its id, larger than every id given before (also
    /// across restarts of a persistent store).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, NewMessage, Store};
    /// let s = MemoryStore::default();
    /// let m = NewMessage { bot: "b".into(), chat_id: "1".into(), date: chatmark_api::EpochMillis::now(), text: "x".into(), text_styles: "[]".into() };
    /// let first = s.add_message(&m).unwrap();
    /// assert!(s.add_message(&m).unwrap() > first);
    /// ```
    fn add_message(&self, message: &NewMessage) -> Result<u64, StoreError>;

    /// The message stored under `id`, exactly as it was given to [`Store::add_message`]
    /// (every valid text included: control characters such as U+0000 too), or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, NewMessage, Store};
    /// let s = MemoryStore::default();
    /// let m = NewMessage { bot: "b".into(), chat_id: "1".into(), date: chatmark_api::EpochMillis::now(), text: "a\0b".into(), text_styles: "[]".into() };
    /// let id = s.add_message(&m).unwrap();
    /// assert_eq!(s.message(id).unwrap(), Some(m));
    /// assert_eq!(s.message(id + 1).unwrap(), None);
    /// ```
    fn message(&self, id: u64) -> Result<Option<NewMessage>, StoreError>;

    /// The quota assets of `request.quota_owner` passing the request's filters, in the
    /// order they were stored.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// let req = serde_json::from_str(r#"{"quota_owner":"OA"}"#).unwrap();
    /// assert!(MemoryStore::default().quota_assets(&req).unwrap().is_empty());
    /// ```
    fn quota_assets(&self, request: &QuotaRequest) -> Result<Vec<QuotaAsset>, StoreError>;

    /// Whether the store answers: a trivial statement on a connection (a load balancer's
    /// readiness probe), within the store's time limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// assert_eq!(MemoryStore::default().ping(), Ok(()));
    /// ```
    fn ping(&self) -> Result<(), StoreError>;

    /// Releases what the store holds open (a pool's connections) when the server stops;
    /// calls made after it fail. Nothing to do by default.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// MemoryStore::default().close();
    /// ```
    fn close(&self) {}

    /// Whether `token` is an access token allowed to query quota assets.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// let s = MemoryStore::default().with_access_token("t1");
    /// assert!(s.access_token_known("t1").unwrap() && !s.access_token_known("t2").unwrap());
    /// ```
    fn access_token_known(&self, token: &str) -> Result<bool, StoreError>;
}

/// A [`Store`] in memory: nothing survives the process.
///
/// # Examples
///
/// ```
/// use chatmark_api::store::{MemoryStore, Store};
/// let s = MemoryStore::default();
/// s.set_webhook("b", Some("http://h/"), 10).unwrap();
/// s.set_webhook("b", None, 10).unwrap();
/// assert_eq!(s.webhook("b").unwrap(), None);
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Memory>,
}

#[derive(Debug, Default)]
struct Memory {
    webhooks: HashMap<String, String>,
    probe_day: u64,
    probes: HashMap<String, u32>,
    last_message_id: u64,
    messages: HashMap<u64, NewMessage>,
    assets: HashMap<QuotaOwner, Vec<QuotaAsset>>,
    tokens: HashSet<String>,
}

impl MemoryStore {
    /// The same store holding `assets` for `owner` (after any it holds).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::{store::{MemoryStore, Store}, QuotaOwner};
    /// let s = MemoryStore::default().with_assets(QuotaOwner::App, vec![]);
    /// let req = serde_json::from_str(r#"{"quota_owner":"APP"}"#).unwrap();
    /// assert!(s.quota_assets(&req).unwrap().is_empty());
    /// ```
    pub fn with_assets(self, owner: QuotaOwner, assets: Vec<QuotaAsset>) -> Self {
        self.lock().assets.entry(owner).or_default().extend(assets);
        self
    }

    /// The same store allowing `token` to query quota assets.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark_api::store::{MemoryStore, Store};
    /// assert!(MemoryStore::default().with_access_token("t").access_token_known("t").unwrap());
    /// ```
    pub fn with_access_token(self, token: impl Into<String>) -> Self {
        self.lock().tokens.insert(token.into());
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Memory> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store for MemoryStore {
    fn set_webhook(&self, bot: &str, url: Option<&str>, max_bots: usize) -> Result<(), StoreError> {
        let mut m = self.lock();
        match url {
            None => {
                m.webhooks.remove(bot);
            }
            Some(url) => {
                if !m.webhooks.contains_key(bot) && m.webhooks.len() >= max_bots {
                    return Err(StoreError::TooManyBots(max_bots));
                }
                m.webhooks.insert(bot.to_owned(), url.to_owned());
            }
        }
        Ok(())
    }

    fn webhook(&self, bot: &str) -> Result<Option<String>, StoreError> {
        Ok(self.lock().webhooks.get(bot).cloned())
    }

    fn count_probe(
        &self,
        bot: &str,
        day: u64,
        limit: u32,
        max_bots: usize,
    ) -> Result<u32, StoreError> {
        let mut m = self.lock();
        if m.probe_day != day {
            m.probe_day = day;
            m.probes = HashMap::new();
        }
        let held = m.probes.len();
        let calls = match m.probes.get_mut(bot) {
            Some(c) => c,
            None if held >= max_bots => return Err(StoreError::TooManyBots(max_bots)),
            None => m.probes.entry(bot.to_owned()).or_insert(0),
        };
        if *calls >= limit {
            return Err(StoreError::DailyLimit(limit));
        }
        *calls += 1;
        Ok(*calls)
    }

    fn add_message(&self, message: &NewMessage) -> Result<u64, StoreError> {
        let mut m = self.lock();
        m.last_message_id += 1;
        let id = m.last_message_id;
        m.messages.insert(id, message.clone());
        Ok(id)
    }

    fn message(&self, id: u64) -> Result<Option<NewMessage>, StoreError> {
        Ok(self.lock().messages.get(&id).cloned())
    }

    fn quota_assets(&self, request: &QuotaRequest) -> Result<Vec<QuotaAsset>, StoreError> {
        let m = self.lock();
        let assets = m
            .assets
            .get(&request.quota_owner)
            .map_or(&[][..], Vec::as_slice);
        Ok(request.filter(assets))
    }

    fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn access_token_known(&self, token: &str) -> Result<bool, StoreError> {
        Ok(self.lock().tokens.contains(token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The behaviour every store owes is tests/store_contract.rs, run on this store too;
    // what is checked here is this store's memory.
    #[test]
    fn counters_of_past_days_are_dropped() {
        let s = MemoryStore::default();
        for bot in ["a", "b", "c"] {
            assert_eq!(s.count_probe(bot, 100, 2, 3), Ok(1));
        }
        assert_eq!(s.count_probe("z", 101, 2, 3), Ok(1));
        assert_eq!(s.lock().probes.len(), 1);
    }
}
