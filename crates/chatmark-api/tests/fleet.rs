//! Issue 25: two example-server processes on one PostgreSQL database behave as one server.
//! Message ids are unique and keep increasing across a restart, a webhook set through one
//! instance is probed through the other, and the daily `testWebhook` limit is exact however
//! the calls are spread over the instances.

#[allow(dead_code)]
mod support;

use std::collections::HashSet;
use std::net::SocketAddr;

use serde_json::Value;
use support::postgres::Cluster;
use support::{message_id, post, serve_example_with, webhook, KillOnDrop};

/// An instance of the example server on `url`, allowed to probe loopback webhooks, with a
/// daily `testWebhook` limit of 5.
fn instance(url: &str) -> (KillOnDrop, SocketAddr) {
    instance_with(url, &[])
}

/// [`instance`] with more settings.
fn instance_with(url: &str, more: &[(&str, &str)]) -> (KillOnDrop, SocketAddr) {
    let mut env = vec![
        ("CHATMARK_API_DB", url),
        ("CHATMARK_ALLOW_LOOPBACK", "1"),
        ("TESTWEBHOOK_DAILY_LIMIT", "5"),
    ];
    env.extend_from_slice(more);
    serve_example_with(&env).expect("the example server is built (cargo test builds it)")
}

/// A cluster with an empty database `db`, or `None` when the test must be skipped (no
/// PostgreSQL, or the example binary not built, which only a partial build skips).
fn fleet_cluster(db: &str, extra: &str) -> Option<Cluster> {
    let cluster = Cluster::start_with(db, None, extra)?;
    if support::example_exe().is_none() {
        assert!(
            !support::postgres::required(),
            "examples/server is not built: run `cargo test -p chatmark-api`"
        );
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return None;
    }
    cluster.create_db(db);
    Some(cluster)
}

/// A connection to `url` as the test's own client (the superuser: it may connect when the
/// instances hold every slot open to others), driven on the test's runtime.
async fn psql(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
}

/// Waits until at least `n` statements wait for a lock the test holds.
async fn wait_for_lock_waiters(admin: &tokio_postgres::Client, n: i64) {
    let started = std::time::Instant::now();
    loop {
        let row = admin
            .query_one("SELECT count(*) FROM pg_locks WHERE NOT granted", &[])
            .await
            .unwrap();
        if row.get::<_, i64>(0) >= n {
            return;
        }
        assert!(
            started.elapsed() < support::DEADLINE,
            "fewer than {n} calls wait for the lock"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Issue 51 finding 2: with the messages table locked (`LOCK TABLE … ACCESS EXCLUSIVE`, as
/// a migration or a stuck transaction holds it), 40 waiting sendMessage calls answer 503 in
/// the envelope within the store timeout (3 s here) instead of hanging as long as the lock,
/// while the quota and setWebhook routes of the same instance keep answering; once the lock
/// is gone, messages are stored again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_table_fails_its_calls_in_time_and_no_other_route() {
    let Some(cluster) = fleet_cluster("locked", "") else {
        return;
    };
    let url = cluster.url("locked");
    let (_server, addr) = instance_with(&url, &[("CHATMARK_STORE_TIMEOUT_MS", "3000")]);
    assert_eq!(send(addr, "1:a", "before").await.0, 200);

    let admin = psql(&url).await;
    let locker = psql(&url).await;
    locker
        .batch_execute("BEGIN; LOCK TABLE messages IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let sends: Vec<_> = (0..40)
        .map(|i| tokio::spawn(async move { send(addr, "1:a", &format!("held {i}")).await }))
        .collect();
    wait_for_lock_waiters(&admin, 8).await;
    // the lock holds for the whole check: a route that waited for it would not answer
    let (status, v) = post(
        addr,
        "/v3.0/oa/quota/group",
        &[("access_token", "demo-oa-token")],
        r#"{"quota_owner":"OA"}"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let set = serde_json::json!({ "url": "https://example.com/hook" }).to_string();
    let (status, v) = post(addr, "/bot1:a/setWebhook", &[], &set).await;
    assert_eq!(status, 200, "{v}");
    for s in sends {
        let (status, v) = s.await.unwrap();
        assert_eq!((status, &v["errorCode"]), (503, &Value::from(503)), "{v}");
        let description = v["description"].as_str().unwrap();
        assert!(description.contains("within 3000 ms"), "{description}");
    }
    locker.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(send(addr, "1:a", "after").await.0, 200);
}

async fn send(addr: SocketAddr, bot: &str, text: &str) -> (u16, Value) {
    let body = serde_json::json!({ "chat_id": 1, "text": text, "parse_mode": "markdown" });
    post(
        addr,
        &format!("/bot{bot}/sendMessage"),
        &[],
        &body.to_string(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres_database_act_as_one() {
    let Some(cluster) = fleet_cluster("fleet", "") else {
        return;
    };
    let url = cluster.url("fleet");
    // started together: they migrate and seed one database at the same moment
    let (a_url, b_url) = (url.clone(), url.clone());
    let a = std::thread::spawn(move || instance(&a_url));
    let b = std::thread::spawn(move || instance(&b_url));
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    let addrs = [a.1, b.1];

    // 400 concurrent sendMessage calls spread over both: all succeed, ids all distinct
    let sends: Vec<_> = (0..400)
        .map(|i| {
            let addr = addrs[i % 2];
            tokio::spawn(async move { send(addr, "1:a", &format!("*msg* {i}")).await })
        })
        .collect();
    let mut ids = HashSet::new();
    for s in sends {
        let (status, v) = s.await.unwrap();
        assert_eq!(status, 200, "{v}");
        assert!(ids.insert(message_id(&v)), "a repeated id: {v}");
    }
    assert_eq!(ids.len(), 400);
    // issue 51 finding 1: U+0000 is a valid text (R1), stored as any other
    let (status, v) = post(
        addrs[1],
        "/bot1:a/sendMessage",
        &[],
        r#"{"chat_id":1,"text":"a\u0000b"}"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    ids.insert(message_id(&v));
    let highest = *ids.iter().max().unwrap();

    // a webhook set through one instance is seen and probed through the other
    let hook = webhook("200 OK", "").await;
    let set = serde_json::json!({ "url": hook }).to_string();
    let (status, v) = post(addrs[0], "/bot2:w/setWebhook", &[], &set).await;
    assert_eq!((status, &v["result"]), (200, &Value::Bool(true)), "{v}");
    let (status, v) = post(addrs[1], "/bot2:w/testWebhook", &[], "").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"]["ok"], true, "{v}");
    assert_eq!(v["result"]["url"], hook.as_str(), "{v}");

    // 60 concurrent testWebhook calls over both with a limit of 5: exactly 5 succeed
    let (status, _) = post(addrs[1], "/bot3:l/setWebhook", &[], &set).await;
    assert_eq!(status, 200);
    let probes: Vec<_> = (0..60)
        .map(|i| {
            let addr = addrs[i % 2];
            tokio::spawn(async move { post(addr, "/bot3:l/testWebhook", &[], "").await })
        })
        .collect();
    let mut statuses = Vec::new();
    for p in probes {
        let (status, v) = p.await.unwrap();
        assert!(status == 200 || status == 426, "{status} {v}");
        statuses.push(status);
    }
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 5);
    assert_eq!(statuses.iter().filter(|&&s| s == 426).count(), 55);

    // quota assets and access tokens are shared too (seeded once, read through either)
    for addr in addrs {
        let (status, v) = post(
            addr,
            "/v3.0/oa/quota/group",
            &[("access_token", "demo-oa-token")],
            r#"{"quota_owner":"OA"}"#,
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["data"].as_array().map(Vec::len), Some(3), "{v}");
    }

    // a restarted instance keeps ids increasing, and so does the one that kept running
    drop(a);
    let restarted = instance(&url);
    let (_, v) = send(restarted.1, "1:a", "after the restart").await;
    let after = message_id(&v);
    assert!(after > highest, "{after} after {highest}");
    let (_, v) = send(addrs[1], "1:a", "on the other").await;
    assert!(message_id(&v) > after, "{v}");
    drop(b);
}

/// Issue 51 finding 3: three instances on a database with `max_connections=8` (five slots
/// for a role that is not a superuser), each pooling up to 16 connections. A burst on two
/// of them waits for connections instead of failing (refused connects are retried with
/// backoff), the connections they opened are closed once idle, and a third instance
/// started afterwards gets slots: it starts, and serves 30 of 30 sequential requests (it
/// used to answer 500 to every one, "remaining connection slots are reserved").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_share_eight_connections() {
    let Some(cluster) = fleet_cluster("slots", "-c max_connections=8") else {
        return;
    };
    cluster.sql("CREATE ROLE chatmark LOGIN");
    cluster.sql("CREATE DATABASE scarce OWNER chatmark");
    let url = cluster.url_as("chatmark", "scarce");
    let settings = [
        ("CHATMARK_DB_IDLE_TIMEOUT_MS", "500"),
        ("CHATMARK_STORE_TIMEOUT_MS", "20000"),
    ];
    let a = instance_with(&url, &settings);
    let b = instance_with(&url, &settings);
    let burst: Vec<_> = (0..200)
        .map(|i| {
            let addr = if i % 2 == 0 { a.1 } else { b.1 };
            tokio::spawn(async move { send(addr, "1:a", &format!("burst {i}")).await })
        })
        .collect();
    let mut ids = HashSet::new();
    for s in burst {
        let (status, v) = s.await.unwrap();
        assert_eq!(status, 200, "{v}");
        assert!(ids.insert(message_id(&v)));
    }
    let c = instance_with(&url, &settings);
    for i in 0..30 {
        let (status, v) = send(c.1, "1:a", &format!("after {i}")).await;
        assert_eq!(status, 200, "request {i}: {v}");
    }
    // every instance still serves
    for addr in [a.1, b.1, c.1] {
        assert_eq!(send(addr, "1:a", "last").await.0, 200);
    }
}

/// A keep-alive client sending sendMessage requests one after another on one connection
/// until the server closes it: the ids of the messages answered 200, every status seen, and
/// whether the last answer announced the close (`connection: close`: the server answered
/// the request in flight, then closed) rather than the connection just ending.
async fn keep_sending(addr: SocketAddr, client: usize) -> (Vec<u64>, Vec<u16>, bool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut ids, mut statuses) = (Vec::new(), Vec::new());
    let mut buf = Vec::new();
    let mut announced = false;
    for i in 0.. {
        let body =
            serde_json::json!({ "chat_id": client, "text": format!("load {i}") }).to_string();
        let request = format!(
            "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        if s.write_all(request.as_bytes()).await.is_err() {
            break;
        }
        // one answer: its head, then Content-Length bytes
        let answer = loop {
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if buf.len() >= end + 4 + len {
                    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
                    let v: Value = serde_json::from_slice(&buf[end + 4..end + 4 + len]).unwrap();
                    buf.drain(..end + 4 + len);
                    break Some((status, v, head.contains("connection: close")));
                }
            }
            let mut chunk = [0u8; 4096];
            match tokio::time::timeout(support::DEADLINE * 2, s.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
                Ok(_) => break None, // closed between answers: that request was not taken
                Err(_) => panic!("client {client}: no answer in time"),
            }
        };
        let Some((status, v, closing)) = answer else {
            break;
        };
        statuses.push(status);
        if status == 200 {
            ids.push(message_id(&v));
        }
        if closing {
            announced = true;
            break;
        }
    }
    (ids, statuses, announced)
}

/// Issue 51 (graceful shutdown): SIGTERM under load. Eight keep-alive clients send
/// messages continuously; with the messages table locked, each has a request in flight
/// when the instance gets SIGTERM. It stops accepting at once, finishes those requests once
/// the lock is gone (200 each), closes the connections, and exits 0; every message
/// acknowledged with 200 is in the database, and no request was answered with an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_finishes_what_is_in_flight() {
    let Some(cluster) = fleet_cluster("sigterm", "") else {
        return;
    };
    let url = cluster.url("sigterm");
    let (mut server, addr) = instance_with(
        &url,
        &[
            ("CHATMARK_STORE_TIMEOUT_MS", "60000"),
            ("CHATMARK_SHUTDOWN_TIMEOUT_MS", "60000"),
        ],
    );
    assert_eq!(send(addr, "1:a", "warm").await.0, 200);
    let clients: Vec<_> = (0..8)
        .map(|c| tokio::spawn(keep_sending(addr, c)))
        .collect();
    // let the load run, then hold every client's next request in the database
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let admin = psql(&url).await;
    let locker = psql(&url).await;
    locker
        .batch_execute("BEGIN; LOCK TABLE messages IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    wait_for_lock_waiters(&admin, 8).await;

    // the shell's own kill: no procps needed
    let pid = server.0.id().to_string();
    let killed = std::process::Command::new("sh")
        .args(["-c", "kill -TERM \"$0\"", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    // it stops accepting: a new connection is refused (polled: the signal is asynchronous)
    let started = std::time::Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        assert!(
            started.elapsed() < support::DEADLINE,
            "still accepting after SIGTERM"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        server.0.try_wait().unwrap().is_none(),
        "exited with requests in flight"
    );
    locker.batch_execute("ROLLBACK").await.unwrap();

    let mut acknowledged = Vec::new();
    for c in clients {
        let (ids, statuses, announced) = c.await.unwrap();
        assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
        assert!(
            announced,
            "the request in flight at SIGTERM was not answered: {statuses:?}"
        );
        acknowledged.extend(ids);
    }
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < support::DEADLINE,
            "no exit after SIGTERM"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(status.code(), Some(0), "{status}");

    let ids: Vec<i64> = acknowledged.iter().map(|&id| id as i64).collect();
    let stored: i64 = admin
        .query_one("SELECT count(*) FROM messages WHERE id = ANY($1)", &[&ids])
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, ids.len() as i64, "acknowledged messages missing");
}
