//! Runs every conformance-shaped JSONL file of `tests/data/` (public vectors, converted
//! external suites, our own cases) through `resolve_json`, as the JSONL contract does.
//! One harness, data only: each line is `{"id", "rule", "input" | "input_json", "expect" |
//! "expect_error"}`; `input` is handed over as the text it is written with, and
//! `input_json` is a string holding a body's JSON text verbatim (for bodies that a JSON
//! value cannot hold, such as `1e400`, N1).

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// One line: the input's JSON text as written, and the rest as values.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
    #[serde(default)]
    input_json: Option<String>,
}

const FILES: &[&str] = &[
    "conformance.jsonl",
    "json_reading.jsonl",
    "commonmark-emphasis.jsonl",
    "openclaw-zalo.jsonl",
    "tdlib-html.jsonl",
    "html_semantics.jsonl",
    "cases.jsonl",
];

/// What the JSONL contract prints for one body.
fn answer(input: &str) -> Value {
    match chatmark::resolve_json(input, &chatmark::Limits::default(), false) {
        Ok(r) => serde_json::to_value(&r.formatted).unwrap(),
        Err(e) => json!({ "error": e }),
    }
}

fn matches(v: &Value, got: &Value) -> bool {
    match v.get("expect_error") {
        Some(code) => got["error"]["code"] == *code,
        None => got == &v["expect"],
    }
}

#[test]
fn every_vector_file_passes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut failures = Vec::new();
    let mut total = 0;
    for file in FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        let mut passed = 0;
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let raw: Line<'_> = serde_json::from_str(line).unwrap();
            let input = match (&raw.input, &raw.input_json) {
                (Some(input), _) => input.get(),
                (None, Some(json)) => json,
                (None, None) => panic!("{file}: a line without input: {line}"),
            };
            let got = answer(input);
            if matches(&v, &got) {
                passed += 1;
            } else {
                failures.push(format!(
                    "{file} {} [{}]\n  input: {}\n  want:  {}\n  got:   {}",
                    v["id"],
                    v["rule"],
                    input.chars().take(300).collect::<String>(),
                    v.get("expect").unwrap_or(&v["expect_error"]),
                    got
                ));
            }
            total += 1;
        }
        println!("{file}: {passed} passed");
    }
    assert!(total > 400, "too few vectors read: {total}");
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every markdown text of the vector files through the UTF-16 entry points: the same text,
/// runs and diagnostics as through UTF-8, which the test above checks against the vectors.
#[test]
fn every_markdown_vector_reads_alike_from_utf16() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut total = 0;
    for file in FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let input = &v["input"];
            let markdown = input["parse_mode"]
                .as_str()
                .is_some_and(|m| m.eq_ignore_ascii_case("markdown"));
            let Some(text) = input["text"].as_str().filter(|_| markdown) else {
                continue;
            };
            let units: Vec<u16> = text.encode_utf16().collect();
            let (want, want_diags) = chatmark::parse_markdown_with_diagnostics(text);
            let (got, got_diags) = chatmark::parse_markdown_utf16_with_diagnostics(&units);
            assert_eq!(got.to_formatted(), want, "{file} {}", v["id"]);
            assert_eq!(got_diags, want_diags, "{file} {}", v["id"]);
            assert_eq!(
                chatmark::parse_markdown_utf16(&units),
                got,
                "{file} {}",
                v["id"]
            );
            total += 1;
        }
    }
    assert!(total > 200, "too few markdown vectors read: {total}");
}

/// Every HTML text of the vector files through the UTF-16 entry points: the same text, runs
/// and diagnostics as through UTF-8 with the same (own) tokenizer.
#[test]
fn every_html_vector_reads_alike_from_utf16() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut total = 0;
    for file in FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let input = &v["input"];
            let html = input["parse_mode"]
                .as_str()
                .is_some_and(|m| m.eq_ignore_ascii_case("html"));
            let Some(text) = input["text"].as_str().filter(|_| html) else {
                continue;
            };
            let units: Vec<u16> = text.encode_utf16().collect();
            let (want, want_diags) =
                chatmark::html::parse_html_with(text, chatmark::html::Backend::Own);
            let (got, got_diags) = chatmark::parse_html_utf16_with_diagnostics(&units);
            assert_eq!(got.to_formatted(), want, "{file} {}", v["id"]);
            assert_eq!(got_diags, want_diags, "{file} {}", v["id"]);
            assert_eq!(
                chatmark::parse_html_utf16(&units),
                got,
                "{file} {}",
                v["id"]
            );
            total += 1;
        }
    }
    assert!(total > 200, "too few HTML vectors read: {total}");
}
