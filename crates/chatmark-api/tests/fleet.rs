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
    let env = [
        ("CHATMARK_API_DB", url),
        ("CHATMARK_ALLOW_LOOPBACK", "1"),
        ("TESTWEBHOOK_DAILY_LIMIT", "5"),
    ];
    serve_example_with(&env).expect("the example server is built (cargo test builds it)")
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
    let Some(cluster) = Cluster::start("fleet") else {
        return;
    };
    if support::example_exe().is_none() {
        assert!(
            !support::postgres::required(),
            "examples/server is not built: run `cargo test -p chatmark-api`"
        );
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return;
    }
    cluster.create_db("fleet");
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
