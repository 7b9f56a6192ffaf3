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

/// A dialect's name, its UTF-8 parse (the own tokenizer for HTML) and its UTF-16 entry
/// points, with and without diagnostics.
type Dialect = (
    &'static str,
    fn(&str) -> (chatmark::Formatted, Vec<chatmark::Diagnostic>),
    fn(&[u16]) -> (chatmark::FormattedUtf16, Vec<chatmark::Diagnostic>),
    fn(&[u16]) -> chatmark::FormattedUtf16,
);

fn html_own(text: &str) -> (chatmark::Formatted, Vec<chatmark::Diagnostic>) {
    chatmark::html::parse_html_with(text, chatmark::html::Backend::Own)
}

/// Every markdown and HTML text of the vector files through the UTF-16 entry points: the
/// same text, runs and diagnostics as through UTF-8, which the test above checks against
/// the vectors.
#[test]
fn every_vector_text_reads_alike_from_utf16() {
    let dialects: [Dialect; 2] = [
        (
            "markdown",
            chatmark::parse_markdown_with_diagnostics,
            chatmark::parse_markdown_utf16_with_diagnostics,
            chatmark::parse_markdown_utf16,
        ),
        (
            "html",
            html_own,
            chatmark::parse_html_utf16_with_diagnostics,
            chatmark::parse_html_utf16,
        ),
    ];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut total = [0; 2];
    for file in FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let input = &v["input"];
            let (Some(text), Some(mode)) = (input["text"].as_str(), input["parse_mode"].as_str())
            else {
                continue;
            };
            for (k, &(name, utf8, utf16, plain16)) in dialects.iter().enumerate() {
                if !mode.eq_ignore_ascii_case(name) {
                    continue;
                }
                let units: Vec<u16> = text.encode_utf16().collect();
                let (want, want_diags) = utf8(text);
                let (got, got_diags) = utf16(&units);
                assert_eq!(got.to_formatted(), want, "{file} {}", v["id"]);
                assert_eq!(got_diags, want_diags, "{file} {}", v["id"]);
                assert_eq!(plain16(&units), got, "{file} {}", v["id"]);
                total[k] += 1;
            }
        }
    }
    assert!(
        total.iter().all(|&n| n > 200),
        "too few vectors read: {total:?}"
    );
}

/// The import vectors (spec section 9): each `{"text"}` body read as CommonMark, as
/// `chatmark import --jsonl` answers it. `import.jsonl` is the public copy; `import_rules.jsonl`
/// holds our own cases, at least one per rule M1–M11.
#[test]
fn every_import_vector_passes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut failures = Vec::new();
    let mut rules = std::collections::BTreeSet::new();
    let mut total = 0;
    for file in ["import.jsonl", "import_rules.jsonl"] {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let raw: Line<'_> = serde_json::from_str(line).unwrap();
            let input = match (&raw.input, &raw.input_json) {
                (Some(input), _) => input.get(),
                (None, Some(json)) => json,
                (None, None) => panic!("{file}: a line without input: {line}"),
            };
            let got = match chatmark::import_json(input) {
                Ok(f) => {
                    if let Err(rule) = f.check_canonical() {
                        failures.push(format!("{file} {}: {rule}", v["id"]));
                    }
                    serde_json::to_value(&f).unwrap()
                }
                Err(e) => json!({ "error": e }),
            };
            if !matches(&v, &got) {
                failures.push(format!(
                    "{file} {} [{}]\n  input: {}\n  want:  {}\n  got:   {}",
                    v["id"],
                    v["rule"],
                    input.chars().take(300).collect::<String>(),
                    v.get("expect").unwrap_or(&v["expect_error"]),
                    got
                ));
            }
            for rule in v["rule"].as_str().unwrap_or_default().split([',', ' ']) {
                rules.insert(rule.to_owned());
            }
            total += 1;
        }
    }
    let missing: Vec<String> = (1..=11)
        .map(|k| format!("M{k}"))
        .filter(|r| !rules.contains(r))
        .collect();
    assert!(missing.is_empty(), "no import case for {missing:?}");
    assert!(
        failures.is_empty(),
        "{} of {total} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The split vectors (spec section 8), public and our own: each line's `input` is a body
/// with `limit`, split as `chatmark split --jsonl` does, against `expect_parts` or
/// `expect_error`.
const SPLIT_FILES: &[&str] = &["split.jsonl", "split_cases.jsonl"];

#[test]
fn every_split_vector_passes_s1_s5() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut failures = Vec::new();
    let mut total = 0;
    for file in SPLIT_FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let raw: Line<'_> = serde_json::from_str(line).unwrap();
            let input = raw.input.unwrap().get();
            let got = match chatmark::split_json(input, &chatmark::Limits::default()) {
                Ok(parts) => json!({ "parts": parts }),
                Err(e) => json!({ "error": e }),
            };
            let ok = match v.get("expect_error") {
                Some(code) => got["error"]["code"] == *code,
                None => got["parts"] == v["expect_parts"],
            };
            if !ok {
                failures.push(format!("{file} {} [{}]\n  got: {got}", v["id"], v["rule"]));
            }
            total += 1;
        }
    }
    assert!(total >= 50, "too few split vectors read: {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every split vector's message split from UTF-16 units gives the parts of UTF-8 text.
#[test]
fn split_vectors_split_alike_from_utf16_s5() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    for file in SPLIT_FILES {
        let data = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            let Some(limit) = v["input"]["limit"].as_u64() else {
                continue;
            };
            let body = v["input"].to_string();
            let Ok(r) = chatmark::resolve_json(
                &body,
                &chatmark::Limits {
                    max_text_len: 0,
                    ..Default::default()
                },
                false,
            ) else {
                continue;
            };
            let f = r.formatted;
            let f16 = chatmark::FormattedUtf16 {
                text: f.text.encode_utf16().collect(),
                text_styles: f.text_styles.clone(),
            };
            let a = chatmark::split(&f, limit as usize);
            let b = chatmark::split_utf16(&f16, limit as usize).map(|parts| {
                parts
                    .iter()
                    .map(chatmark::FormattedUtf16::to_formatted)
                    .collect::<Vec<_>>()
            });
            assert_eq!(a, b, "{file} {}", v["id"]);
        }
    }
}
