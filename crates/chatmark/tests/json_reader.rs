//! The streaming JSON reader against the naive one (N1, N2, N6, R1–R3, R6, R8): for random
//! bodies that a `serde_json::Value` can hold, `resolve_json` on the text gives exactly what
//! resolution of the naively read value gives, with or without the `chat_id` check and with
//! any run cap; and whitespace between tokens changes nothing.
#![cfg(not(target_arch = "wasm32"))]

use chatmark::{resolve, resolve_json, resolve_text, Limits};
use proptest::prelude::*;
use serde_json::{json, Value};

#[path = "support/json_oracle.rs"]
mod json_oracle;

/// Any JSON scalar, biased toward the numbers and strings N1 and N2 judge.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..12).prop_map(Value::from),
        prop::sample::select(vec![0.0, 1.0, 2.5, -0.0, 1e300, -1e300, 3e0, 1e19])
            .prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(vec![
            "b", "i", "b, i", " u ,s", "c_db342e", "zz", "", "lst_1", "3"
        ])
        .prop_map(Value::from),
    ]
}

fn run() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (scalar(), scalar(), prop_oneof![
            scalar(),
            prop::collection::vec(scalar(), 0..4).prop_map(Value::from),
        ])
            .prop_map(|(s, l, st)| json!({"start": s, "len": l, "st": st})),
        1 => scalar(),
        1 => Just(json!({"start": 0, "len": 1, "st": ["b"], "extra": [[1], {"a": null}]})),
    ]
}

fn body() -> impl Strategy<Value = Value> {
    let text = prop::sample::select(vec!["", "ab", "**a** b", "<b>x</b>", "😀a\nb", "- "]);
    let mode = prop::sample::select(vec!["markdown", "html", "HTML", "plain", "rtf"]);
    (
        prop::option::of(prop_oneof![text.prop_map(Value::from), scalar()]),
        prop::option::of(prop_oneof![mode.prop_map(Value::from), scalar()]),
        prop::option::of(prop_oneof![
            prop::collection::vec(run(), 0..6).prop_map(Value::from),
            scalar(),
        ]),
        prop::option::of(scalar()),
        prop::option::of(prop::collection::vec(scalar(), 0..3).prop_map(Value::from)),
    )
        .prop_map(|(text, mode, styles, chat_id, other)| {
            let mut m = serde_json::Map::new();
            for (k, v) in [
                ("other", other),
                ("chat_id", chat_id),
                ("text", text),
                ("parse_mode", mode),
                ("text_styles", styles),
            ] {
                if let Some(v) = v {
                    m.insert(k.to_owned(), v);
                }
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn streaming_reader_equals_the_naive_reading(v in body(), cap in 0usize..4, pretty: bool) {
        let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.unwrap();
        let limits = Limits { max_text_styles: cap, ..Limits::default() };
        let naive = json_oracle::send_message(&v);
        prop_assert_eq!(resolve_json(&text, &limits, true), resolve(&naive, &limits));
        prop_assert_eq!(resolve_json(&text, &limits, false), resolve_text(&naive, &limits));
    }
}

/// L3 on every path of resolution: at most 1,000 diagnostics, the first by position, for
/// client runs (which report in array order as they are read) and for markup whose ignored
/// `text_styles` adds one more to the parser's own.
#[test]
fn every_path_reports_at_most_1000_diagnostics_first_by_position() {
    const MAX: usize = 1000;
    let lifted = Limits {
        max_text_len: 100_000,
        ..Limits::default()
    };
    let sorted = |d: &[chatmark::Diagnostic]| d.windows(2).all(|w| w[0].start <= w[1].start);

    // 5,000 runs, each with an unknown code, listed from the last position to the first
    let runs: Vec<Value> = (0..5000)
        .rev()
        .map(|s| json!({"start": s, "len": 1, "st": ["zz", "b"]}))
        .collect();
    let body = json!({"text": "a".repeat(5000), "text_styles": runs}).to_string();
    let d = resolve_json(&body, &lifted, false).unwrap().diagnostics;
    assert_eq!(d.len(), MAX);
    assert!(sorted(&d));
    assert_eq!((d[0].start, d[MAX - 1].start), (0, MAX - 1));

    // markup with more notes than the cap, and text_styles given: the ignored notice is first
    for (mode, unit) in [("markdown", "{red}"), ("html", "<a>x")] {
        let body = json!({"text": unit.repeat(MAX + 1), "parse_mode": mode, "text_styles": []})
            .to_string();
        let d = resolve_json(&body, &lifted, false).unwrap().diagnostics;
        assert_eq!(d.len(), MAX, "{mode}");
        assert_eq!(d[0].code.as_str(), "text_styles_ignored", "{mode}");
        assert!(sorted(&d), "{mode}");
    }
}
