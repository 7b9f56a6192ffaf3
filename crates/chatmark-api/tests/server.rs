//! Integration tests of the example server: each test serves the example's router on an
//! ephemeral 127.0.0.1 port and sends real HTTP/1.1 requests; webhooks are tiny local TCP
//! servers. Everything stops with the test's runtime.

#[allow(dead_code)]
#[path = "../examples/server/app.rs"]
mod app;
#[allow(dead_code)]
#[path = "../examples/server/conn.rs"]
mod conn;
#[allow(dead_code)]
#[path = "../examples/server/ops.rs"]
mod ops;
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

use std::net::SocketAddr;
use std::time::Duration;

use chatmark_api::{Envelope, QuotaResponse, SendMessageResult, TestWebhookResult};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use support::{example_exe, message_id, post, serve_example_with, temp_path, webhook, DEADLINE};

fn config(daily_limit: u32) -> app::Config {
    app::Config {
        probe_timeout: Duration::from_millis(400),
        daily_limit,
        allow_loopback: true,
        db: ":memory:".to_owned(),
        ..app::Config::default()
    }
}

async fn start(config: app::Config) -> SocketAddr {
    start_server(config).await.0
}

/// Serves a router over the database of `config`; aborting the handle stops the server.
async fn start_server(config: app::Config) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = app::build(&config).await.unwrap();
    let task = tokio::spawn(async move {
        let _ = conn::serve(listener, app.router, config, std::future::pending()).await;
    });
    (addr, task)
}

/// Sends `request` as written and reads the answer until the server closes: the status, the
/// head and the JSON body (`Null` when the body is not JSON).
async fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, Value) {
    let exchange = async {
        let mut s = TcpStream::connect(addr).await.unwrap();
        // The server may answer and close before reading all of an over-size request.
        let _ = s.write_all(request).await;
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        out
    };
    let out = tokio::time::timeout(DEADLINE, exchange)
        .await
        .expect("server answered in time");
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = serde_json::from_str(body).unwrap_or(Value::Null);
    (status, head.to_ascii_lowercase(), body)
}

/// A webhook answering every request with exactly the bytes of `answer`, then closing.
async fn raw_webhook(answer: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut chunk = [0u8; 512];
                let _ = s.read(&mut chunk).await;
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/hook")
}

/// A webhook that accepts connections and never answers.
async fn silent_webhook() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = listener.accept().await {
            held.push(s);
        }
    });
    format!("http://{addr}/hook")
}

async fn set_webhook(addr: SocketAddr, token: &str, url: &str) {
    let (status, v) = post(
        addr,
        &format!("/bot{token}/setWebhook"),
        &[],
        &json!({ "url": url }).to_string(),
    )
    .await;
    assert_eq!((status, &v), (200, &json!({"ok": true, "result": true})));
}

async fn test_webhook(addr: SocketAddr, token: &str) -> (u16, Value) {
    post(addr, &format!("/bot{token}/testWebhook"), &[], "").await
}

async fn probe_result(addr: SocketAddr, token: &str, url: &str) -> TestWebhookResult {
    set_webhook(addr, token, url).await;
    let (status, v) = test_webhook(addr, token).await;
    assert_eq!(status, 200, "{v}");
    let env: Envelope<TestWebhookResult> = serde_json::from_value(v).unwrap();
    env.into_result().unwrap()
}

#[tokio::test]
async fn send_message_markdown() {
    let addr = start(config(5)).await;
    let body =
        json!({"chat_id": 1, "text": "**Hello** {red}world{/red}", "parse_mode": "markdown"});
    let (status, v) = post(addr, "/bot123:abc/sendMessage", &[], &body.to_string()).await;
    assert_eq!(status, 200, "{v}");
    let env: Envelope<SendMessageResult> = serde_json::from_value(v).unwrap();
    let first = env.into_result().unwrap();
    assert!(first.date.get().to_string().len() == 13);
    let (_, v) = post(addr, "/bot123:abc/sendMessage", &[], &body.to_string()).await;
    assert_eq!(
        v["result"]["message_id"],
        (first.message_id + 1).to_string()
    );
}

/// Issue 51 finding 1: U+0000 in a text is kept and stored exactly (R1); in a bot token (a
/// percent-escaped path) it is refused as no token, before any store sees it.
#[tokio::test]
async fn control_characters_in_texts_are_kept_and_in_tokens_refused() {
    let db = temp_path("nul.sqlite3");
    let addr = start(app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(5)
    })
    .await;
    let (status, v) = post(
        addr,
        "/bot1:a/sendMessage",
        &[],
        r#"{"chat_id":1,"text":"a\u0000b"}"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let text: String = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT text FROM messages WHERE id = ?1",
            [message_id(&v) as i64],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(text, "a\0b");
    for path in [
        "/bot1%00a/sendMessage",
        "/bot%0a/setWebhook",
        "/bot1:a%7f/testWebhook",
    ] {
        let (status, v) = post(addr, path, &[], r#"{"chat_id":1,"text":"x"}"#).await;
        assert_eq!(
            (status, v["errorCode"].clone()),
            (401, json!(401)),
            "{path}: {v}"
        );
    }
}

/// Issue 51 finding 6: one chat has one id. An integer `chat_id` is stored in one canonical
/// form however it is spelt (`100`, `1e2`, `1.0`, `-0`), exactly (no rounding through a
/// float), and a string one with its escapes resolved; a number that is not an integer of
/// 64 bits is refused in the envelope rather than stored as written or saturated.
#[tokio::test]
async fn chat_ids_are_stored_in_one_canonical_form() {
    let db = temp_path("chat-ids.sqlite3");
    let addr = start(app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(5)
    })
    .await;
    let stored = |id: u64| -> String {
        rusqlite::Connection::open(&db)
            .unwrap()
            .query_row(
                "SELECT chat_id FROM messages WHERE id = ?1",
                [id as i64],
                |r| r.get(0),
            )
            .unwrap()
    };
    let cases = [
        ("100", "100"),
        ("1e2", "100"),
        ("1E+2", "100"),
        ("10e1", "100"),
        ("1.0e2", "100"),
        ("1000e-1", "100"),
        ("100.000", "100"),
        ("1.0", "1"),
        ("-0", "0"),
        ("-0.0e5", "0"),
        ("0", "0"),
        ("-1001234567890", "-1001234567890"),
        ("12345678901234567.0", "12345678901234567"),
        ("9007199254740993.0", "9007199254740993"),
        ("9223372036854775807", "9223372036854775807"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("-92233720368547758.08e2", "-9223372036854775808"),
        (r#""@chan""#, r#""@chan""#),
        (r#""\u0040chan""#, r#""@chan""#),
        (r#""100""#, r#""100""#),
    ];
    for (sent, want) in cases {
        let body = format!(r#"{{"chat_id":{sent},"text":"hi"}}"#);
        let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
        assert_eq!(status, 200, "{sent}: {v}");
        assert_eq!(stored(message_id(&v)), want, "{sent}");
    }
    for sent in [
        "9223372036854775808",
        "-9223372036854775809",
        "1e19",
        "1e400",
        "-1e400",
        "1.0000000000000000001",
        "100.5e0",
    ] {
        let body = format!(r#"{{"chat_id":{sent},"text":"hi"}}"#);
        let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
        assert_eq!(
            (status, v["errorCode"].clone()),
            (400, json!(400)),
            "{sent}: {v}"
        );
        assert!(
            v["description"].as_str().unwrap().contains("chat_id"),
            "{sent}: {v}"
        );
    }
}

#[tokio::test]
async fn send_message_refusals() {
    let addr = start(config(5)).await;
    let long = json!({"chat_id": 1, "text": "x".repeat(2001)});
    let want =
        chatmark::resolve_json(&long.to_string(), &chatmark::Limits::default(), true).unwrap_err();
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &long.to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(
        v,
        json!({"ok": false, "errorCode": 400, "description": want.message})
    );

    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], r#"{"text":"hi"}"#).await;
    assert_eq!((status, v["errorCode"].clone()), (400, json!(400)));
    assert!(
        v["description"].as_str().unwrap().contains("chat_id"),
        "{v}"
    );

    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], "{not json").await;
    assert_eq!(status, 400);
    assert!(
        v["description"].as_str().unwrap().contains("not JSON"),
        "{v}"
    );

    // N1: numbers are read by value and saturate; an ignored field never refuses a body
    let n1 =
        r#"{"chat_id":1,"text":"ab","x":1e400,"text_styles":[{"start":1e400,"len":1,"st":["b"]}]}"#;
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], n1).await;
    assert_eq!((status, v["ok"].clone()), (200, json!(true)), "{v}");

    let (status, v) = post(addr, "/1:a/sendMessage", &[], "{}").await;
    assert_eq!((status, v["errorCode"].clone()), (404, json!(404)));
}

#[tokio::test]
async fn test_webhook_classifies_answers() {
    let addr = start(config(50)).await;
    let cases = [
        ("200 OK", "", "webhook.ok", Some(200)),
        ("403 Forbidden", "", "webhook.http.403", Some(403)),
        ("404 Not Found", "", "webhook.http.404", Some(404)),
        (
            "500 Internal Server Error",
            "",
            "webhook.http.5xx",
            Some(500),
        ),
        (
            "302 Found",
            "Location: http://127.0.0.1:9/elsewhere\r\n",
            "webhook.http.other",
            Some(302),
        ),
    ];
    for (i, (line, extra, outcome, status)) in cases.into_iter().enumerate() {
        let url = webhook(line, extra).await;
        let r = probe_result(addr, &format!("{i}:t"), &url).await;
        assert_eq!(
            (r.outcome.as_str(), r.status_code),
            (outcome, status),
            "{line}"
        );
        assert_eq!(r.ok, outcome == "webhook.ok");
        assert_eq!(r.url, url);
        assert!(!r.hint.is_empty());
    }
}

/// Issue 11 item 11: a status line ending in a bare LF is read as HTTP parsers commonly do.
#[tokio::test]
async fn test_webhook_reads_bare_lf_status_lines() {
    let addr = start(config(50)).await;
    let cases = [
        ("HTTP/1.1 200 OK\n\n", "webhook.ok", Some(200)),
        (
            "HTTP/1.1 404 Not Found\nContent-Length: 0\n\n",
            "webhook.http.404",
            Some(404),
        ),
        ("HTTP/1.0 204\n\n", "webhook.ok", Some(204)),
        ("HTTP/1.1 200 OK\r\n\r\n", "webhook.ok", Some(200)),
        ("\n\n", "webhook.err.other", None),
        ("SSH-2.0-OpenSSH_9.6\r\n", "webhook.err.other", None),
    ];
    for (i, (answer, outcome, status)) in cases.into_iter().enumerate() {
        let url = raw_webhook(answer).await;
        let r = probe_result(addr, &format!("lf:{i}"), &url).await;
        assert_eq!(
            (r.outcome.as_str(), r.status_code),
            (outcome, status),
            "{answer:?}: {r:?}"
        );
    }
}

#[tokio::test]
async fn test_webhook_failures() {
    let addr = start(config(50)).await;

    let r = probe_result(addr, "t:1", &silent_webhook().await).await;
    assert_eq!(
        (r.outcome.as_str(), r.status_code),
        ("webhook.err.timeout", None)
    );
    assert!(r.latency_ms >= 390, "{}", r.latency_ms);

    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let r = probe_result(addr, "t:2", &format!("http://{closed}/")).await;
    assert_eq!(r.outcome.as_str(), "webhook.err.conn");

    let r = probe_result(addr, "t:4", "http://10.0.0.1/").await;
    assert_eq!(r.outcome.as_str(), "webhook.err.blocked");

    // `.invalid` never resolves; a machine without a reachable resolver may time out first.
    let r = probe_result(addr, "t:5", "http://no-such-host.invalid/").await;
    assert!(
        matches!(
            r.outcome.as_str(),
            "webhook.err.dns" | "webhook.err.timeout"
        ),
        "{r:?}"
    );

    let (status, v) = test_webhook(addr, "t:unset").await;
    assert_eq!((status, v["errorCode"].clone()), (400, json!(400)));

    let (status, v) = post(
        addr,
        "/bott:6/setWebhook",
        &[],
        r#"{"url":"http://u:p@example.com/"}"#,
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["description"].as_str().unwrap().contains("userinfo"),
        "{v}"
    );
}

/// Issue 11 item 7: every answer is the route's JSON envelope with the right status, and the
/// body limit admits the largest valid message.
#[tokio::test]
async fn every_answer_is_an_envelope() {
    let addr = start(config(5)).await;
    let bot = |code: u16| (code, json!(false), json!(code));
    let check_bot = |(status, head, v): (u16, String, Value), want: u16, ctx: &str| {
        assert!(
            head.contains("content-type: application/json"),
            "{ctx}: {head}"
        );
        assert_eq!(
            (status, v["ok"].clone(), v["errorCode"].clone()),
            bot(want),
            "{ctx}: {v}"
        );
        assert!(!v["description"].as_str().unwrap().is_empty(), "{ctx}: {v}");
    };
    let check_quota = |(status, head, v): (u16, String, Value), want: u16, ctx: &str| {
        assert!(
            head.contains("content-type: application/json"),
            "{ctx}: {head}"
        );
        assert_eq!(
            (status, v["error"].clone()),
            (want, json!(want)),
            "{ctx}: {v}"
        );
        assert_eq!(v["data"], json!([]), "{ctx}");
        assert!(!v["message"].as_str().unwrap().is_empty(), "{ctx}: {v}");
    };
    let big = "x".repeat(app::body_limit(&chatmark::Limits::default()) + 1);
    let over = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{big}",
        big.len()
    );
    check_bot(raw(addr, over.as_bytes()).await, 413, "over-size body");
    let over = format!(
        "POST /v3.0/oa/quota/group HTTP/1.1\r\nHost: t\r\naccess_token: t\r\nContent-Length: {}\r\n\r\n{big}",
        big.len()
    );
    check_quota(
        raw(addr, over.as_bytes()).await,
        413,
        "over-size quota body",
    );
    // Chunked, so no Content-Length announces the size.
    let chunked = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{big}\r\n0\r\n\r\n",
        big.len()
    );
    check_bot(
        raw(addr, chunked.as_bytes()).await,
        413,
        "over-size chunked body",
    );
    let req = |method: &str, path: &str| {
        format!(
            "{method} {path} HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
    };
    check_bot(
        raw(addr, req("POST", "/bot%FF/sendMessage").as_bytes()).await,
        400,
        "bad UTF-8 in the path",
    );
    check_bot(
        raw(addr, req("GET", "/bot1:a/sendMessage").as_bytes()).await,
        405,
        "GET",
    );
    check_bot(
        raw(addr, req("PUT", "/bot1:a/setWebhook").as_bytes()).await,
        405,
        "PUT",
    );
    check_quota(
        raw(addr, req("GET", "/v3.0/oa/quota/group").as_bytes()).await,
        405,
        "GET quota",
    );
    check_bot(
        raw(addr, req("POST", "/nowhere").as_bytes()).await,
        404,
        "unknown path",
    );
    check_quota(
        raw(addr, req("POST", "/v3.0/oa/other").as_bytes()).await,
        404,
        "unknown quota path",
    );
    let long = format!("/bot1:a/{}", "a".repeat(app::MAX_TARGET));
    check_bot(
        raw(addr, req("POST", &long).as_bytes()).await,
        414,
        "over-long path",
    );
    let long = format!("/v3.0/oa/quota/group?{}", "a".repeat(app::MAX_TARGET));
    check_quota(
        raw(addr, req("POST", &long).as_bytes()).await,
        414,
        "over-long quota target",
    );

    // The largest valid message fits: 2,000 escaped units and 10,000 runs with a colour.
    let runs: Vec<Value> = (0..10_000)
        .map(|i| json!({"start": 1999 - i % 2000, "len": 1, "st": ["b", "c_db342e"]}))
        .collect();
    let text = "\\u00e9".repeat(2000);
    let body = format!(
        r#"{{"chat_id":1,"text":"{text}","text_styles":{}}}"#,
        json!(runs)
    );
    assert!(
        body.len() > 400_000 && body.len() <= app::body_limit(&chatmark::Limits::default()),
        "{}",
        body.len()
    );
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
    assert_eq!((status, v["ok"].clone()), (200, json!(true)), "{v}");
}

/// Issue 11 item 8: a JSON array is not read as a struct's fields in order.
#[tokio::test]
async fn non_object_bodies_are_refused() {
    let addr = start(config(5)).await;
    for body in [r#"["http://127.0.0.1:9/"]"#, "\"x\"", "null", "1"] {
        let (status, v) = post(addr, "/botarr:1/setWebhook", &[], body).await;
        assert_eq!(status, 400, "{body}: {v}");
        assert_eq!(
            v,
            json!({"ok": false, "errorCode": 400, "description": "the body must be a JSON object"}),
            "{body}"
        );
        let (status, v) = post(addr, "/botarr:1/sendMessage", &[], body).await;
        assert_eq!(
            (status, v["errorCode"].clone()),
            (400, json!(400)),
            "{body}: {v}"
        );
        assert!(
            v["description"].as_str().unwrap().contains("JSON object"),
            "{v}"
        );
    }
    // Nothing was stored by the array.
    let (status, v) = test_webhook(addr, "arr:1").await;
    assert_eq!(status, 400);
    assert!(
        v["description"].as_str().unwrap().contains("no webhook"),
        "{v}"
    );

    let token = [("access_token", seed::DEMO_ACCESS_TOKEN)];
    let (status, v) = post(addr, "/v3.0/oa/quota/group", &token, r#"["APP"]"#).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(
        v,
        json!({"data": [], "error": 400, "message": "the body must be a JSON object"})
    );
}

/// Issue 11 item 9: webhook URLs and the number of bots held are capped.
#[tokio::test]
async fn server_state_is_bounded() {
    let addr = start(app::Config {
        max_bots: 2,
        ..config(5)
    })
    .await;
    let long = format!("http://example.com/{}", "a".repeat(app::MAX_WEBHOOK_URL));
    let (status, v) = post(
        addr,
        "/botcap:0/setWebhook",
        &[],
        &json!({ "url": long }).to_string(),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["description"].as_str().unwrap().contains("2048 bytes"),
        "{v}"
    );
    let fits = format!(
        "http://example.com/{}",
        "a".repeat(app::MAX_WEBHOOK_URL - 19)
    );
    assert_eq!(fits.len(), app::MAX_WEBHOOK_URL);
    set_webhook(addr, "cap:1", &fits).await;
    set_webhook(addr, "cap:2", "http://example.com/2").await;
    let (status, v) = post(
        addr,
        "/botcap:3/setWebhook",
        &[],
        r#"{"url":"http://example.com/3"}"#,
    )
    .await;
    assert_eq!((status, v["errorCode"].clone()), (429, json!(429)), "{v}");
    // A bot already held may change its URL; removing one makes room for another.
    set_webhook(addr, "cap:2", "http://example.com/2b").await;
    set_webhook(addr, "cap:2", "").await;
    set_webhook(addr, "cap:3", "http://example.com/3").await;
}

#[tokio::test]
async fn loopback_is_blocked_without_the_test_setting() {
    let addr = start(app::Config {
        allow_loopback: false,
        ..config(5)
    })
    .await;
    let url = webhook("200 OK", "").await;
    let r = probe_result(addr, "b:1", &url).await;
    assert_eq!((r.ok, r.outcome.as_str()), (false, "webhook.err.blocked"));
    assert!(r.hint.contains("loopback"), "{}", r.hint);
}

#[tokio::test]
async fn test_webhook_daily_limit() {
    let addr = start(config(2)).await;
    let url = webhook("200 OK", "").await;
    set_webhook(addr, "lim:1", &url).await;
    for _ in 0..2 {
        let (status, v) = test_webhook(addr, "lim:1").await;
        assert_eq!(
            (status, v["result"]["outcome"].clone()),
            (200, json!("webhook.ok"))
        );
    }
    let (status, v) = test_webhook(addr, "lim:1").await;
    assert_eq!(status, 426);
    let env: Envelope<TestWebhookResult> = serde_json::from_value(v).unwrap();
    assert_eq!(env.into_result().unwrap_err().code, 426);
    // Another bot has its own allowance.
    set_webhook(addr, "lim:2", &url).await;
    assert_eq!(test_webhook(addr, "lim:2").await.0, 200);
}

#[tokio::test]
async fn quota_group_filters_and_token() {
    let addr = start(config(5)).await;
    let path = "/v3.0/oa/quota/group";
    let token = [("access_token", seed::DEMO_ACCESS_TOKEN)];
    let ids = |v: &Value| -> Vec<String> {
        let r: QuotaResponse = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(r.error, 0);
        r.data.into_iter().map(|a| a.asset_id).collect()
    };
    let cases = [
        (json!({"quota_owner": "OA"}), vec!["oa-1", "oa-2", "oa-3"]),
        (json!({"quota_owner": "APP"}), vec!["app-1"]),
        (
            json!({"quota_owner": "OA", "product_type": "gmf50"}),
            vec!["oa-2"],
        ),
        (
            json!({"quota_owner": "OA", "product_type": "gmf100"}),
            vec!["oa-3"],
        ),
        (
            json!({"quota_owner": "OA", "quota_type": "sub_quota"}),
            vec!["oa-1", "oa-3"],
        ),
        (
            json!({"quota_owner": "OA", "product_type": "gmf10", "quota_type": "sub_quota"}),
            vec!["oa-1"],
        ),
        (
            json!({"quota_owner": "APP", "product_type": "gmf10"}),
            vec![],
        ),
    ];
    for (req, want) in cases {
        let (status, v) = post(addr, path, &token, &req.to_string()).await;
        assert_eq!(status, 200, "{req}: {v}");
        assert_eq!(ids(&v), want, "{req}");
    }

    let (status, v) = post(addr, path, &[], r#"{"quota_owner":"OA"}"#).await;
    assert_eq!(status, 401);
    let r: QuotaResponse = serde_json::from_value(v).unwrap();
    assert!(r.error != 0 && r.data.is_empty() && r.message.contains("access_token"));

    // issue 20 item 9: a filter outside the platform's values is refused, naming the field,
    // not answered with an empty list
    for (req, field) in [
        (
            r#"{"quota_owner":"OA","product_type":"gmf1000"}"#,
            "product_type",
        ),
        (
            r#"{"quota_owner":"OA","quota_type":"subquota"}"#,
            "quota_type",
        ),
    ] {
        let (status, v) = post(addr, path, &token, req).await;
        assert_eq!(status, 400, "{req}: {v}");
        let r: QuotaResponse = serde_json::from_value(v.clone()).unwrap();
        assert!(r.error != 0 && r.data.is_empty(), "{v}");
        assert!(r.message.contains(field), "{v}");
    }

    let (status, v) = post(addr, path, &token, r#"{"quota_owner":"USER"}"#).await;
    assert_eq!(status, 400);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("expected `OA` or `APP`"),
        "{v}"
    );
}

/// Runs the built example binary itself: it must print its bound address first and serve.
/// `cargo test` builds examples beside the test binaries; when only this test target was
/// built (`--test server`), the binary is missing and the check says so and passes.
#[test]
fn example_binary_prints_its_address_first() {
    let Some((_server, addr)) = serve_example(":memory:") else {
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return;
    };
    assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
    let answer = post_blocking(
        addr,
        r#"{"chat_id":"c","text":"*hi*","parse_mode":"markdown"}"#,
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // the id is a string on the wire (issue 20 item 10)
    assert!(answer.contains(r#""message_id":"1""#), "{answer}");
}

/// Starts the example binary on `db` (a free port, no test settings); `None` when the
/// binary was not built.
fn serve_example(db: &str) -> Option<(support::KillOnDrop, SocketAddr)> {
    serve_example_with(&[("CHATMARK_API_DB", db)])
}

/// One sendMessage `body` to `addr` over a blocking socket: the whole answer.
fn post_blocking(addr: SocketAddr, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(
        s,
        "POST /botT/sendMessage HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}

fn short_timeouts() -> app::Config {
    app::Config {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_millis(600),
        ..config(5)
    }
}

/// Reads until the server closes the connection (or resets it); answers what was read.
/// Fails the test when the server keeps the connection open past `DEADLINE`.
async fn read_until_closed(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let read = tokio::time::timeout(DEADLINE, async {
        let mut chunk = [0u8; 1024];
        loop {
            match s.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&chunk[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&out).into_owned()
}

/// Issue 11 item 6: a connection that never finishes its headers is closed by the server
/// (header timeout), even when it keeps trickling bytes, while other requests are served.
#[tokio::test]
async fn slow_client_is_closed_while_others_are_served() {
    let addr = start(short_timeouts()).await;
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(b"POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\n")
        .await
        .unwrap();
    let mut trickling = TcpStream::connect(addr).await.unwrap();
    let trickle = tokio::spawn(async move {
        // One header byte every 50 ms: never idle, never complete. Bounded: 400 bytes.
        for b in b"POST /bot1:a/sendMessage HTTP/1.1\r\nX: "
            .iter()
            .chain([b'a'; 360].iter())
        {
            if trickling.write_all(&[*b]).await.is_err() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    });
    let body = json!({"chat_id": 1, "text": "hi"}).to_string();
    for _ in 0..3 {
        let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
        assert_eq!(status, 200, "{v}");
    }
    // issue 20 item 5: the header timeout answers 408 in the envelope, then closes
    let answer = read_until_closed(&mut stalled).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, envelope) = answer.split_once("\r\n\r\n").unwrap();
    let v: Value = serde_json::from_str(envelope).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["errorCode"].clone()),
        (json!(false), json!(408)),
        "{v}"
    );
    assert!(
        trickle.await.unwrap(),
        "the trickling client was never cut off"
    );
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
    assert_eq!(status, 200, "{v}");
}

/// Issue 11 item 6: idle connections (before any request, and between keep-alive requests)
/// are closed after the idle timeout; a body that stops arriving answers 408.
#[tokio::test]
async fn idle_and_body_timeouts() {
    let addr = start(short_timeouts()).await;
    let mut idle = TcpStream::connect(addr).await.unwrap();
    assert_eq!(read_until_closed(&mut idle).await, "");

    let mut kept = TcpStream::connect(addr).await.unwrap();
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    let req = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    kept.write_all(req.as_bytes()).await.unwrap();
    let answer = read_until_closed(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(answer.matches("HTTP/1.1").count(), 1, "{answer}");

    let mut partial = TcpStream::connect(addr).await.unwrap();
    partial
        .write_all(
            b"POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{\"chat",
        )
        .await
        .unwrap();
    let answer = read_until_closed(&mut partial).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    let v: Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["errorCode"].clone()),
        (json!(false), json!(408))
    );
}

/// Issue 11 item 6: connections over the cap answer 503 in the envelope; once others close,
/// requests are served again.
#[tokio::test]
async fn connections_are_capped() {
    let addr = start(app::Config {
        max_connections: 3,
        ..config(5)
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        // A byte makes sure the server has taken the connection (the head stays open).
        s.write_all(b"P").await.unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, head, v) = raw(addr, b"POST /bot1:a/sendMessage HTTP/1.1\r\n\r\n").await;
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!((status, v["errorCode"].clone()), (503, json!(503)), "{v}");
    // issue 20 item 5: on the quota route, the quota envelope
    let (status, head, v) = raw(
        addr,
        b"POST /v3.0/oa/quota/group HTTP/1.1\r\nHost: t\r\n\r\n",
    )
    .await;
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(
        (status, v["error"].clone(), v["data"].clone()),
        (503, json!(503), json!([])),
        "{v}"
    );
    drop(held);
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    let mut served = false;
    for _ in 0..50 {
        let (status, _) = post(addr, "/bot1:a/sendMessage", &[], body).await;
        if status == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        served,
        "no request served after the held connections closed"
    );
}

/// Requests hyper cannot parse get its automatic status in the route's envelope.
#[tokio::test]
async fn unparsable_requests_answer_in_the_envelope() {
    let addr = start(config(5)).await;
    let long = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nX-Long: {}\r\n\r\n",
        "a".repeat(conn::MAX_HEAD)
    );
    let (status, head, v) = raw(addr, long.as_bytes()).await;
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!((status, v["errorCode"].clone()), (431, json!(431)), "{v}");
    let long = format!(
        "POST /v3.0/oa/quota/group?{} HTTP/1.1\r\n\r\n",
        "a".repeat(70_000)
    );
    let (status, _, v) = raw(addr, long.as_bytes()).await;
    assert_eq!(
        (status, v["error"].clone(), v["data"].clone()),
        (431, json!(431), json!([])),
        "{v}"
    );
    let (status, _, v) = raw(addr, b"POST /bot1:a/sendMessage HTTP/9.9\r\n\r\n").await;
    assert_eq!((status, v["errorCode"].clone()), (400, json!(400)), "{v}");
    let (status, _, v) = raw(addr, b"P\x01ST /bot1:a/sendMessage HTTP/1.1\r\n\r\n").await;
    assert_eq!((status, v["errorCode"].clone()), (400, json!(400)), "{v}");
}

/// Pipelined requests on one connection are all answered by the router, in order, even
/// while a later request's head arrives before an earlier answer is out.
#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let addr = start(config(5)).await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    let one = format!(
        "POST /botp:1/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let last = format!(
        "POST /botp:1/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("{one}{one}{one}").as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    s.write_all(format!("{one}{last}").as_bytes())
        .await
        .unwrap();
    let answer = read_until_closed(&mut s).await;
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 5, "{answer}");
    assert_eq!(answer.matches(r#""ok":true"#).count(), 5, "{answer}");
}

/// A keep-alive HTTP/1.1 client for the load test: one request at a time on one connection.
struct KeepAlive(TcpStream, Vec<u8>);

impl KeepAlive {
    async fn post(&mut self, path: &str, body: &str) -> (u16, Value) {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.0.write_all(req.as_bytes()).await.unwrap();
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = self.1.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.1[..end]).to_ascii_lowercase();
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap();
                if self.1.len() >= end + 4 + len {
                    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
                    let v = serde_json::from_slice(&self.1[end + 4..end + 4 + len]).unwrap();
                    self.1.drain(..end + 4 + len);
                    return (status, v);
                }
            }
            let n = self.0.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the server closed a keep-alive connection");
            self.1.extend_from_slice(&chunk[..n]);
        }
    }
}

/// Issue 11: 5,000 sendMessage requests from 32 keep-alive clients at once all succeed, with
/// distinct message ids. Bounded in count and by `DEADLINE` per client; loopback only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_5000_send_message_at_concurrency_32() {
    const CLIENTS: usize = 32;
    const TOTAL: usize = 5_000;
    let addr = start(config(5)).await;
    let mut tasks = Vec::new();
    for c in 0..CLIENTS {
        let count = TOTAL / CLIENTS + usize::from(c < TOTAL % CLIENTS);
        tasks.push(tokio::spawn(async move {
            let work = async {
                let mut client = KeepAlive(TcpStream::connect(addr).await.unwrap(), Vec::new());
                let mut ids = Vec::with_capacity(count);
                for i in 0..count {
                    let body = json!({"chat_id": c, "text": format!("**m{i}**"), "parse_mode": "markdown"});
                    let (status, v) = client.post("/botload:1/sendMessage", &body.to_string()).await;
                    assert_eq!(status, 200, "{v}");
                    ids.push(message_id(&v));
                }
                ids
            };
            tokio::time::timeout(DEADLINE * 3, work).await.expect("client finished in time")
        }));
    }
    let mut ids = std::collections::HashSet::new();
    let mut answered = 0;
    for t in tasks {
        for id in t.await.unwrap() {
            answered += 1;
            assert!(ids.insert(id), "message id {id} given twice");
        }
    }
    assert_eq!((answered, ids.len()), (TOTAL, TOTAL));
}

/// Issue 16: state survives a restart on the same database file: the webhook is still set,
/// the daily testWebhook count still counts, and message ids keep increasing.
#[tokio::test]
async fn state_survives_a_restart() {
    let db = temp_path("restart.sqlite3");
    let cfg = app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(3)
    };
    let url = webhook("200 OK", "").await;
    let body = json!({"chat_id": "@chan", "text": "*hi*", "parse_mode": "markdown"}).to_string();

    let (addr, server) = start_server(cfg.clone()).await;
    let mut before = Vec::new();
    for _ in 0..3 {
        let (status, v) = post(addr, "/botr:1/sendMessage", &[], &body).await;
        assert_eq!(status, 200, "{v}");
        before.push(message_id(&v));
    }
    set_webhook(addr, "r:1", &url).await;
    for _ in 0..2 {
        assert_eq!(test_webhook(addr, "r:1").await.0, 200);
    }
    server.abort();
    let _ = server.await;

    let (addr, _server) = start_server(cfg).await;
    // No setWebhook after the restart: the webhook is still set; one call of 3 is left.
    let (status, v) = test_webhook(addr, "r:1").await;
    assert_eq!(
        (status, v["result"]["outcome"].clone()),
        (200, json!("webhook.ok")),
        "{v}"
    );
    let (status, v) = test_webhook(addr, "r:1").await;
    assert_eq!((status, v["errorCode"].clone()), (426, json!(426)), "{v}");
    // N1: an ignored field out of f64's range neither refuses the body nor hides chat_id.
    let n1 = r#"{"x":1e400,"chat_id":"@chan","text":"*hi*","parse_mode":"markdown"}"#;
    let (status, v) = post(addr, "/botr:1/sendMessage", &[], n1).await;
    assert_eq!(status, 200, "{v}");
    let after = message_id(&v);
    assert!(
        before.iter().all(|&id| after > id),
        "{after} after {before:?}"
    );

    // The message itself was stored, formatted.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (chat, text, styles): (String, String, String) = conn
        .query_row(
            "SELECT chat_id, text, text_styles FROM messages WHERE id = ?1",
            [after as i64],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((chat.as_str(), text.as_str()), (r#""@chan""#, "hi"));
    assert!(
        styles.contains(r#""st":["i"]"#) || styles.contains(r#""st":["b"]"#),
        "{styles}"
    );
}

/// Issue 11 item 9 on SQLite: testWebhook counters of past UTC days are deleted, and the
/// number of bots counted in one day is capped.
#[test]
fn sqlite_probe_counters_forget_past_days() {
    use chatmark_api::store::{Store, StoreError};
    let db = temp_path("probes.sqlite3");
    let (store, _) = sqlite::SqliteStore::open(&db.to_string_lossy(), None, &[]).unwrap();
    for bot in ["a", "b", "c"] {
        assert_eq!(store.count_probe(bot, 100, 2, 3), Ok(1));
    }
    assert_eq!(store.count_probe("a", 100, 2, 3), Ok(2));
    assert_eq!(
        store.count_probe("a", 100, 2, 3),
        Err(StoreError::DailyLimit(2))
    );
    assert_eq!(
        store.count_probe("z", 100, 2, 3),
        Err(StoreError::TooManyBots(3))
    );
    assert_eq!(store.count_probe("z", 101, 2, 3), Ok(1));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM probe_counts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1);
}

/// Issue 16: with CHATMARK_BOT_TOKENS set, other bot tokens answer 401 on every bot route;
/// unknown quota access tokens answer 401; a seed file and configured tokens are used.
#[tokio::test]
async fn unknown_tokens_answer_401() {
    let seed = temp_path("seed.json");
    std::fs::write(
        &seed,
        r#"{"APP": [{"product_type": "gmf10", "quota_type": "sub_quota", "asset_id": "seeded-1",
            "valid_through": "1/1/2030", "auto_renew": false, "status": "available", "used_id": null}]}"#,
    )
    .unwrap();
    let addr = start(app::Config {
        bot_tokens: Some(["1:good".to_owned()].into_iter().collect()),
        quota_seed: Some(seed),
        quota_tokens: vec!["oa-secret".to_owned()],
        ..config(5)
    })
    .await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    assert_eq!(post(addr, "/bot1:good/sendMessage", &[], body).await.0, 200);
    for path in [
        "/bot1:bad/sendMessage",
        "/bot1:bad/setWebhook",
        "/bot1:bad/testWebhook",
    ] {
        let (status, v) = post(addr, path, &[], r#"{"url":""}"#).await;
        assert_eq!(status, 401, "{path}: {v}");
        assert_eq!(
            (v["ok"].clone(), v["errorCode"].clone()),
            (json!(false), json!(401)),
            "{path}"
        );
    }

    let path = "/v3.0/oa/quota/group";
    let req = r#"{"quota_owner":"APP"}"#;
    let (status, v) = post(addr, path, &[("access_token", "oa-secret")], req).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["data"][0]["asset_id"], "seeded-1");
    // Configured tokens replace the demo token, which an empty token table would get.
    for token in ["wrong", seed::DEMO_ACCESS_TOKEN] {
        let (status, v) = post(addr, path, &[("access_token", token)], req).await;
        assert_eq!(status, 401, "{v}");
        assert_eq!(
            (v["error"].clone(), v["data"].clone()),
            (json!(401), json!([]))
        );
        assert!(
            v["message"].as_str().unwrap().contains("access_token"),
            "{v}"
        );
    }
}

/// An https webhook on 127.0.0.1 presenting `chain` (leaf first) and answering 200.
async fn tls_webhook(
    chain: Vec<rustls::pki_types::CertificateDer<'static>>,
    key: rustls::pki_types::PrivateKeyDer<'static>,
) -> u16 {
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(s).await else {
                    return;
                };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 512];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let _ = tls
                    .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .await;
                let _ = tls.shutdown().await;
            });
        }
    });
    port
}

/// A leaf certificate for `names`, valid from `from` to `until`, signed by `issuer` (or by
/// itself when `None`).
fn leaf(
    names: &[&str],
    validity: Option<(i32, i32)>,
    issuer: Option<&rcgen::Issuer<'_, rcgen::KeyPair>>,
) -> (
    Vec<rustls::pki_types::CertificateDer<'static>>,
    rustls::pki_types::PrivateKeyDer<'static>,
) {
    let mut params =
        rcgen::CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
            .unwrap();
    if let Some((from, until)) = validity {
        params.not_before = rcgen::date_time_ymd(from, 1, 1);
        params.not_after = rcgen::date_time_ymd(until, 1, 1);
    }
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = match issuer {
        Some(issuer) => params.signed_by(&key, issuer).unwrap(),
        None => params.self_signed(&key).unwrap(),
    };
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into());
    (vec![cert.der().clone()], key)
}

/// Issue 16: https webhooks are probed over TLS. A leaf signed by a test root trusted through
/// CHATMARK_EXTRA_ROOTS answers webhook.ok; an expired or not yet valid leaf, a leaf for
/// another name, a self-signed leaf and a server that does not speak TLS answer
/// webhook.err.tls with a hint naming the cause.
#[tokio::test]
async fn https_webhooks_are_probed_over_tls() {
    let mut root = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    root.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    root.distinguished_name
        .push(rcgen::DnType::CommonName, "chatmark test root");
    root.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::DigitalSignature,
    ];
    let root =
        rcgen::CertifiedIssuer::self_signed(root, rcgen::KeyPair::generate().unwrap()).unwrap();
    let roots = temp_path("roots.pem");
    std::fs::write(&roots, root.pem()).unwrap();
    let addr = start(app::Config {
        extra_roots: Some(roots),
        probe_timeout: Duration::from_secs(5),
        ..config(50)
    })
    .await;

    let (chain, key) = leaf(&["localhost"], None, Some(&root));
    let port = tls_webhook(chain, key).await;
    let r = probe_result(addr, "tls:ok", &format!("https://localhost:{port}/hook")).await;
    assert_eq!(
        (r.outcome.as_str(), r.status_code),
        ("webhook.ok", Some(200)),
        "{r:?}"
    );

    let cases = [
        (
            leaf(&["localhost"], Some((2020, 2021)), Some(&root)),
            "expired or not yet valid",
        ),
        (
            leaf(&["localhost"], Some((2090, 2091)), Some(&root)),
            "expired or not yet valid",
        ),
        (leaf(&["other.example"], None, Some(&root)), "name mismatch"),
        (
            leaf(&["localhost"], None, None),
            "unknown issuer or incomplete chain",
        ),
    ];
    for (i, ((chain, key), want)) in cases.into_iter().enumerate() {
        let port = tls_webhook(chain, key).await;
        let r = probe_result(
            addr,
            &format!("tls:{i}"),
            &format!("https://localhost:{port}/"),
        )
        .await;
        assert_eq!(
            (r.outcome.as_str(), r.status_code),
            ("webhook.err.tls", None),
            "{want}: {r:?}"
        );
        assert!(r.hint.contains(want), "{want}: {}", r.hint);
    }

    let plain = raw_webhook("HTTP/1.1 200 OK\r\n\r\n")
        .await
        .replace("http://", "https://");
    let r = probe_result(addr, "tls:plain", &plain).await;
    assert_eq!(r.outcome.as_str(), "webhook.err.tls", "{r:?}");
    assert!(
        r.hint.contains("handshake or protocol failure"),
        "{}",
        r.hint
    );

    // Without the extra roots, the test root is unknown.
    let bare = start(app::Config {
        probe_timeout: Duration::from_secs(5),
        ..config(50)
    })
    .await;
    let (chain, key) = leaf(&["localhost"], None, Some(&root));
    let port = tls_webhook(chain, key).await;
    let r = probe_result(bare, "tls:bare", &format!("https://localhost:{port}/")).await;
    assert_eq!(r.outcome.as_str(), "webhook.err.tls", "{r:?}");
    assert!(r.hint.contains("unknown issuer"), "{}", r.hint);
}

/// Bad settings fail the start with a clear message instead of serving half-configured.
#[test]
fn bad_settings_are_refused_at_start() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let fails = |cfg: app::Config| match runtime.block_on(app::build(&cfg)) {
        Ok(_) => panic!("started with {cfg:?}"),
        Err(e) => e,
    };
    let seed = temp_path("bad-seed.json");
    std::fs::write(&seed, r#"{"OA": [{"asset_id": "x"}]}"#).unwrap();
    let e = fails(app::Config {
        quota_seed: Some(seed),
        ..config(5)
    });
    assert!(
        e.contains("quota seed") && e.contains("missing field"),
        "{e}"
    );
    let e = fails(app::Config {
        quota_seed: Some(temp_path("no-such-seed.json")),
        ..config(5)
    });
    assert!(e.contains("CHATMARK_QUOTA_SEED"), "{e}");

    let roots = temp_path("empty-roots.pem");
    std::fs::write(&roots, "not a certificate\n").unwrap();
    let e = fails(app::Config {
        extra_roots: Some(roots),
        ..config(5)
    });
    assert!(
        e.contains("CHATMARK_EXTRA_ROOTS") && e.contains("no PEM certificate"),
        "{e}"
    );

    // A database migrated by a newer server is not touched.
    let db = temp_path("newer.sqlite3");
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let e = fails(app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(5)
    });
    assert!(e.contains("schema version 99 is newer"), "{e}");
}

/// Runs the example binary with `env` (over a clean default environment) until it exits,
/// which a bad setting must make it do at once: its exit code, stdout and stderr.
fn start_example_expecting_exit(env: &[(&str, &str)]) -> Option<(Option<i32>, String, String)> {
    let exe = example_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("0")
        .env("CHATMARK_API_DB", ":memory:")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("the server kept running with {env:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Some((out.status.code(), text(out.stdout), text(out.stderr)))
}

/// Issue 20 items 12 and 14: every numeric setting is checked against its range, and an
/// empty database path is refused, before anything is printed or served (a value past a
/// range used to panic after the address was printed; an empty path silently used a
/// temporary database).
#[test]
fn numeric_and_empty_settings_are_refused_before_serving() {
    let cases = [
        ("CHATMARK_MAX_CONNECTIONS", "18446744073709551615"),
        ("CHATMARK_MAX_CONNECTIONS", "0"),
        ("CHATMARK_HEADER_TIMEOUT_MS", "18446744073709551615"),
        ("CHATMARK_BODY_TIMEOUT_MS", "-1"),
        ("CHATMARK_IDLE_TIMEOUT_MS", "1e3"),
        ("TESTWEBHOOK_TIMEOUT_MS", "600000"),
        ("TESTWEBHOOK_DAILY_LIMIT", "4294967296"),
        ("CHATMARK_MAX_BOTS", "0"),
        ("CHATMARK_STORE_TIMEOUT_MS", "0"),
        ("CHATMARK_STORE_TIMEOUT_MS", "600001"),
        ("CHATMARK_LOG", "loud"),
        ("CHATMARK_DB_POOL_SIZE", "0"),
        ("CHATMARK_DB_POOL_SIZE", "10001"),
        ("CHATMARK_DB_IDLE_TIMEOUT_MS", "0"),
        ("CHATMARK_SHUTDOWN_TIMEOUT_MS", "0"),
        ("CHATMARK_API_DB", ""),
        ("CHATMARK_API_DB", "  "),
    ];
    for (name, value) in cases {
        let Some((code, stdout, stderr)) = start_example_expecting_exit(&[(name, value)]) else {
            eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
            return;
        };
        assert_eq!(code, Some(2), "{name}={value:?}: {stderr}");
        assert_eq!(stdout, "", "{name}={value:?}: nothing printed on stdout");
        assert!(stderr.contains(name), "{name}={value:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}={value:?}: {stderr}");
    }
}

/// Issue 20 item 11: once `CHATMARK_QUOTA_TOKENS` names real tokens, the demo token that an
/// earlier start seeded stops working (and the start-up notes say it was revoked).
#[tokio::test]
async fn the_demo_quota_token_is_revoked_by_real_ones() {
    let db = temp_path("demo-token.sqlite3");
    let cfg = app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(5)
    };
    let path = "/v3.0/oa/quota/group";
    let body = json!({"quota_owner": "OA"}).to_string();
    let demo = [("access_token", seed::DEMO_ACCESS_TOKEN)];

    let (addr, server) = start_server(cfg.clone()).await;
    assert_eq!(post(addr, path, &demo, &body).await.0, 200);
    server.abort();
    let _ = server.await;

    let real = app::Config {
        quota_tokens: vec!["real-token".to_owned()],
        ..cfg
    };
    let (_, notes) = sqlite::SqliteStore::open(&real.db, None, &real.quota_tokens).unwrap();
    assert!(
        notes.iter().any(|n| n.contains("revoked the demo")),
        "{notes:?}"
    );
    drop(notes);
    let (addr, _server) = start_server(real).await;
    assert_eq!(post(addr, path, &demo, &body).await.0, 401);
    assert_eq!(
        post(addr, path, &[("access_token", "real-token")], &body)
            .await
            .0,
        200
    );
}

/// Issue 20 item 13: a second server process on the same SQLite file refuses to start with
/// a clear message, and the first keeps serving.
#[test]
fn a_second_process_on_one_sqlite_file_refuses_to_start() {
    let db = temp_path("two-processes.sqlite3");
    let db = db.to_string_lossy().into_owned();
    let Some((_first, addr)) = serve_example(&db) else {
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return;
    };
    let (code, stdout, stderr) = start_example_expecting_exit(&[("CHATMARK_API_DB", &db)]).unwrap();
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("in use by another server process"),
        "{stderr}"
    );
    let answer = post_blocking(addr, r#"{"chat_id":"c","text":"hi"}"#);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Issue 20 item 8: every route reads its body with one rule, so a field it ignores is
/// skipped whatever its depth (setWebhook refused at about 128 levels while sendMessage
/// took 300,000); a quota request's unknown field is refused as such, not for its depth.
/// Item 9: a duplicated `chat_id` takes the last value, as every other field does.
#[tokio::test]
async fn deep_ignored_fields_and_repeated_keys_read_alike_on_every_route() {
    let db = temp_path("deep-fields.sqlite3");
    let addr = start(app::Config {
        db: db.to_string_lossy().into_owned(),
        ..config(5)
    })
    .await;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let url = webhook("200 OK", "").await;
    let body = format!(r#"{{"x":{deep},"url":"{url}"}}"#);
    let (status, v) = post(addr, "/botdeep:1/setWebhook", &[], &body).await;
    assert_eq!((status, v["ok"].clone()), (200, json!(true)), "{v}");
    let body = format!(r#"{{"x":{deep},"chat_id":"c","text":"hi"}}"#);
    let (status, v) = post(addr, "/botdeep:1/sendMessage", &[], &body).await;
    assert_eq!(status, 200, "{v}");

    let token = [("access_token", seed::DEMO_ACCESS_TOKEN)];
    let body = format!(r#"{{"quota_owner":"OA","x":{deep}}}"#);
    let (status, v) = post(addr, "/v3.0/oa/quota/group", &token, &body).await;
    assert_eq!(status, 400, "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("unknown field"), "{message}");

    let (status, v) = post(
        addr,
        "/botdeep:1/sendMessage",
        &[],
        r#"{"chat_id":"first","text":"dup","chat_id":"last"}"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let id = message_id(&v);
    let chat: String = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT chat_id FROM messages WHERE id = ?1",
            [id as i64],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(chat, r#""last""#);
}

/// Issue 20 item 4: the body limit comes from the `Limits` sendMessage resolves with, so the
/// largest valid body (2,000 escaped units, 10,000 runs with 20-character numbers and every
/// code) is served end to end, and one byte over the limit is refused (413).
#[tokio::test]
async fn the_largest_valid_body_is_served() {
    let addr = start(config(5)).await;
    let limit = app::body_limit(&chatmark::Limits::default());
    let codes: Vec<&str> = chatmark::StyleCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    let run = json!({"start": i64::MIN, "len": i64::MAX, "st": codes}).to_string();
    let runs = vec![run; 10_000].join(",");
    let text = "\\u00e9".repeat(2000);
    let body = format!(r#"{{"chat_id":1,"text":"{text}","text_styles":[{runs}]}}"#);
    assert!(
        body.len() > 2_000_000 && body.len() <= limit,
        "{} of {limit}",
        body.len()
    );
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &body).await;
    assert_eq!((status, v["ok"].clone()), (200, json!(true)), "{v}");
    // with whitespace between the tokens it still fits
    let spaced = body.replace(",", ", ");
    assert!(spaced.len() <= limit, "{} of {limit}", spaced.len());
    assert_eq!(post(addr, "/bot1:a/sendMessage", &[], &spaced).await.0, 200);
    // trailing whitespace is still JSON: one byte over the limit in all
    let over = format!("{body}{}", " ".repeat(limit + 1 - body.len()));
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], &over).await;
    assert_eq!((status, v["errorCode"].clone()), (413, json!(413)), "{v}");
}

/// Issue 20 item 7: a transfer coding other than plain `chunked` is refused in the route's
/// envelope (501), not read as if the body were plain JSON.
#[tokio::test]
async fn transfer_codings_other_than_chunked_are_refused() {
    let addr = start(config(5)).await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    for (coding, path) in [
        ("gzip, chunked", "/bot1:a/sendMessage"),
        ("deflate,chunked", "/bot1:a/sendMessage"),
        ("gzip, chunked", "/v3.0/oa/quota/group"),
    ] {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\naccess_token: demo-oa-token\r\nTransfer-Encoding: {coding}\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
        let (status, _, v) = raw(addr, request.as_bytes()).await;
        assert_eq!(status, 501, "{coding} {path}: {v}");
        let message = if path.starts_with("/v3.0/") {
            &v["message"]
        } else {
            &v["description"]
        };
        assert!(
            message.as_str().unwrap().contains("Transfer-Encoding"),
            "{v}"
        );
    }
    // plain chunked is served
    let request = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    let (status, _, v) = raw(addr, request.as_bytes()).await;
    assert_eq!(status, 200, "{v}");
}

/// Issue 20 item 5: every error is the route's envelope, also where hyper answers before a
/// route runs: a malformed request pipelined behind a valid one, and a request head that
/// times out (408) on the quota route. (The 503 over the cap: `connections_are_capped`.)
#[tokio::test]
async fn early_answers_are_the_routes_envelope() {
    let addr = start(short_timeouts()).await;
    // a malformed request pipelined behind a valid one
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let valid = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(format!("{valid}GARBAGE\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let answer = read_until_closed(&mut s).await;
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 1, "{answer}");
    let second = answer
        .find("HTTP/1.1 400")
        .and_then(|at| answer.get(at..))
        .unwrap_or_default();
    assert!(!second.is_empty(), "{answer}");
    let (_, json) = second.split_once("\r\n\r\n").unwrap();
    let v: Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["errorCode"].clone()),
        (json!(false), json!(400)),
        "{v}"
    );

    // a quota request head that times out: 408 in the quota envelope
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(b"POST /v3.0/oa/quota/group HTTP/1.1\r\nHost: t\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut stalled).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, json) = answer.split_once("\r\n\r\n").unwrap();
    let v: Value = serde_json::from_str(json).unwrap();
    assert_eq!(
        (v["error"].clone(), v["data"].clone()),
        (json!(408), json!([])),
        "{v}"
    );
}

/// Issue 20 item 6: a partial request head that arrived pipelined behind a complete request
/// is bounded by the header timeout (300 ms here, then 408 in the envelope), not the idle
/// timeout (raised to 30 s).
#[tokio::test]
async fn a_pipelined_partial_head_is_bounded_by_the_header_timeout() {
    let addr = start(app::Config {
        idle_timeout: Duration::from_secs(30),
        ..short_timeouts()
    })
    .await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    let complete = format!(
        "POST /bot1:a/sendMessage HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = TcpStream::connect(addr).await.unwrap();
    let started = std::time::Instant::now();
    s.write_all(format!("{complete}POST /bot1:a/sendMessage HTTP/1.1\r\nHost:").as_bytes())
        .await
        .unwrap();
    let answer = read_until_closed(&mut s).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "closed after {:?}",
        started.elapsed()
    );
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 1, "{answer}");
    let late = answer
        .find("HTTP/1.1 408")
        .and_then(|at| answer.get(at..))
        .unwrap_or_default();
    let (_, envelope) = late.split_once("\r\n\r\n").unwrap_or_default();
    let v: Value = serde_json::from_str(envelope).unwrap_or(Value::Null);
    assert_eq!(v["errorCode"], json!(408), "{answer}");
    // a keep-alive connection with nothing pipelined still waits the idle timeout
    let mut kept = TcpStream::connect(addr).await.unwrap();
    let mut seen = String::new();
    let answers = |want: usize, seen: &mut String, buf: Vec<u8>| {
        seen.push_str(&String::from_utf8_lossy(&buf));
        seen.matches(r#""ok":true"#).count() >= want
    };
    for round in 1..=2 {
        if round == 2 {
            tokio::time::sleep(Duration::from_millis(900)).await; // past the header timeout
        }
        kept.write_all(complete.as_bytes()).await.unwrap();
        loop {
            let mut buf = vec![0u8; 4096];
            let n = tokio::time::timeout(DEADLINE, kept.read(&mut buf))
                .await
                .unwrap()
                .unwrap();
            assert!(n > 0, "closed after {round} request(s): {seen}");
            buf.truncate(n);
            if answers(round, &mut seen, buf) {
                break;
            }
        }
    }
}

/// Issue 25: a PostgreSQL database that cannot be reached stops the start with a message
/// naming it, without its password, and a URL that does not parse is refused the same way.
#[test]
fn an_unreachable_postgres_database_stops_the_start() {
    let url = "postgres://chatmark:s3cret-pw@127.0.0.1:1/fleetdb?connect_timeout=5";
    let Some((code, stdout, stderr)) = start_example_expecting_exit(&[("CHATMARK_API_DB", url)])
    else {
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return;
    };
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("PostgreSQL database fleetdb on 127.0.0.1:1"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
    let (code, _, stderr) =
        start_example_expecting_exit(&[("CHATMARK_API_DB", "postgres://u:s3cret@h:notaport/x")])
            .unwrap();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not a usable PostgreSQL URL"), "{stderr}");
    assert!(!stderr.contains("s3cret"), "{stderr}");
    // a scheme in capitals is still a database server, never a SQLite file of that name
    let (code, _, stderr) = start_example_expecting_exit(&[(
        "CHATMARK_API_DB",
        "POSTGRESQL://u@127.0.0.1:1/caps?connect_timeout=5",
    )])
    .unwrap();
    assert_eq!(code, Some(1), "{stderr}");
    // issue 51 finding 7: read as a URL, so the cause named is the unreachable database
    assert!(
        stderr.contains("PostgreSQL database caps on 127.0.0.1:1"),
        "{stderr}"
    );
}

/// Issue 25: the PostgreSQL store refuses a single-threaded runtime, where its blocking
/// methods would wait forever for a connection nobody drives, instead of hanging.
#[tokio::test]
async fn the_postgres_store_refuses_a_current_thread_runtime() {
    let (tls, _) = probe::client_config(None).unwrap();
    let refused = postgres::PostgresStore::open(
        "postgres://u@127.0.0.1:1/x",
        None,
        &[],
        &tls,
        &Default::default(),
    )
    .await;
    assert!(
        refused.is_err_and(|e| e.contains("multi-threaded")),
        "opened on a current-thread runtime"
    );
}

/// Issue 51 finding 8: a complete request followed by the client's half-close
/// (`shutdown(SHUT_WR)`) is answered before the server closes (it got an empty reply).
#[tokio::test]
async fn a_request_before_a_half_close_is_answered() {
    let addr = start(config(5)).await;
    let body = r#"{"chat_id":1,"text":"half"}"#;
    for path in ["/bot1:a/sendMessage", "/v3.0/oa/quota/group"] {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\naccess_token: demo-oa-token\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        s.shutdown().await.unwrap();
        let answer = read_until_closed(&mut s).await;
        let (head, json) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        assert!(head.starts_with("HTTP/1.1 "), "{path}: {answer:?}");
        let v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
        if path.starts_with("/v3.0/") {
            // a sendMessage body is not a quota request: refused, but answered
            assert_eq!(v["error"], json!(400), "{answer}");
        } else {
            assert!(head.starts_with("HTTP/1.1 200"), "{answer}");
            assert_eq!(v["ok"], json!(true), "{answer}");
        }
    }
}

/// Issue 51 finding 5: an HTTP/2 client with prior knowledge (the `PRI * HTTP/2.0` preface)
/// gets 505 in the envelope, which says to use HTTP/1.1, instead of a closed connection.
#[tokio::test]
async fn http2_prior_knowledge_is_answered_in_the_envelope() {
    let addr = start(config(5)).await;
    let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";
    let (status, head, v) = raw(addr, preface).await;
    assert_eq!(status, 505, "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(
        (v["ok"].clone(), v["errorCode"].clone()),
        (json!(false), json!(505)),
        "{v}"
    );
    assert!(
        v["description"].as_str().unwrap().contains("HTTP/1.1"),
        "{v}"
    );
    // the preface split over two writes is recognised too
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"PRI * HTTP/2").await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    s.write_all(b".0\r\n\r\nSM\r\n\r\n").await.unwrap();
    let answer = read_until_closed(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 505"), "{answer:?}");
}

/// Issue 51 (logs): one JSON line per request on stdout after the address, with its request
/// id (the answer's `x-request-id`), method, route, status and latency; the route is named,
/// never the path, so no bot token and no access token is ever written.
#[test]
fn every_request_is_one_json_log_line_without_secrets() {
    let secret = "123456:s3cret-bot-token";
    let Some((_server, addr, output)) = support::serve_example_logged(&[
        ("CHATMARK_API_DB", ":memory:"),
        ("CHATMARK_BOT_TOKENS", secret),
        ("CHATMARK_QUOTA_TOKENS", "s3cret-access-token"),
    ]) else {
        eprintln!("examples/server not built; skipped (run `cargo test -p chatmark-api`)");
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let send = |path: String, headers: Vec<(&'static str, &'static str)>, body: &'static str| {
        runtime.block_on(async {
            let (status, head, _) = raw(
                addr,
                format!(
                    "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n{}\r\n{body}",
                    body.len(),
                    headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect::<String>()
                )
                .as_bytes(),
            )
            .await;
            let id = head
                .lines()
                .find_map(|l| l.strip_prefix("x-request-id: "))
                .unwrap_or_else(|| panic!("no request id: {head}"))
                .to_owned();
            (status, id)
        })
    };
    let sent = [
        send(
            format!("/bot{secret}/sendMessage"),
            vec![],
            r#"{"chat_id":1,"text":"hi"}"#,
        ),
        send(
            "/botnope/sendMessage".into(),
            vec![],
            r#"{"chat_id":1,"text":"hi"}"#,
        ),
        send(
            "/v3.0/oa/quota/group".into(),
            vec![("access_token", "s3cret-access-token")],
            r#"{"quota_owner":"OA"}"#,
        ),
        send(format!("/bot{secret}/nothing"), vec![], "{}"),
    ];
    let want = [
        (200, "sendMessage"),
        (401, "sendMessage"),
        (200, "quota"),
        (404, "other"),
    ];
    for ((status, id), (want_status, route)) in sent.iter().zip(want) {
        assert_eq!(*status, want_status);
        let line = output.wait_for(|l| l.contains(id.as_str()));
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(v["request_id"], json!(id), "{line}");
        assert_eq!(v["route"], json!(route), "{line}");
        assert_eq!(v["status"], json!(want_status), "{line}");
        assert_eq!(v["method"], json!("POST"), "{line}");
        assert!(
            v["latency_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
            "{line}"
        );
        assert!(
            v["timestamp"].is_string() && v["level"].is_string(),
            "{line}"
        );
    }
    let ids: std::collections::HashSet<_> = sent.iter().map(|(_, id)| id).collect();
    assert_eq!(ids.len(), sent.len(), "request ids repeat: {sent:?}");
    for line in output.stdout() {
        assert!(
            serde_json::from_str::<Value>(&line).is_ok(),
            "not JSON: {line}"
        );
        assert!(!line.contains("s3cret"), "a secret in the log: {line}");
    }
}

/// Issue 51 finding 9: a 5xx answer says what failed in the client's terms and carries the
/// request id (also its `x-request-id`); the backend's detail ("Connection refused (os error
/// 111)", SQLSTATE codes) goes to the log line of that id only, and the database password
/// appears nowhere.
#[test]
fn store_failures_name_what_failed_and_log_the_detail() {
    let Some(cluster) = support::postgres::Cluster::start("leak") else {
        return;
    };
    cluster.create_db("leak");
    let url = cluster
        .url("leak")
        .replace("postgres@", "postgres:s3cret-db-pw@");
    let Some((_server, addr, output)) = support::serve_example_logged(&[
        ("CHATMARK_API_DB", url.as_str()),
        ("CHATMARK_STORE_TIMEOUT_MS", "300"),
    ]) else {
        assert!(
            !support::postgres::required(),
            "examples/server is not built"
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let request = |path: &str, extra: &str, body: &str| {
        let text = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}",
            body.len()
        );
        runtime.block_on(raw(addr, text.as_bytes()))
    };
    let message = r#"{"chat_id":1,"text":"hi"}"#;
    assert_eq!(request("/bot1:a/sendMessage", "", message).0, 200);
    drop(cluster); // the database goes away
    let cases = [
        ("/bot1:a/sendMessage", "", message, "description"),
        (
            "/bot1:a/setWebhook",
            "",
            r#"{"url":"https://example.com/h"}"#,
            "description",
        ),
        ("/bot1:a/testWebhook", "", "", "description"),
        (
            "/v3.0/oa/quota/group",
            "access_token: demo-oa-token\r\n",
            r#"{"quota_owner":"OA"}"#,
            "message",
        ),
    ];
    for (path, extra, body, field) in cases {
        let (status, head, v) = request(path, extra, body);
        assert!((500..600).contains(&status), "{path}: {status} {v}");
        let id = head
            .lines()
            .find_map(|l| l.strip_prefix("x-request-id: "))
            .unwrap_or_else(|| panic!("{path}: no request id in {head}"));
        let description = v[field].as_str().unwrap_or_else(|| panic!("{path}: {v}"));
        assert!(
            description.contains(&format!("request id {id}")),
            "{path}: {v}"
        );
        for leak in [
            "os error",
            "refused",
            "storage failure",
            "SQLSTATE",
            "(08",
            "(57",
            "127.0.0.1",
        ] {
            assert!(!description.contains(leak), "{path}: {leak:?} in {v}");
        }
        let line = output.wait_for(|l| l.contains(id));
        let logged: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(logged["status"], json!(status), "{line}");
        assert!(
            logged["error"]
                .as_str()
                .is_some_and(|e| e.contains("refused")),
            "{path}: the detail is not in the log line: {line}"
        );
    }
    for line in output.stdout().iter().chain(&output.stderr()) {
        assert!(
            !line.contains("s3cret-db-pw"),
            "the password in the output: {line}"
        );
    }
}

/// Issue 51 finding 2 on SQLite: a write lock held on the file by another process (a backup,
/// a shell) holds a store call at most the store timeout (SQLite's busy timeout), then the
/// route answers 503 in its envelope; reads and other routes are not stuck behind it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_sqlite_file_fails_a_write_in_time() {
    let db = temp_path("busy.sqlite3");
    let addr = start(app::Config {
        db: db.to_string_lossy().into_owned(),
        store_timeout: Duration::from_millis(300),
        ..config(5)
    })
    .await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    assert_eq!(post(addr, "/bot1:a/sendMessage", &[], body).await.0, 200);
    let other = rusqlite::Connection::open(&db).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (status, v) = post(addr, "/bot1:a/sendMessage", &[], body).await;
    assert_eq!((status, v["errorCode"].clone()), (503, json!(503)), "{v}");
    assert!(
        v["description"].as_str().unwrap().contains("within 300 ms"),
        "{v}"
    );
    // a read goes on (WAL: readers do not wait for the writer)
    let token = [("access_token", seed::DEMO_ACCESS_TOKEN)];
    let (status, v) = post(
        addr,
        "/v3.0/oa/quota/group",
        &token,
        r#"{"quota_owner":"OA"}"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    other.execute_batch("ROLLBACK").unwrap();
    assert_eq!(post(addr, "/bot1:a/sendMessage", &[], body).await.0, 200);
}

/// A GET of `path`: the status and the JSON body.
async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    let (status, _, v) = raw(addr, request.as_bytes()).await;
    (status, v)
}

/// Issue 51 (health): `GET /healthz` answers while the process lives; `GET /readyz` while
/// the store answers within its timeout, and 503 with the cause (in the envelope, with a
/// request id) once the database is gone, so that a load balancer drains the instance; both
/// are outside the bot routes (no token).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness() {
    let addr = start(config(5)).await;
    assert_eq!(
        get(addr, "/healthz").await,
        (200, json!({"ok": true, "result": "live"}))
    );
    assert_eq!(
        get(addr, "/readyz").await,
        (200, json!({"ok": true, "result": "ready"}))
    );
    let (status, v) = post(addr, "/healthz", &[], "").await;
    assert_eq!((status, v["errorCode"].clone()), (405, json!(405)), "{v}");

    let Some(cluster) = support::postgres::Cluster::start("ready") else {
        return;
    };
    cluster.create_db("ready");
    let addr = start(app::Config {
        db: cluster.url("ready"),
        store_timeout: Duration::from_millis(300),
        ..config(5)
    })
    .await;
    assert_eq!(get(addr, "/readyz").await.0, 200);
    drop(cluster);
    let (status, v) = get(addr, "/readyz").await;
    assert_eq!((status, v["errorCode"].clone()), (503, json!(503)), "{v}");
    let description = v["description"].as_str().unwrap();
    assert!(
        description.starts_with("not ready: the database cannot be reached"),
        "{description}"
    );
    assert!(description.contains("request id"), "{description}");
    assert_eq!(get(addr, "/healthz").await.0, 200);
}

/// The samples of a Prometheus text exposition: `name{labels}` to value.
fn samples(text: &str) -> std::collections::HashMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (key, value) = l.rsplit_once(' ').unwrap_or_else(|| panic!("{l}"));
            (
                key.to_owned(),
                value.parse().unwrap_or_else(|_| panic!("{l}")),
            )
        })
        .collect()
}

/// Issue 51 (metrics): `GET /metrics` answers the Prometheus text format, counting requests
/// by route and status, their latency, store waits and errors, webhook probe outcomes and
/// readiness checks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_store_errors_and_probes() {
    let db = temp_path("metrics.sqlite3");
    let addr = start(app::Config {
        db: db.to_string_lossy().into_owned(),
        store_timeout: Duration::from_millis(300),
        ..config(5)
    })
    .await;
    let body = r#"{"chat_id":1,"text":"hi"}"#;
    for _ in 0..3 {
        assert_eq!(post(addr, "/botm:1/sendMessage", &[], body).await.0, 200);
    }
    assert_eq!(post(addr, "/botm:1/sendMessage", &[], "{}").await.0, 400);
    let token = [("access_token", seed::DEMO_ACCESS_TOKEN)];
    assert_eq!(
        post(
            addr,
            "/v3.0/oa/quota/group",
            &token,
            r#"{"quota_owner":"OA"}"#
        )
        .await
        .0,
        200
    );
    assert_eq!(get(addr, "/readyz").await.0, 200);
    set_webhook(addr, "m:1", &webhook("200 OK", "").await).await;
    assert_eq!(test_webhook(addr, "m:1").await.0, 200);
    let other = rusqlite::Connection::open(&db).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    assert_eq!(post(addr, "/botm:1/sendMessage", &[], body).await.0, 503);
    other.execute_batch("ROLLBACK").unwrap();

    let request = b"GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let answer = read_until_closed(&mut s).await;
    let (head, text) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let m = samples(text);
    let get = |k: &str| {
        m.get(k)
            .copied()
            .unwrap_or_else(|| panic!("no {k} in\n{text}"))
    };
    let requests = |route: &str, status: u16| {
        get(&format!(
            r#"chatmark_http_requests_total{{route="{route}",status="{status}"}}"#
        ))
    };
    assert_eq!(requests("sendMessage", 200), 3.0);
    assert_eq!(requests("sendMessage", 400), 1.0);
    assert_eq!(requests("sendMessage", 503), 1.0);
    assert_eq!(requests("quota", 200), 1.0);
    assert_eq!(requests("readyz", 200), 1.0);
    assert_eq!(requests("testWebhook", 200), 1.0);
    assert_eq!(
        get(r#"chatmark_http_request_duration_seconds_count{route="sendMessage"}"#),
        5.0
    );
    assert_eq!(
        get(r#"chatmark_store_errors_total{kind="timeout",table="messages"}"#),
        1.0
    );
    assert_eq!(
        get(r#"chatmark_store_wait_seconds_count{table="messages"}"#),
        4.0
    );
    assert_eq!(get(r#"chatmark_store_waiting{table="messages"}"#), 0.0);
    assert_eq!(
        get(r#"chatmark_webhook_probes_total{outcome="webhook.ok"}"#),
        1.0
    );
    assert_eq!(
        get(r#"chatmark_readiness_checks_total{result="ready"}"#),
        1.0
    );
    // no path, hence no token, among the labels
    assert!(!text.contains("m:1") && !text.contains("/bot"), "{text}");
}

/// Issue 51 (graceful shutdown), in process: once the app drains, `/readyz` answers 503 so
/// that a load balancer stops sending; when `serve`'s shutdown future resolves it stops
/// accepting and returns once the connections are done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draining_fails_readiness_and_shutdown_stops_accepting() {
    let config = config(5);
    let app = app::build(&config).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = app.router.clone();
    let served = tokio::spawn(conn::serve(listener, router, config, async {
        let _ = stopped.await;
    }));
    assert_eq!(get(addr, "/readyz").await.0, 200);
    // an idle keep-alive connection is closed by the shutdown, not left to its timeout
    let mut idle = TcpStream::connect(addr).await.unwrap();
    app.drain();
    let (status, v) = get(addr, "/readyz").await;
    assert_eq!((status, v["errorCode"].clone()), (503, json!(503)), "{v}");
    assert!(
        v["description"].as_str().unwrap().contains("shutting down"),
        "{v}"
    );
    assert_eq!(get(addr, "/healthz").await.0, 200);
    stop.send(()).unwrap();
    tokio::time::timeout(DEADLINE, served)
        .await
        .expect("serve returned")
        .unwrap()
        .unwrap();
    assert_eq!(read_until_closed(&mut idle).await, "");
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
    app.close();
}
