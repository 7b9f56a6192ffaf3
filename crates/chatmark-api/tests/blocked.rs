//! Table-driven test of the blocked-target guard: each line of `data/blocked.jsonl` is a URL,
//! the addresses its host resolved to, and whether probing it is blocked (and why).

use std::net::IpAddr;

use chatmark_api::blocked::check_target_with;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    url: String,
    resolved: Vec<IpAddr>,
    blocked: bool,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    allow_loopback: bool,
    #[serde(default)]
    why: Option<String>,
}

#[test]
fn blocked_targets_table() {
    let data = include_str!("data/blocked.jsonl");
    let mut count = 0;
    for (n, line) in data
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Case =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let got = check_target_with(&case.url, &case.resolved, case.allow_loopback);
        let ctx = format!(
            "line {} {:?} ({})",
            n + 1,
            case.url,
            case.why.as_deref().unwrap_or("")
        );
        assert_eq!(got.is_err(), case.blocked, "{ctx}: {got:?}");
        if let (Err(e), Some(reason)) = (&got, &case.reason) {
            assert!(e.to_string().contains(reason.as_str()), "{ctx}: {e}");
        }
        assert!(
            case.blocked == case.reason.is_some(),
            "{ctx}: a blocked case names its reason, an allowed one none"
        );
        count += 1;
    }
    assert!(count >= 200, "only {count} cases");
}
