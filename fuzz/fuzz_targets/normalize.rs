//! Normalisation of arbitrary JSON `text_styles` (N1–N6): canonical form, idempotent, and
//! equal to the naive per-UTF-16-unit model. Input: the text, a NUL byte, then the JSON.
#![no_main]
use chatmark::{normalize, Formatted, RawTextStyle};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/chatmark/tests/support/naive.rs"]
mod naive;
#[path = "../../crates/chatmark/tests/support/json_oracle.rs"]
mod json_oracle;

fuzz_target!(|data: &[u8]| {
    let (text, json) = match data.iter().position(|&b| b == 0) {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => (data, &b"[]"[..]),
    };
    let text = String::from_utf8_lossy(text);
    let json = String::from_utf8_lossy(json);
    let Ok(styles) = chatmark::json_from_str_lossy::<serde_json::Value>(&json) else {
        return;
    };
    let limits = chatmark::Limits { max_text_styles: 0, ..Default::default() };
    let Ok((runs, _)) = chatmark::normalize_json(&text, &json, &limits) else {
        assert!(!styles.is_array());
        return;
    };
    let f = Formatted { text: text.to_string(), text_styles: runs.clone() };
    if let Err(rule) = f.check_canonical() {
        panic!("{rule}: {text:?} {styles}");
    }
    let raw: Vec<RawTextStyle<'_>> = styles
        .as_array()
        .map(|a| a.iter().map(json_oracle::raw_style).collect())
        .unwrap_or_default();
    assert_eq!(runs, naive::naive(&text, &raw), "naive model differs: {text:?} {styles}");
    let again: Vec<RawTextStyle<'_>> = runs.iter().map(RawTextStyle::from).collect();
    assert_eq!(normalize(&text, &again).0, runs, "not idempotent");
});
