//! JSON boundary (feature `serde`): reads sendMessage bodies and client runs from
//! `serde_json` values as N1, N2, N6 and R1–R3 judge them, turns lone surrogate escapes into
//! U+FFFD before parsing (L2), and writes results and errors in the wire shape.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::normalize::{normalize, RawTextStyle};
use crate::render::markdown::{Markdown, Unexpressed};
use crate::resolve::{resolve, resolve_text, ChatId, Field, Limits, Resolved, SendMessage};
use crate::{Diagnostic, ErrorCode, Formatted, ResolveError, TextStyle};

/// N1: an integral JSON number by value (`3`, `3.0`, `3e0`), saturating beyond ±2^63.
fn integral(v: &Value) -> Option<i64> {
    let n = v.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    if n.as_u64().is_some() {
        return Some(i64::MAX);
    }
    let f = n.as_f64()?;
    // `as` saturates, and -0.0 becomes 0.
    (f.is_finite() && f.fract() == 0.0).then_some(f as i64)
}

impl<'a> RawTextStyle<'a> {
    /// Reads one `text_styles` entry as N1 and N2 say; anything unusable becomes `None` fields
    /// (and the run is dropped by [`normalize`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let v = serde_json::json!({"start": 1.0, "len": 2, "st": "b, i"});
    /// let r = chatmark::RawTextStyle::from_json(&v);
    /// assert_eq!((r.start, r.len), (Some(1), Some(2)));
    /// assert_eq!(r.st, Some(vec!["b", "i"]));
    /// ```
    pub fn from_json(v: &'a Value) -> Self {
        let Some(obj) = v.as_object() else {
            return RawTextStyle::default();
        };
        let st = match obj.get("st") {
            Some(Value::Array(items)) => Some(items.iter().filter_map(Value::as_str).collect()),
            Some(Value::String(s)) => Some(RawTextStyle::split_codes(s)),
            _ => None,
        };
        RawTextStyle {
            start: obj.get("start").and_then(integral),
            len: obj.get("len").and_then(integral),
            st,
        }
    }
}

fn field<'a, T>(
    obj: &'a Map<String, Value>,
    key: &str,
    read: impl FnOnce(&'a Value) -> Option<T>,
) -> Field<T> {
    match obj.get(key) {
        None => Field::Absent,
        Some(Value::Null) => Field::Null,
        Some(v) => read(v).map_or(Field::Invalid, Field::Value),
    }
}

impl<'a> SendMessage<'a> {
    /// Reads a body from a JSON value; a non-object reads as an empty body.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = serde_json::json!({"chat_id": 5, "text": "hi", "text_styles": 3});
    /// let b = chatmark::SendMessage::from_json(&v);
    /// assert_eq!(b.text, chatmark::Field::Value("hi"));
    /// assert_eq!(b.text_styles, chatmark::Field::Invalid);
    /// ```
    pub fn from_json(v: &'a Value) -> Self {
        let Some(obj) = v.as_object() else {
            return SendMessage::default();
        };
        SendMessage {
            chat_id: field(obj, "chat_id", |v| match v {
                Value::String(s) => Some(ChatId::Str(s)),
                Value::Number(_) => integral(v).map(ChatId::Int),
                _ => None,
            }),
            text: field(obj, "text", Value::as_str),
            parse_mode: field(obj, "parse_mode", Value::as_str),
            text_styles: field(obj, "text_styles", |v| {
                v.as_array()
                    .map(|a| a.iter().map(RawTextStyle::from_json).collect())
            }),
        }
    }
}

/// Normalises client runs given as raw JSON (N1–N6): an error when `styles` is not an array.
///
/// # Examples
///
/// ```
/// let styles = serde_json::json!([{"start": 0, "len": 2, "st": ["b"]}, "junk"]);
/// let (runs, diags) = chatmark::normalize_json("abc", &styles).unwrap();
/// assert_eq!(runs.len(), 1);
/// assert_eq!(diags[0].code.as_str(), "run_dropped");
/// assert!(chatmark::normalize_json("abc", &serde_json::json!({})).is_err());
/// ```
pub fn normalize_json(
    text: &str,
    styles: &Value,
) -> Result<(Vec<TextStyle>, Vec<Diagnostic>), ResolveError> {
    let Some(items) = styles.as_array() else {
        return Err(ResolveError::new(
            ErrorCode::InvalidTextStyles,
            "text_styles",
            "text_styles must be an array",
        ));
    };
    let raw: Vec<RawTextStyle<'_>> = items.iter().map(RawTextStyle::from_json).collect();
    Ok(normalize(text, &raw))
}

impl Formatted {
    /// Reads a message `{"text", "text_styles"?}` from JSON, as the render tools take it:
    /// `text` must be a string (R1's `missing_text`, `invalid_text`), and `text_styles` is
    /// normalised leniently by section 4 (N1–N6), so the result is canonical.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = serde_json::json!({"text": "ab", "text_styles": [{"start": 0, "len": 9, "st": "b"}]});
    /// let f = chatmark::Formatted::from_json(&v).unwrap();
    /// assert_eq!((f.text_styles[0].start, f.text_styles[0].len), (0, 2));
    /// assert!(chatmark::Formatted::from_json(&serde_json::json!({"text": 1})).is_err());
    /// ```
    pub fn from_json(v: &Value) -> Result<Formatted, ResolveError> {
        let text = match v.get("text") {
            None | Some(Value::Null) => {
                return Err(ResolveError::new(
                    ErrorCode::MissingText,
                    "text",
                    "text is required",
                ))
            }
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                return Err(ResolveError::new(
                    ErrorCode::InvalidText,
                    "text",
                    "text must be a string",
                ))
            }
        };
        let text_styles = match v.get("text_styles") {
            None | Some(Value::Null) => Vec::new(),
            Some(styles) => normalize_json(&text, styles)?.0,
        };
        Ok(Formatted { text, text_styles })
    }
}

/// Resolves a JSON `sendMessage` body: a whole request when `check_chat_id` (R5), else only
/// its formatting, as the JSONL tools do.
///
/// # Examples
///
/// ```
/// let body = serde_json::json!({"text": "**a**", "parse_mode": "markdown"});
/// let r = chatmark::resolve_json(&body, &Default::default(), false).unwrap();
/// assert_eq!(r.formatted.text, "a");
/// assert!(chatmark::resolve_json(&body, &Default::default(), true).is_err());
/// ```
pub fn resolve_json(
    body: &Value,
    limits: &Limits,
    check_chat_id: bool,
) -> Result<Resolved, ResolveError> {
    let body = SendMessage::from_json(body);
    if check_chat_id {
        resolve(&body, limits)
    } else {
        resolve_text(&body, limits)
    }
}

/// Parses JSON text, first replacing escapes of lone surrogates (`"\ud800"`) by U+FFFD so
/// that they read as one replacement character, as L2 says.
///
/// # Examples
///
/// ```
/// let v = chatmark::json_from_str_lossy(r#"{"text": "a\ud800b\ud83d\ude00"}"#).unwrap();
/// assert_eq!(v["text"], "a\u{FFFD}b😀");
/// ```
pub fn json_from_str_lossy(json: &str) -> serde_json::Result<Value> {
    serde_json::from_str(&replace_lone_surrogates(json))
}

/// Parses JSON text the front ends receive (a JSONL line, a body, a `text_styles` array)
/// as [`json_from_str_lossy`] does, answering the contract's `invalid_json` error for
/// `field` when it is not JSON, so every front end refuses bad input alike.
///
/// # Examples
///
/// ```
/// let e = chatmark::json_value_from_str("{oops", "body").unwrap_err();
/// assert_eq!((e.code.as_str(), e.field), ("invalid_json", "body"));
/// assert!(chatmark::json_value_from_str(r#"{"text": "x"}"#, "body").is_ok());
/// ```
pub fn json_value_from_str(json: &str, field: &'static str) -> Result<Value, ResolveError> {
    json_from_str_lossy(json).map_err(|e| {
        ResolveError::new(
            ErrorCode::InvalidJson,
            field,
            format!("{field} is not JSON: {e}"),
        )
    })
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = core::str::from_utf8(b.get(..4)?).ok()?;
    u16::from_str_radix(s, 16).ok()
}

/// Rewrites `\uD8xx` escapes not followed by a low-surrogate escape (and lone `\uDCxx`) as
/// `\uFFFD`. Backslashes only occur inside JSON strings, so a lexical scan suffices.
fn replace_lone_surrogates(json: &str) -> Cow<'_, str> {
    let b = json.as_bytes();
    if !json.contains("\\u") {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len());
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if b.get(i) != Some(&b'\\') {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2; // any other escape: skip the escaped character
            continue;
        }
        let Some(u) = b.get(i + 2..).and_then(hex4) else {
            i += 2;
            continue;
        };
        let lone = match u {
            0xD800..=0xDBFF => {
                let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                    .then(|| b.get(i + 8..).and_then(hex4))
                    .flatten();
                if low.is_some_and(|l| (0xDC00..=0xDFFF).contains(&l)) {
                    i += 12;
                    continue;
                }
                true
            }
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            out.push_str(json.get(copied..i).unwrap_or(""));
            out.push_str("\\uFFFD");
            copied = i + 6;
        }
        i += 6;
    }
    if copied == 0 {
        return Cow::Borrowed(json);
    }
    out.push_str(json.get(copied..).unwrap_or(""));
    Cow::Owned(out)
}

/// The wire shape of a markdown rendering (W2), as `chatmark render --jsonl` and the npm
/// package answer it: `{"markdown", "lossless", "unexpressed": [{start, len, what, code?}]}`.
impl serde::Serialize for Markdown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Markdown", 3)?;
        s.serialize_field("markdown", &self.text)?;
        s.serialize_field("lossless", &self.is_lossless())?;
        s.serialize_field("unexpressed", &self.unexpressed)?;
        s.end()
    }
}

/// `{start, len, what, code?}`: `what` is the loss's wire name, `code` the style code lost.
impl serde::Serialize for Unexpressed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let code = self.what.code();
        let mut s = serializer.serialize_struct("Unexpressed", 3 + usize::from(code.is_some()))?;
        s.serialize_field("start", &self.start)?;
        s.serialize_field("len", &self.len)?;
        s.serialize_field("what", self.what.as_str())?;
        if let Some(code) = code {
            s.serialize_field("code", code.as_str())?;
        }
        s.end()
    }
}

impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl serde::Serialize for ResolveError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ResolveError", 3)?;
        s.serialize_field("code", &self.code)?;
        s.serialize_field("field", self.field)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
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
            assert_eq!(json_from_str_lossy(input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn integral_by_value_n1() {
        for (v, want) in [
            (serde_json::json!(3), Some(3)),
            (serde_json::json!(3.0), Some(3)),
            (serde_json::json!(1.5), None),
            (serde_json::json!("3"), None),
            (serde_json::json!(true), None),
            (serde_json::json!(18446744073709551615u64), Some(i64::MAX)),
            (serde_json::json!(-1e300), Some(i64::MIN)),
        ] {
            assert_eq!(integral(&v), want, "{v}");
        }
    }
}
