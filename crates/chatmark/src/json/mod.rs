//! JSON boundary (feature `serde`): reads sendMessage bodies and client runs from
//! `serde_json` values as N1, N2, N6 and R1–R3 judge them, turns lone surrogate escapes into
//! U+FFFD before parsing (L2), and writes results and errors in the wire shape.

mod read;
mod write;

pub use write::Answer;

use serde_json::Value;

use crate::normalize::normalize;
use crate::resolve::{resolve, resolve_text, Field, Limits, Resolved, SendMessage};
use crate::{split, Diagnostic, ErrorCode, Formatted, ResolveError, TextStyle};
use read::{read_runs, replace_lone_surrogates, Body};

fn invalid_json(field: &'static str, e: &serde_json::Error) -> ResolveError {
    ResolveError::new(
        ErrorCode::InvalidJson,
        field,
        format!("{field} is not JSON: {e}"),
    )
}

/// Resolves a `sendMessage` body given as JSON text: a whole request when `check_chat_id`
/// (R5), else only its formatting, as the JSONL tools do. Numbers are read by value and
/// saturate (N1), ignored fields are skipped unread, `text_styles` entries past
/// `limits.max_text_styles` are counted without being kept (R6), and text that is not JSON
/// answers `invalid_json`.
///
/// # Examples
///
/// ```
/// let body = r#"{"text": "**a**", "parse_mode": "markdown", "x": 1e400}"#;
/// let r = chatmark::resolve_json(body, &Default::default(), false).unwrap();
/// assert_eq!(r.formatted.text, "a");
/// assert!(chatmark::resolve_json(body, &Default::default(), true).is_err()); // no chat_id
/// assert_eq!(chatmark::resolve_json("{oops", &Default::default(), false).unwrap_err().code.as_str(), "invalid_json");
/// ```
pub fn resolve_json(
    body: &str,
    limits: &Limits,
    check_chat_id: bool,
) -> Result<Resolved, ResolveError> {
    let body = replace_lone_surrogates(body);
    let body = Body::read(&body, limits.max_text_styles).map_err(|e| invalid_json("body", &e))?;
    let body = body.send_message();
    if check_chat_id {
        resolve(&body, limits)
    } else {
        resolve_text(&body, limits)
    }
}

/// Splits a body given as JSON text, `{"text", "parse_mode"?, "text_styles"?, "limit"?}`, as
/// `chatmark split --jsonl` does (spec section 8): formats it as [`resolve_json`] does
/// without `chat_id` but also without R1's length limit (long texts are what it is for),
/// then [`split()`]s it. An empty text, or one empty once formatted (R4), gives no parts.
/// `limit` (UTF-16 units) defaults to `limits.max_text_len` (R1's limit: every part fits
/// it; no limit when that is 0); one that is not an integral number of at least 2 answers
/// `invalid_limit` (S1), after the body's own errors.
///
/// # Examples
///
/// ```
/// let limits = chatmark::Limits::default();
/// let parts = chatmark::split_json(r#"{"text": "**one** two", "parse_mode": "markdown", "limit": 4}"#, &limits).unwrap();
/// assert_eq!(parts.len(), 2);
/// assert_eq!(parts[0].text, "one");
/// assert!(chatmark::split_json(r#"{"text": ""}"#, &limits).unwrap().is_empty());
/// let e = chatmark::split_json(r#"{"text": "x", "limit": 1}"#, &limits).unwrap_err();
/// assert_eq!(e.code.as_str(), "invalid_limit");
/// ```
pub fn split_json(body: &str, limits: &Limits) -> Result<Vec<Formatted>, ResolveError> {
    let body = replace_lone_surrogates(body);
    let body = Body::read(&body, limits.max_text_styles).map_err(|e| invalid_json("body", &e))?;
    let msg = body.send_message();
    let unlimited = Limits {
        max_text_len: 0,
        ..*limits
    };
    let empty = |e: &ResolveError| e.code == ErrorCode::EmptyAfterFormatting;
    let formatted = match resolve_text(&msg, &unlimited) {
        Ok(r) => r.formatted,
        Err(e) if empty(&e) => Formatted::default(),
        Err(e) if e.code == ErrorCode::TextEmpty => {
            // nothing to split, once the other fields have passed their checks
            let probe = SendMessage {
                text: Field::Value(" "),
                ..msg.clone()
            };
            match resolve_text(&probe, &unlimited) {
                Err(e) if !empty(&e) => return Err(e),
                _ => Formatted::default(),
            }
        }
        Err(e) => return Err(e),
    };
    let limit = match body.limit() {
        Field::Absent | Field::Null if limits.max_text_len == 0 => usize::MAX,
        Field::Absent | Field::Null => limits.max_text_len,
        Field::Value(n) if n >= 2 => usize::try_from(n).unwrap_or(usize::MAX),
        Field::Value(n) => return Err(invalid_limit(&format!(", not {n}"))),
        Field::Invalid => return Err(invalid_limit("")),
    };
    Ok(split(&formatted, limit)?)
}

/// S1's error for a split body's `limit`, with what it was when that helps.
fn invalid_limit(what: &str) -> ResolveError {
    ResolveError::new(
        ErrorCode::InvalidLimit,
        "limit",
        format!("limit must be an integer of at least 2{what}"),
    )
}

/// Normalises client runs given as a JSON `text_styles` array (N1–N6): `invalid_json` when it
/// is not JSON, `invalid_text_styles` when it is not an array, `too_many_text_styles` past
/// `limits.max_text_styles` (R6).
///
/// # Examples
///
/// ```
/// let limits = chatmark::Limits::default();
/// let (runs, diags) = chatmark::normalize_json("abc", r#"[{"start": 0, "len": 2, "st": ["b"]}, "junk"]"#, &limits).unwrap();
/// assert_eq!(runs.len(), 1);
/// assert_eq!(diags[0].code.as_str(), "run_dropped");
/// assert!(chatmark::normalize_json("abc", "{}", &limits).is_err());
/// ```
pub fn normalize_json(
    text: &str,
    styles: &str,
    limits: &Limits,
) -> Result<(Vec<TextStyle>, Vec<Diagnostic>), ResolveError> {
    let json = replace_lone_surrogates(styles);
    let runs = read_runs(&json, limits.max_text_styles)
        .map_err(|e| invalid_json("text_styles", &e))?
        .ok_or_else(ResolveError::invalid_text_styles)?;
    let raw = runs.raw();
    ResolveError::check_run_count(raw.len(), limits)?;
    Ok(normalize(text, &raw))
}

impl Formatted {
    /// Reads a message `{"text", "text_styles"?}` from JSON text, as the render tools take
    /// it: `text` must be a string (R1's `missing_text`, `invalid_text`), and `text_styles` is
    /// normalised leniently by section 4 (N1–N6) so the result is canonical, within
    /// `limits.max_text_styles` (R6). `invalid_json` when it is not JSON.
    ///
    /// # Examples
    ///
    /// ```
    /// let limits = chatmark::Limits::default();
    /// let f = chatmark::Formatted::from_json(r#"{"text": "ab", "text_styles": [{"start": 0, "len": 9, "st": "b"}]}"#, &limits).unwrap();
    /// assert_eq!((f.text_styles[0].start, f.text_styles[0].len), (0, 2));
    /// assert!(chatmark::Formatted::from_json(r#"{"text": 1}"#, &limits).is_err());
    /// ```
    pub fn from_json(json: &str, limits: &Limits) -> Result<Formatted, ResolveError> {
        let json = replace_lone_surrogates(json);
        let body =
            Body::read(&json, limits.max_text_styles).map_err(|e| invalid_json("body", &e))?;
        let body = body.send_message();
        let text = crate::resolve::required_text(&body.text)?;
        let text_styles = match &body.text_styles {
            crate::Field::Absent | crate::Field::Null => Vec::new(),
            crate::Field::Invalid => return Err(ResolveError::invalid_text_styles()),
            crate::Field::Value(raw) => {
                ResolveError::check_run_count(raw.len(), limits)?;
                normalize(text, raw).0
            }
        };
        Ok(Formatted {
            text: text.to_owned(),
            text_styles,
        })
    }
}

/// Imports the CommonMark `text` of a body `{"text"}` given as JSON text (spec section 9),
/// as `chatmark import --jsonl` reads each line: `text` must be a string (R1's
/// `missing_text`, `invalid_text`; no length limit, M11), other fields are ignored, and text
/// that is not JSON answers `invalid_json`.
///
/// # Examples
///
/// ```
/// let f = chatmark::import_json(r##"{"text": "# Hi"}"##).unwrap();
/// assert_eq!(f.text, "Hi");
/// assert_eq!(chatmark::import_json(r#"{"text": 1}"#).unwrap_err().code.as_str(), "invalid_text");
/// assert_eq!(chatmark::import_json("{oops").unwrap_err().code.as_str(), "invalid_json");
/// ```
#[cfg(feature = "commonmark")]
pub fn import_json(json: &str) -> Result<Formatted, ResolveError> {
    let json = replace_lone_surrogates(json);
    let body = Body::read(&json, 0).map_err(|e| invalid_json("body", &e))?;
    let text = crate::resolve::required_text(&body.text())?;
    Ok(crate::from_commonmark(text))
}

/// Parses JSON text into `T`, first replacing escapes of lone surrogates (`"\ud800"`) by
/// U+FFFD so that they read as one replacement character, as L2 says. Read straight into a
/// struct, fields that `T` ignores are skipped whatever their depth (serde_json skips a value
/// without recursing), where a `serde_json::Value` stops at 128 levels.
///
/// # Examples
///
/// ```
/// let v: serde_json::Value =
///     chatmark::json_from_str_lossy(r#"{"text": "a\ud800b\ud83d\ude00"}"#).unwrap();
/// assert_eq!(v["text"], "a\u{FFFD}b😀");
///
/// #[derive(serde::Deserialize)]
/// struct Url { url: String }
/// let deep = format!(r#"{{"x": {}{}, "url": "https://a.example/"}}"#, "[".repeat(5000), "]".repeat(5000));
/// let u: Url = chatmark::json_from_str_lossy(&deep).unwrap();
/// assert_eq!(u.url, "https://a.example/");
/// ```
pub fn json_from_str_lossy<T: serde::de::DeserializeOwned>(json: &str) -> serde_json::Result<T> {
    serde_json::from_str(&replace_lone_surrogates(json))
}

/// Parses JSON text the front ends receive (a body that is not a `sendMessage`, such as a
/// webhook's) as [`json_from_str_lossy`] does, answering the contract's `invalid_json` error
/// for `field` when it is not JSON, so every front end refuses bad input alike.
///
/// # Examples
///
/// ```
/// let e = chatmark::json_value_from_str("{oops", "body").unwrap_err();
/// assert_eq!((e.code.as_str(), e.field), ("invalid_json", "body"));
/// assert!(chatmark::json_value_from_str(r#"{"text": "x"}"#, "body").is_ok());
/// ```
pub fn json_value_from_str(json: &str, field: &'static str) -> Result<Value, ResolveError> {
    json_from_str_lossy(json).map_err(|e| invalid_json(field, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_l2() {
        for (input, want) in [
            (r#""\ud800""#, "\u{FFFD}"),
            (r#""\udc00x""#, "\u{FFFD}x"),
            (r#""\ud800\u0041""#, "\u{FFFD}A"),
            (r#""\\ud800""#, "\\ud800"),
            (r#""\ud83d\ude00""#, "😀"),
        ] {
            assert_eq!(
                json_from_str_lossy::<Value>(input).unwrap(),
                want,
                "{input}"
            );
        }
    }
}
