//! Inputs shared by the criterion benches (`benches/engine.rs`), the profiling driver
//! (`src/bin/profile.rs`) and the memory figures (`src/bin/memory.rs`, `tests/memory.rs`),
//! so all measure exactly the same work; and the counting allocator of the memory figures.

pub mod alloc;
pub mod memory;

use chatmark::RawTextStyle;
use serde_json::Value;

/// The corpus: the shared 2,000 chat messages (`corpus/messages.jsonl`), plus the few long
/// inputs of `corpus/long.jsonl` when `with_long`, each as (markdown, HTML).
pub fn corpus(with_long: bool) -> (Vec<String>, Vec<String>) {
    let mut md = Vec::new();
    let mut html = Vec::new();
    let files: &[&str] = if with_long {
        &["messages.jsonl", "long.jsonl"]
    } else {
        &["messages.jsonl"]
    };
    for file in files {
        let path = format!("{}/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read_to_string(&path).unwrap_or_default();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            md.push(v["markdown"].as_str().unwrap_or_default().to_owned());
            html.push(v["html"].as_str().unwrap_or_default().to_owned());
        }
    }
    (md, html)
}

/// The CommonMark import's corpus (`corpus/answers.jsonl`, written by `corpus/answers.py`):
/// answers in the shape language models give bot users — headings, nested lists, tables,
/// fenced code, links, emphasis — each a `{"text"}` line.
pub fn answers() -> Vec<String> {
    let path = format!("{}/corpus/answers.jsonl", env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read_to_string(&path).unwrap_or_default();
    data.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|v| v["text"].as_str().map(str::to_owned))
        .collect()
}

/// The normalisation input: a text of about 300,000 UTF-16 units (emoji included, so
/// boundaries fall inside surrogate pairs) and 10^5 overlapping client runs over it.
pub fn normalize_input() -> (String, Vec<RawTextStyle<'static>>) {
    let text = "abcdefghij 😀 ".repeat(20_000);
    let units = chatmark::utf16_len(&text) as i64;
    let codes = ["b", "i", "c_db342e", "lst_1", "f_13", "u", "ind_2", "s"];
    let runs = (0..100_000i64)
        .map(|k| RawTextStyle {
            start: Some((k * 7919) % units),
            len: Some(1 + (k * 31) % 50),
            st: Some(vec![codes[(k % 8) as usize]]),
        })
        .collect();
    (text, runs)
}

/// Large pathological `sendMessage` bodies of about `n` bytes each, one per shape that makes
/// a parser keep state per input byte (delimiters, tags, code spans, lines, open elements,
/// client runs), for the peak-heap-per-input-byte figures: `(name, body JSON)`.
pub fn pathological_bodies(n: usize) -> Vec<(&'static str, String)> {
    let body = |text: String, mode: &str| -> String {
        serde_json::json!({"text": text, "parse_mode": mode}).to_string()
    };
    let rep = |s: &str| s.repeat(n / s.len());
    let runs: Vec<String> = (0..n / 40)
        .map(|k| format!(r#"{{"start":{k},"len":1,"st":["b"]}}"#))
        .collect();
    vec![
        (
            "markdown prose",
            body(rep("chat words and more words "), "markdown"),
        ),
        ("markdown **a** pairs", body(rep("**a** "), "markdown")),
        ("markdown *a*b alternation", body(rep("*a*b"), "markdown")),
        ("markdown *a openers", body(rep("*a "), "markdown")),
        (
            "markdown {red} pairs",
            body(rep("{red}a{/red} "), "markdown"),
        ),
        ("markdown {red} unclosed", body(rep("{red}a"), "markdown")),
        ("markdown list lines", body(rep("- a\n"), "markdown")),
        ("markdown `a` spans", body(rep("`a` "), "markdown")),
        ("markdown non-ASCII", body(rep("ж😀 **ж** "), "markdown")),
        (
            "html prose",
            body(rep("chat words and more words "), "html"),
        ),
        ("html <b>a</b>", body(rep("<b>a</b> "), "html")),
        ("html <i>a unclosed", body(rep("<i>a"), "html")),
        ("html <ul><li>", body(rep("<ul><li>a</li></ul>"), "html")),
        ("html &amp;", body(rep("&amp;a "), "html")),
        (
            "plain with client runs",
            format!(
                r#"{{"text":"{}","text_styles":[{}]}}"#,
                "a".repeat(n / 40),
                runs.join(",")
            ),
        ),
    ]
}
