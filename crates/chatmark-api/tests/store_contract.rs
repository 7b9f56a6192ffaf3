//! Issue 25: the behaviour every [`Store`] owes the handlers, written once against the trait
//! and run on each store — `MemoryStore` (the reference), the example server's SQLite store,
//! and its PostgreSQL store on a throwaway cluster. Persistent stores are also reopened on
//! the same database, as a restarted server would.

#[allow(dead_code)]
#[path = "../examples/server/postgres.rs"]
mod postgres;
#[allow(dead_code)]
#[path = "../examples/server/probe.rs"]
mod probe;
#[allow(dead_code)]
#[path = "../examples/server/seed.rs"]
mod seed;
#[allow(dead_code)]
#[path = "../examples/server/sqlite.rs"]
mod sqlite;
#[allow(dead_code)]
mod support;

use std::collections::HashSet;
use std::sync::Arc;

use chatmark_api::store::{MemoryStore, NewMessage, Store, StoreError};
use chatmark_api::{EpochMillis, QuotaRequest};

fn message(text: &str) -> NewMessage {
    NewMessage {
        bot: "bot".into(),
        chat_id: "1".into(),
        date: EpochMillis::now(),
        text: text.into(),
        text_styles: "[]".into(),
    }
}

fn quota(json: &str) -> QuotaRequest {
    serde_json::from_str(json).unwrap()
}

fn ids(assets: &[chatmark_api::QuotaAsset]) -> Vec<&str> {
    assets.iter().map(|a| a.asset_id.as_str()).collect()
}

/// Webhooks: set, replaced, read, removed; a new bot refused once `max_bots` hold one,
/// while a bot that holds one may still replace it, and a removal frees a place.
fn webhooks(s: &dyn Store) {
    assert_eq!(s.webhook("w-none").unwrap(), None);
    s.set_webhook("w-a", Some("https://h/a"), 2).unwrap();
    s.set_webhook("w-b", Some("https://h/b"), 2).unwrap();
    assert_eq!(
        s.set_webhook("w-c", Some("https://h/c"), 2),
        Err(StoreError::TooManyBots(2))
    );
    s.set_webhook("w-b", Some("https://h/b2"), 2).unwrap();
    assert_eq!(s.webhook("w-b").unwrap().as_deref(), Some("https://h/b2"));
    s.set_webhook("w-a", None, 2).unwrap();
    assert_eq!(s.webhook("w-a").unwrap(), None);
    s.set_webhook("w-c", Some("https://h/c"), 2).unwrap();
    assert_eq!(s.webhook("w-c").unwrap().as_deref(), Some("https://h/c"));
    s.set_webhook("w-b", None, 10).unwrap();
    s.set_webhook("w-c", None, 10).unwrap();
}

/// `testWebhook` counts: per bot and day up to the limit, the day's bots capped, an earlier
/// day forgotten once a later one is counted, and a limit of 0 refusing every call.
fn probe_counts(s: &dyn Store) {
    assert_eq!(s.count_probe("p-a", 100, 2, 2), Ok(1));
    assert_eq!(s.count_probe("p-a", 100, 2, 2), Ok(2));
    assert_eq!(
        s.count_probe("p-a", 100, 2, 2),
        Err(StoreError::DailyLimit(2))
    );
    assert_eq!(s.count_probe("p-b", 100, 2, 2), Ok(1));
    assert_eq!(
        s.count_probe("p-c", 100, 2, 2),
        Err(StoreError::TooManyBots(2))
    );
    // p-a, at its limit, is still refused for the limit, not for the cap
    assert_eq!(
        s.count_probe("p-a", 100, 2, 2),
        Err(StoreError::DailyLimit(2))
    );
    // a new day: counts start again and the previous day's bots no longer hold places
    assert_eq!(s.count_probe("p-c", 101, 2, 2), Ok(1));
    assert_eq!(s.count_probe("p-a", 101, 2, 2), Ok(1));
    assert_eq!(
        s.count_probe("p-b", 101, 2, 2),
        Err(StoreError::TooManyBots(2))
    );
    assert_eq!(
        s.count_probe("p-z", 102, 0, 10),
        Err(StoreError::DailyLimit(0))
    );
}

/// Message ids: each larger than every one before.
fn message_ids(s: &dyn Store) -> u64 {
    let mut last = 0;
    for i in 0..20 {
        let id = s.add_message(&message(&format!("m{i}"))).unwrap();
        assert!(id > last, "id {id} after {last}");
        last = id;
    }
    last
}

/// Messages read back exactly as stored, whatever valid text they hold: U+0000 and other
/// control characters (R1 keeps them; issue 51 finding 1: PostgreSQL refused U+0000),
/// characters outside the BMP, a string `chat_id` with escapes, the longest text.
fn messages_round_trip(s: &dyn Store) {
    let texts = [
        "a\u{0}b".to_owned(),
        "\u{0}".to_owned(),
        "tab\there\u{1}\u{1f}\u{7f}\u{80}\u{9f}".to_owned(),
        "emoji 😀 and \u{fffd} and \u{ffff} and \u{10ffff}".to_owned(),
        "\\ ' \" -- ; DROP TABLE messages; $1 %s".to_owned(),
        "x".repeat(2000),
        "😀".repeat(1000),
    ];
    for (i, text) in texts.iter().enumerate() {
        let m = NewMessage {
            bot: "round:trip".into(),
            chat_id: if i % 2 == 0 {
                "-1001234567890".into()
            } else {
                r#""@chan \u0000 é""#.into()
            },
            date: EpochMillis::now(),
            text: text.clone(),
            text_styles: r#"[{"start":0,"len":1,"st":["b"]}]"#.into(),
        };
        let id = s
            .add_message(&m)
            .unwrap_or_else(|e| panic!("{:?}: {e}", m.text.get(..20)));
        assert_eq!(
            s.message(id).unwrap().as_ref(),
            Some(&m),
            "{:?}",
            m.text.get(..20)
        );
    }
    assert_eq!(s.message(u64::MAX).unwrap(), None);
}

/// Quota assets: the seeded sample per owner, in stored order, filtered by the request.
fn quota_assets(s: &dyn Store) {
    let all = s.quota_assets(&quota(r#"{"quota_owner":"OA"}"#)).unwrap();
    assert_eq!(ids(&all), ["oa-1", "oa-2", "oa-3"]);
    let gmf100 = s
        .quota_assets(&quota(r#"{"quota_owner":"OA","product_type":"gmf100"}"#))
        .unwrap();
    assert_eq!(ids(&gmf100), ["oa-3"]);
    let sub = s
        .quota_assets(&quota(r#"{"quota_owner":"OA","quota_type":"sub_quota"}"#))
        .unwrap();
    assert_eq!(ids(&sub), ["oa-1", "oa-3"]);
    let app = s.quota_assets(&quota(r#"{"quota_owner":"APP"}"#)).unwrap();
    assert_eq!(ids(&app), ["app-1"]);
    assert_eq!(app[0].used_id.as_deref(), Some("4242"));
    assert!(!app[0].auto_renew);
    let none = s
        .quota_assets(&quota(r#"{"quota_owner":"APP","product_type":"gmf10"}"#))
        .unwrap();
    assert!(none.is_empty());
}

fn access_tokens(s: &dyn Store) {
    assert!(s.access_token_known(seed::DEMO_ACCESS_TOKEN).unwrap());
    assert!(!s.access_token_known("not-a-token").unwrap());
    assert!(!s.access_token_known("").unwrap());
}

/// Concurrent callers: 60 `testWebhook` counts of one bot with a limit of 5 let exactly 5
/// through (numbered 1 to 5), and 200 concurrent messages get 200 distinct ids.
fn concurrent_calls(s: &Arc<dyn Store>) {
    let counts: Vec<Result<u32, StoreError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..60)
            .map(|_| scope.spawn(|| s.count_probe("race", 500, 5, 100)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut granted: Vec<u32> = counts.iter().filter_map(|r| r.clone().ok()).collect();
    granted.sort_unstable();
    assert_eq!(granted, [1, 2, 3, 4, 5]);
    assert!(counts
        .iter()
        .all(|r| r.is_ok() || *r == Err(StoreError::DailyLimit(5))));

    let ids: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                scope.spawn(move || {
                    (0..25)
                        .map(|i| s.add_message(&message(&format!("{t}-{i}"))).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 200);
}

/// The whole contract on a fresh store holding the built-in sample and the demo token.
fn contract(s: &Arc<dyn Store>) {
    webhooks(s.as_ref());
    probe_counts(s.as_ref());
    message_ids(s.as_ref());
    messages_round_trip(s.as_ref());
    quota_assets(s.as_ref());
    access_tokens(s.as_ref());
    concurrent_calls(s);
}

/// State a restart must keep, written before and checked after reopening.
fn before_restart(s: &dyn Store) -> u64 {
    s.set_webhook("kept", Some("https://h/kept"), 10).unwrap();
    assert_eq!(s.count_probe("kept", 900, 3, 10), Ok(1));
    s.add_message(&message("before")).unwrap()
}

fn after_restart(s: &dyn Store, last_id: u64) {
    assert_eq!(
        s.webhook("kept").unwrap().as_deref(),
        Some("https://h/kept")
    );
    assert_eq!(s.count_probe("kept", 900, 3, 10), Ok(2));
    assert!(s.add_message(&message("after")).unwrap() > last_id);
    // reopening seeds nothing twice
    quota_assets(s);
}

#[test]
fn memory_store_keeps_the_contract() {
    let (assets, _) = seed::load(None).unwrap();
    let mut store = MemoryStore::default().with_access_token(seed::DEMO_ACCESS_TOKEN);
    for (owner, list) in assets {
        store = store.with_assets(owner, list);
    }
    contract(&(Arc::new(store) as Arc<dyn Store>));
}

#[test]
fn sqlite_store_keeps_the_contract() {
    let db = support::temp_path("contract.sqlite3");
    let db = db.to_string_lossy().into_owned();
    let (store, _) = sqlite::SqliteStore::open(&db, None, &[]).unwrap();
    let store: Arc<dyn Store> = Arc::new(store);
    contract(&store);
    let last = before_restart(store.as_ref());
    drop(store);
    let (store, notes) = sqlite::SqliteStore::open(&db, None, &[]).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    after_restart(&store, last);
}

/// A multi-threaded runtime, which the PostgreSQL store's blocking methods need to drive
/// its connections, and the TLS roots of the server (Mozilla and system roots, plus the PEM
/// file `extra_roots`).
fn postgres_runtime(
    extra_roots: Option<&std::path::Path>,
) -> (tokio::runtime::Runtime, Arc<rustls::ClientConfig>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    (runtime, probe::client_config(extra_roots).unwrap().0)
}

#[test]
fn postgres_store_keeps_the_contract() {
    let Some(cluster) = support::postgres::Cluster::start("contract") else {
        return;
    };
    cluster.create_db("contract");
    let url = cluster.url("contract");
    let (runtime, tls) = postgres_runtime(None);
    let open = || {
        runtime.block_on(postgres::PostgresStore::open(
            &url,
            None,
            &[],
            &tls,
            &Default::default(),
        ))
    };
    let (store, notes) = open().unwrap();
    assert!(
        notes.iter().any(|n| n.contains("seeded 4 quota assets")),
        "{notes:?}"
    );
    let store: Arc<dyn Store> = Arc::new(store);
    contract(&store);
    let last = before_restart(store.as_ref());
    drop(store);
    let (store, notes) = open().unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    after_restart(&store, last);

    // a row written by an instance still on schema version 1 (text in the TEXT column)
    // reads back as well
    let (client, connection) = runtime
        .block_on(tokio_postgres::connect(&url, tokio_postgres::NoTls))
        .unwrap();
    runtime.spawn(connection);
    let row = runtime
        .block_on(client.query_one(
            "INSERT INTO messages (bot, chat_id, date, text, text_styles)
             VALUES ('old', '1', 1767225600000, 'from v1 é', '[]') RETURNING id",
            &[],
        ))
        .unwrap();
    let id: i64 = row.get(0);
    let old = store.message(u64::try_from(id).unwrap()).unwrap().unwrap();
    assert_eq!((old.bot.as_str(), old.text.as_str()), ("old", "from v1 é"));

    // real tokens revoke the demo one, as on SQLite
    let tokens = ["real-token".to_owned()];
    let (store, notes) = runtime
        .block_on(postgres::PostgresStore::open(
            &url,
            None,
            &tokens,
            &tls,
            &Default::default(),
        ))
        .unwrap();
    assert!(notes.iter().any(|n| n.contains("revoked")), "{notes:?}");
    assert!(store.access_token_known("real-token").unwrap());
    assert!(!store.access_token_known(seed::DEMO_ACCESS_TOKEN).unwrap());

    // issue 51 finding 7: a URL scheme is case-insensitive, POSTGRES:// and PostgreSQL://
    // open the same database (they stopped the start with "invalid connection string")
    for scheme in ["POSTGRES", "PostgreSQL"] {
        let upper = url.replacen("postgres", scheme, 1);
        let (store, _) = runtime
            .block_on(postgres::PostgresStore::open(
                &upper,
                None,
                &[],
                &tls,
                &Default::default(),
            ))
            .unwrap_or_else(|e| panic!("{upper}: {e}"));
        assert!(store.add_message(&message("upper case")).unwrap() > last);
    }
}

/// Instances starting together migrate and seed once: eight stores opened at the same
/// moment on an empty database leave one schema and one copy of the sample.
#[test]
fn postgres_instances_starting_together_set_up_once() {
    let Some(cluster) = support::postgres::Cluster::start("setup") else {
        return;
    };
    cluster.create_db("setup");
    let url = cluster.url("setup");
    let (runtime, tls) = postgres_runtime(None);
    let starts: Vec<_> = (0..8)
        .map(|_| {
            let (url, tls) = (url.clone(), Arc::clone(&tls));
            runtime.spawn(async move {
                postgres::PostgresStore::open(&url, None, &[], &tls, &Default::default()).await
            })
        })
        .collect();
    let opened: Vec<_> = starts
        .into_iter()
        .map(|start| runtime.block_on(start).unwrap())
        .collect();
    let mut seeded = 0;
    for result in &opened {
        let (_, notes) = result.as_ref().expect("every instance starts");
        seeded += notes.iter().filter(|n| n.contains("seeded 4")).count();
    }
    assert_eq!(seeded, 1, "exactly one instance seeds");
    let (store, _) = opened.into_iter().next().unwrap().unwrap();
    quota_assets(&store);
}

/// `sslmode=require` in the URL connects over TLS and verifies the server's certificate:
/// against a private root given as `CHATMARK_EXTRA_ROOTS` it connects; with the default roots
/// only, the same server is refused for its certificate, never used in the clear.
#[test]
fn postgres_over_tls_verifies_the_server() {
    let mut root = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    root.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    root.distinguished_name
        .push(rcgen::DnType::CommonName, "chatmark test database root");
    root.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::DigitalSignature,
    ];
    let root =
        rcgen::CertifiedIssuer::self_signed(root, rcgen::KeyPair::generate().unwrap()).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &root)
        .unwrap();
    let Some(cluster) = support::postgres::Cluster::start_with_tls(
        "tls",
        Some((&leaf.pem(), &key.serialize_pem())),
    ) else {
        return;
    };
    cluster.create_db("tls");
    let url = format!("{}?sslmode=require", cluster.url("tls"));
    let roots = support::temp_path("db-roots.pem");
    std::fs::write(&roots, root.pem()).unwrap();
    let (runtime, trusting) = postgres_runtime(Some(&roots));
    let (store, _) = runtime
        .block_on(postgres::PostgresStore::open(
            &url,
            None,
            &[],
            &trusting,
            &Default::default(),
        ))
        .expect("connects over TLS to a server the extra root vouches for");
    assert!(store.add_message(&message("over tls")).unwrap() >= 1);

    let default_roots = probe::client_config(None).unwrap().0;
    let refused = runtime
        .block_on(postgres::PostgresStore::open(
            &url,
            None,
            &[],
            &default_roots,
            &Default::default(),
        ))
        .err()
        .expect("an unknown issuer is refused");
    assert!(
        refused.contains("PostgreSQL database tls") && refused.to_lowercase().contains("cert"),
        "{refused}"
    );
}
