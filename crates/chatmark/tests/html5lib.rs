//! html5lib-tests tokenizer conformance for both HTML tokenizers (H1).
//!
//! Data: `tests/data/html5lib/` (vendored unchanged, see its README.md). Selected: the cases
//! that run in the data state (no `initialStates`, or a list containing "Data state", which is
//! then the only one run), with `doubleEscaped` inputs decoded (cases whose decoding gives a
//! lone surrogate cannot be a Rust string and are skipped). Expected `Comment` and `DOCTYPE`
//! tokens are dropped (both tokenizers omit them) and adjacent `Character` tokens merged on
//! both sides; `errors` are ignored.
//!
//! Pass counts (all selected cases pass, for the own tokenizer and for the html5ever backend):
//!
//! | file                   | in file | selected | own   | html5ever |
//! | ---------------------- | ------- | -------- | ----- | --------- |
//! | `entities.test`        |      80 |       80 |    80 |        80 |
//! | `namedEntities.test`   |    4210 |     4210 |  4210 |      4210 |
//! | `numericEntities.test` |     336 |      336 |   336 |       336 |
//! | `test1.test`           |      69 |       56 |    56 |        56 |
//! | `test2.test`           |      45 |       45 |    45 |        45 |
//! | `test3.test`           |    1590 |     1541 |  1541 |      1541 |
//! | `test4.test`           |      85 |       85 |    85 |        85 |
//! | total                  |    6415 |     6353 |  6353 |      6353 |
//!
//! (test1: 13 cases run only in the script data state; test3: 49 cases list only non-data
//! states. None of these files uses `doubleEscaped`, so none is skipped for a lone surrogate.)
//!
//! Also: every case of `tests/data/html5lib-entities.jsonl` (the suite's entity cases as
//! chatmark vectors) gives its expected text as the concatenated text and reference output.
// a test may panic: the methods clippy.toml keeps out of the engine are fine here
#![allow(clippy::disallowed_methods)]

mod common;

use common::Tok;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

const FILES: [&str; 7] = [
    "entities.test",
    "namedEntities.test",
    "numericEntities.test",
    "test1.test",
    "test2.test",
    "test3.test",
    "test4.test",
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Decodes the `\uXXXX` escapes of a `doubleEscaped` string; `None` on a lone surrogate.
fn unescape(s: &str) -> Option<String> {
    let mut units: Vec<u16> = Vec::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("\\u") {
        let (head, tail) = rest.split_at(p);
        units.extend(head.encode_utf16());
        let hex = tail.get(2..6)?;
        units.push(u16::from_str_radix(hex, 16).ok()?);
        rest = tail.get(6..)?;
    }
    units.extend(rest.encode_utf16());
    String::from_utf16(&units).ok()
}

/// Applies `f` to every string inside `v`.
fn map_strings(v: &Value, f: &dyn Fn(&str) -> Option<String>) -> Option<Value> {
    Some(match v {
        Value::String(s) => Value::String(f(s)?),
        Value::Array(a) => {
            Value::Array(a.iter().map(|x| map_strings(x, f)).collect::<Option<_>>()?)
        }
        Value::Object(o) => {
            let mut m = Map::new();
            for (k, x) in o {
                m.insert(f(k)?, map_strings(x, f)?);
            }
            Value::Object(m)
        }
        other => other.clone(),
    })
}

/// Merges adjacent `Character` tokens.
fn merge_chars(tokens: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if t.get(0).and_then(Value::as_str) == Some("Character") {
            let data = t.get(1).and_then(Value::as_str).unwrap_or_default();
            if let Some(last) = out.last_mut() {
                if last.get(0).and_then(Value::as_str) == Some("Character") {
                    let merged = format!(
                        "{}{}",
                        last.get(1).and_then(Value::as_str).unwrap_or_default(),
                        data
                    );
                    *last = json!(["Character", merged]);
                    continue;
                }
            }
        }
        out.push(t);
    }
    out
}

/// Our token stream in html5lib's notation.
fn to_html5lib(tokens: &[Tok]) -> Vec<Value> {
    let list = tokens
        .iter()
        .map(|t| match t {
            Tok::Text(s) | Tok::Ref(s) => json!(["Character", s]),
            Tok::Start(name, attrs, self_closing, _) => {
                let mut m = Map::new();
                for (k, v) in attrs {
                    m.insert(k.clone(), json!(v));
                }
                if *self_closing {
                    json!(["StartTag", name, m, true])
                } else {
                    json!(["StartTag", name, m])
                }
            }
            Tok::End(name, _) => json!(["EndTag", name]),
        })
        .collect();
    merge_chars(list)
}

/// One selected case: description, input, expected tokens (comments/doctypes dropped).
struct Case {
    description: String,
    input: String,
    expected: Vec<Value>,
}

/// The cases of one file that apply to a data-state tokenizer.
fn select(file: &str) -> Vec<Case> {
    let path = data_dir().join("html5lib").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("test file is JSON");
    let mut cases = Vec::new();
    for t in json["tests"].as_array().expect("tests array") {
        if let Some(states) = t.get("initialStates").and_then(Value::as_array) {
            if !states.iter().any(|s| s == "Data state") {
                continue;
            }
        }
        let double = t.get("doubleEscaped").and_then(Value::as_bool) == Some(true);
        let decode = |s: &str| {
            if double {
                unescape(s)
            } else {
                Some(s.to_owned())
            }
        };
        let Some(input) = t["input"].as_str().and_then(decode) else {
            continue;
        };
        let Some(Value::Array(output)) = map_strings(&t["output"], &decode) else {
            continue;
        };
        let expected = output
            .into_iter()
            .filter(|tok| {
                !matches!(
                    tok.get(0).and_then(Value::as_str),
                    Some("Comment" | "DOCTYPE")
                )
            })
            .collect();
        cases.push(Case {
            description: t["description"].as_str().unwrap_or_default().to_owned(),
            input,
            expected: merge_chars(expected),
        });
    }
    cases
}

/// Runs every selected case through `tokenize`; prints a per-file report and the failures;
/// returns (selected, passed) per file.
fn run_suite(backend: &str, tokenize: fn(&str) -> Vec<Tok>) -> Vec<(String, usize, usize)> {
    let mut report = Vec::new();
    for file in FILES {
        let cases = select(file);
        let mut passed = 0;
        for case in &cases {
            let got = to_html5lib(&tokenize(&case.input));
            if got == case.expected {
                passed += 1;
            } else {
                println!(
                    "FAIL [{backend}] {file}: {}\n  input:    {:?}\n  expected: {}\n  got:      {}",
                    case.description,
                    case.input,
                    Value::Array(case.expected.clone()),
                    Value::Array(got)
                );
            }
        }
        println!(
            "[{backend}] {file}: selected {}, passed {passed}, failed {}",
            cases.len(),
            cases.len() - passed
        );
        report.push((file.to_owned(), cases.len(), passed));
    }
    report
}

fn assert_all_pass(report: &[(String, usize, usize)]) {
    let selected: usize = report.iter().map(|r| r.1).sum();
    let passed: usize = report.iter().map(|r| r.2).sum();
    println!("total: selected {selected}, passed {passed}");
    assert!(selected > 6000, "too few cases selected: {selected}");
    assert_eq!(passed, selected, "some html5lib cases failed (see output)");
}

#[test]
fn html5lib_own_tokenizer() {
    assert_all_pass(&run_suite("own", common::own));
}

#[cfg(feature = "html5ever")]
#[test]
fn html5lib_html5ever_backend() {
    assert_all_pass(&run_suite("html5ever", common::html5ever));
}

/// The chatmark-vector form of the suite's entity cases: text only, no tags.
fn entity_vectors(tokenize: fn(&str) -> Vec<Tok>) {
    let path = data_dir().join("html5lib-entities.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let (mut n, mut failed) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("JSONL line");
        let input = case["input"]["text"].as_str().expect("input.text");
        let expect = case["expect"]["text"].as_str().expect("expect.text");
        let got: String = tokenize(input)
            .iter()
            .map(|t| match t {
                Tok::Text(s) | Tok::Ref(s) => s.as_str(),
                _ => "",
            })
            .collect();
        n += 1;
        if got != expect {
            failed += 1;
            println!(
                "FAIL {}: {input:?} -> {got:?}, expected {expect:?}",
                case["id"]
            );
        }
    }
    println!("html5lib-entities.jsonl: {n} cases, {failed} failed");
    assert!(n > 4000);
    assert_eq!(failed, 0);
}

#[test]
fn entity_vectors_own_tokenizer() {
    entity_vectors(common::own);
}

#[cfg(feature = "html5ever")]
#[test]
fn entity_vectors_html5ever_backend() {
    entity_vectors(common::html5ever);
}
