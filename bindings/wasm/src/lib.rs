//! The wasm-bindgen binding of the chatmark engine, behind the npm package `chatmark`.
//!
//! A thin layer, like lol-html's JS binding: every function hands its arguments to the
//! engine and answers one JSON string, either a result in the wire shape
//! (`{"text","text_styles"}`, `{"text_styles"}`, …, plus `"diagnostics"` when asked) or
//! `{"error":{"code","field","message"}}`. The hand-written JS wrapper (`js/api.js`) parses
//! it and throws a `ChatmarkError` for the second kind. Values cross the boundary as JSON
//! text: `serde_json` is already in the engine (its lone-surrogate handling, L2, works on
//! JSON text), so the binding adds no marshalling code of its own. Nothing here panics:
//! every failure is an error value.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// L2, as in the engine: nothing outside tests may panic on what JS passes in.
#![cfg_attr(
    not(test),
    warn(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

use chatmark::{
    normalize_json, parse_with_diagnostics, resolve_json, Answer, Diagnostic, ErrorCode, Formatted,
    Limits, ParseMode, ResolveError, StyleCode, TextStyle,
};
use wasm_bindgen::prelude::*;

/// Serialises an answer; the engine's types always serialise, but a failure would still be
/// an error value rather than a panic.
fn to_json(answer: &Answer<'_>) -> String {
    serde_json::to_string(answer).unwrap_or_else(|_| {
        r#"{"error":{"code":"internal_error","field":"","message":"the answer could not be written as JSON"}}"#.to_owned()
    })
}

fn error_json(error: &ResolveError) -> String {
    to_json(&Answer::Error(error))
}

fn formatted_json(formatted: &Formatted, diagnostics: Option<&[Diagnostic]>) -> String {
    to_json(&Answer::Formatted {
        formatted,
        diagnostics,
    })
}

/// Parses `text` in `mode` (`markdown`, `html` or `plain`, ASCII-case-insensitive, R2):
/// `{"text","text_styles"}` (+ `"diagnostics"` when asked) or an `invalid_parse_mode` error.
#[wasm_bindgen]
pub fn parse(text: &str, mode: &str, diagnostics: bool) -> String {
    let Ok(mode) = mode.parse::<ParseMode>() else {
        return error_json(&ResolveError::new(
            ErrorCode::InvalidParseMode,
            "parse_mode",
            "parse_mode must be \"markdown\", \"html\" or \"plain\"",
        ));
    };
    let (formatted, diags) = parse_with_diagnostics(text, mode);
    formatted_json(&formatted, diagnostics.then_some(diags.as_slice()))
}

thread_local! {
    /// The runs of the last `parse_packed` call, until `take_runs` hands them over.
    static RUNS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The style set of a run as a bit mask: bit `k` for the `k`-th code of `STYLE_CODES`.
fn mask(run: &TextStyle) -> u32 {
    run.st.iter().fold(0, |m, c| m | 1 << (c as u32))
}

/// The fast path of `parse` (no diagnostics): returns the plain text and keeps the runs as
/// `u32` triples `(start, len, code mask)` for [`take_runs`]; `None` for an unknown mode,
/// which the JS wrapper then asks [`parse`] to explain. Skips JSON on both sides: most of a
/// call's cost for short messages.
#[wasm_bindgen]
pub fn parse_packed(text: &str, mode: &str) -> Option<String> {
    let mode = mode.parse::<ParseMode>().ok()?;
    let formatted = chatmark::parse(text, mode);
    let _ = RUNS.try_with(|runs| {
        if let Ok(mut runs) = runs.try_borrow_mut() {
            runs.clear();
            for r in &formatted.text_styles {
                // positions fit u32: wasm32's usize is 32 bits
                let pos = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
                runs.extend([pos(r.start), pos(r.len), mask(r)]);
            }
        }
    });
    Some(formatted.text)
}

/// The runs of the last [`parse_packed`] call, as `(start, len, code mask)` triples.
#[wasm_bindgen]
pub fn take_runs() -> Vec<u32> {
    RUNS.try_with(|runs| {
        runs.try_borrow_mut()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

/// Normalises client runs given as JSON text (N1–N6): `{"text_styles"}` (+ `"diagnostics"`)
/// or an error (`invalid_json`, `invalid_text_styles`).
#[wasm_bindgen]
pub fn normalize_styles(text: &str, styles_json: &str, diagnostics: bool) -> String {
    let result = normalize_json(text, styles_json, &Limits::default());
    match result {
        Ok((runs, diags)) => to_json(&Answer::Styles {
            text_styles: &runs,
            diagnostics: diagnostics.then_some(diags.as_slice()),
        }),
        Err(error) => error_json(&error),
    }
}

/// Resolves a `sendMessage` body given as JSON text (R1–R8; R5 only when `check_chat_id`).
/// `max_text_len` and `max_text_styles` default to [`Limits::default`]; `0` lifts a limit.
#[wasm_bindgen]
pub fn resolve(
    body_json: &str,
    check_chat_id: bool,
    max_text_len: Option<u32>,
    max_text_styles: Option<u32>,
    diagnostics: bool,
) -> String {
    let defaults = Limits::default();
    let limits = Limits {
        max_text_len: max_text_len.map_or(defaults.max_text_len, |n| n as usize),
        max_text_styles: max_text_styles.map_or(defaults.max_text_styles, |n| n as usize),
    };
    resolve_with(body_json, &limits, check_chat_id, diagnostics)
}

/// The JSONL conformance contract for one input line, exactly as `chatmark --jsonl`
/// answers it: the body resolved without the `chat_id` check and with the default limits.
#[wasm_bindgen]
pub fn resolve_jsonl(line: &str) -> String {
    resolve_with(line, &Limits::default(), false, false)
}

fn resolve_with(
    body_json: &str,
    limits: &Limits,
    check_chat_id: bool,
    diagnostics: bool,
) -> String {
    let resolved = resolve_json(body_json, limits, check_chat_id);
    match resolved {
        Ok(r) => formatted_json(
            &r.formatted,
            diagnostics.then_some(r.diagnostics.as_slice()),
        ),
        Err(error) => error_json(&error),
    }
}

/// Reads a message to render from JSON text: `text` (a string) and optional `text_styles`,
/// normalised (N1–N6) so that any input renders.
fn formatted_from_json(formatted_json: &str) -> Result<Formatted, ResolveError> {
    Formatted::from_json(formatted_json, &Limits::default())
}

/// Renders a message `{"text","text_styles"?}` given as JSON text as an HTML fragment (W1):
/// `{"html"}` or an error.
#[wasm_bindgen]
pub fn to_html(formatted_json: &str) -> String {
    match formatted_from_json(formatted_json) {
        Ok(f) => to_json(&Answer::Html(&f.to_html())),
        Err(error) => error_json(&error),
    }
}

/// Renders a message given as JSON text as markdown (W2): `{"markdown","lossless",
/// "unexpressed":[{"start","len","what","code"?}]}` or an error.
#[wasm_bindgen]
pub fn to_markdown(formatted_json: &str) -> String {
    match formatted_from_json(formatted_json) {
        Ok(f) => to_json(&Answer::Markdown(&f.to_markdown())),
        Err(error) => error_json(&error),
    }
}

/// The closed set of style codes in table order (spec 1.1), as a JSON array.
#[wasm_bindgen]
pub fn style_codes() -> String {
    let codes: Vec<&str> = StyleCode::ALL.iter().map(|c| c.as_str()).collect();
    serde_json::to_string(&codes).unwrap_or_else(|_| "[]".to_owned())
}

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &str) -> serde_json::Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn parse_answers_the_wire_shape() {
        let v = json(&parse("**a** b", "Markdown", false));
        assert_eq!(
            v,
            json(r#"{"text":"a b","text_styles":[{"start":0,"len":1,"st":["b"]}]}"#)
        );
        let v = json(&parse("{red}x", "markdown", true));
        assert_eq!(v["diagnostics"][0]["code"], "unclosed_tag");
        let v = json(&parse("x", "rtf", false));
        assert_eq!(v["error"]["code"], "invalid_parse_mode");
        assert_eq!(v["error"]["field"], "parse_mode");
    }

    #[test]
    fn normalize_reads_arrays_and_comma_strings() {
        let v = json(&normalize_styles(
            "abcd",
            r#"[{"start":0,"len":2,"st":"i, b"},{"start":1,"len":9,"st":["zz"]}]"#,
            true,
        ));
        assert_eq!(
            v["text_styles"],
            json(r#"[{"start":0,"len":2,"st":["b","i"]}]"#)
        );
        assert_eq!(v["diagnostics"].as_array().unwrap().len(), 2);
        assert_eq!(
            json(&normalize_styles("a", "{}", false))["error"]["code"],
            "invalid_text_styles"
        );
        assert_eq!(
            json(&normalize_styles("a", "[", false))["error"]["code"],
            "invalid_json"
        );
    }

    #[test]
    fn resolve_checks_chat_id_and_limits() {
        let body = r#"{"text":"<b>hi</b>","parse_mode":"HTML"}"#;
        assert_eq!(
            json(&resolve(body, true, None, None, false))["error"]["code"],
            "missing_chat_id"
        );
        assert!(json(&resolve(body, false, None, None, false))["text"].is_string());
        let long = r#"{"text":"abcdef"}"#;
        assert_eq!(
            json(&resolve(long, false, Some(3), None, false))["error"]["code"],
            "text_too_long"
        );
        assert_eq!(
            json(&resolve(long, false, Some(0), None, false))["text"],
            "abcdef"
        );
    }

    #[test]
    fn jsonl_matches_the_cli_contract() {
        let v = json(&resolve_jsonl("not json"));
        assert_eq!(v["error"]["code"], "invalid_json");
        assert_eq!(v["error"]["field"], "body");
        // L2: a lone surrogate escape reads as U+FFFD, one UTF-16 unit, so offsets hold
        let v = json(&resolve_jsonl(
            r#"{"text":"\ud800*a*","parse_mode":"markdown"}"#,
        ));
        assert_eq!(v["text"], "\u{FFFD}a");
        assert_eq!(v["text_styles"][0]["start"], 1);
    }

    #[test]
    fn renders_html_and_markdown_w1_w2() {
        let f = r#"{"text":"a <b>","text_styles":[{"start":0,"len":1,"st":"b"}]}"#;
        let html = json(&to_html(f));
        assert!(html["html"].as_str().unwrap().contains("&lt;b&gt;"));
        let md = json(&to_markdown(f));
        assert_eq!(md["lossless"], true);
        assert_eq!(md["unexpressed"], json("[]"));
        let small = json(&to_markdown(
            r#"{"text":"ab","text_styles":[{"start":1,"len":1,"st":["f_13"]}]}"#,
        ));
        assert_eq!(small["lossless"], false);
        assert_eq!(
            small["unexpressed"],
            json(r#"[{"start":1,"len":1,"what":"code","code":"f_13"}]"#)
        );
        assert_eq!(json(&to_html("{}"))["error"]["code"], "missing_text");
        assert_eq!(json(&to_markdown("["))["error"]["code"], "invalid_json");
    }

    #[test]
    fn style_codes_and_version() {
        let codes = json(&style_codes());
        assert_eq!(codes.as_array().unwrap().len(), 20);
        assert_eq!(codes[0], "b");
        assert_eq!(version(), env!("CARGO_PKG_VERSION"));
    }
}
