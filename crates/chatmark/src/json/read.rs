//! Streaming reader of JSON bodies (`sendMessage`, render input, `text_styles` arrays) as N1,
//! N2, N6, R1–R3 and R6 judge them, straight from the JSON text: no `serde_json::Value` is
//! built, strings without escapes are borrowed, numbers are read by value as JavaScript reads
//! them (N1: `1e400` saturates instead of failing), ignored fields are only skipped (so
//! nothing in them refuses a body), and `text_styles` entries past the R6 cap are counted,
//! not kept. Lone surrogate escapes become U+FFFD first (L2).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::normalize::RawTextStyle;
use crate::resolve::{ChatId, Field, SendMessage};

/// A body as read from JSON text: each known field as sent, strings borrowed when they had no
/// escapes. Unknown keys are skipped; a later duplicate key replaces an earlier one.
#[derive(Debug, Default)]
pub(crate) struct Body<'a> {
    chat_id: Field<Id<'a>>,
    text: Field<Cow<'a, str>>,
    parse_mode: Field<Cow<'a, str>>,
    text_styles: Field<Vec<Run<'a>>>,
    /// A split's limit (S1): an integral number by value, as N1 reads `start`.
    limit: Field<i64>,
}

#[derive(Debug)]
enum Id<'a> {
    Int(i64),
    Str(Cow<'a, str>),
}

/// One `text_styles` entry; `None` where N1/N2 drop the run (as in [`RawTextStyle`]).
#[derive(Debug, Default)]
struct Run<'a> {
    start: Option<i64>,
    len: Option<i64>,
    st: Option<Codes<'a>>,
}

/// `st` as sent: an array (its strings only) or one comma-separated string (N2).
#[derive(Debug)]
enum Codes<'a> {
    List(Vec<Cow<'a, str>>),
    Comma(Cow<'a, str>),
}

impl<'a> Body<'a> {
    /// Reads `json` (lone surrogates already replaced). A non-object reads as an empty body;
    /// `text_styles` keeps at most `max_runs + 1` entries (`0`: no cap), enough for R6 to
    /// refuse the body without holding the rest.
    pub(crate) fn read(json: &'a str, max_runs: usize) -> serde_json::Result<Body<'a>> {
        let mut de = serde_json::Deserializer::from_str(json);
        let body = if json.trim_start().starts_with('{') {
            de.deserialize_map(BodyVisitor { max_runs })?
        } else {
            IgnoredAny::deserialize(&mut de)?;
            Body::default()
        };
        de.end()?;
        Ok(body)
    }

    /// The `limit` of a split body (S1).
    pub(crate) fn limit(&self) -> Field<i64> {
        self.limit.clone()
    }

    /// The text as sent: for the render tools, which take only `text` and `text_styles`.
    pub(crate) fn text(&self) -> Field<&str> {
        map_field(&self.text, |t| t.as_ref())
    }

    /// The body in the engine's borrowed form.
    pub(crate) fn send_message(&self) -> SendMessage<'_> {
        SendMessage {
            chat_id: map_field(&self.chat_id, |id| match id {
                Id::Int(n) => ChatId::Int(*n),
                Id::Str(s) => ChatId::Str(s),
            }),
            text: self.text(),
            parse_mode: map_field(&self.parse_mode, |m| m.as_ref()),
            text_styles: map_field(&self.text_styles, |runs| {
                runs.iter().map(Run::raw).collect()
            }),
        }
    }
}

fn map_field<'s, T, U>(f: &'s Field<T>, g: impl FnOnce(&'s T) -> U) -> Field<U> {
    match f {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Invalid => Field::Invalid,
        Field::Value(v) => Field::Value(g(v)),
    }
}

impl Run<'_> {
    fn raw(&self) -> RawTextStyle<'_> {
        RawTextStyle {
            start: self.start,
            len: self.len,
            st: self.st.as_ref().map(|codes| match codes {
                Codes::List(items) => items.iter().map(|c| c.as_ref()).collect(),
                Codes::Comma(s) => RawTextStyle::split_codes(s),
            }),
        }
    }
}

/// Reads a `text_styles` array given alone as JSON text (the npm package's `normalizeStyles`):
/// `None` when it is not an array (N6).
pub(crate) fn read_runs(json: &str, max_runs: usize) -> serde_json::Result<Option<RunList<'_>>> {
    let raw: &RawValue = serde_json::from_str(json)?;
    Ok(match runs_field(raw, max_runs)? {
        Field::Value(runs) => Some(RunList(runs)),
        _ => None,
    })
}

/// Client runs read from JSON, to be handed to [`crate::normalize()`] through [`RunList::raw`].
#[derive(Debug)]
pub(crate) struct RunList<'a>(Vec<Run<'a>>);

impl RunList<'_> {
    pub(crate) fn raw(&self) -> Vec<RawTextStyle<'_>> {
        self.0.iter().map(Run::raw).collect()
    }
}

/// The first byte of a raw JSON value, which tells its type.
fn kind(raw: &RawValue) -> u8 {
    raw.get().bytes().next().unwrap_or(b' ')
}

/// A JSON string's contents: borrowed when it holds no escape.
fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    let s = raw.get();
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(s).ok().map(Cow::Owned)
}

/// N1: an integral JSON number by value (`3`, `3.0`, `3e0`), saturating beyond ±2^63, read
/// from its text so that no magnitude is out of range (`1e400` saturates, as a JavaScript
/// reader's `Infinity` would be clamped). `None` for a non-integral number or a non-number.
pub(crate) fn integral(raw: &str) -> Option<i64> {
    let negative = match raw.bytes().next()? {
        b'-' => true,
        b'0'..=b'9' => false,
        _ => return None,
    };
    let saturated = if negative { i64::MIN } else { i64::MAX };
    if let Ok(n) = raw.parse::<i64>() {
        return Some(n);
    }
    if !raw.contains(['.', 'e', 'E']) {
        return Some(saturated); // an integer literal beyond ±2^63
    }
    let f: f64 = raw.parse().ok()?;
    if f.is_infinite() {
        return Some(saturated);
    }
    // `as` saturates, and -0.0 becomes 0.
    (f.fract() == 0.0).then_some(f as i64)
}

/// A number field (`limit`): `null`, an integral number by value (N1's reading), or not.
fn integral_field(raw: &RawValue) -> Field<i64> {
    match kind(raw) {
        b'n' => Field::Null,
        _ => integral(raw.get()).map_or(Field::Invalid, Field::Value),
    }
}

/// A string field (`text`, `parse_mode`): `null`, a string, or of the wrong type.
fn string_field(raw: &RawValue) -> Field<Cow<'_, str>> {
    match kind(raw) {
        b'n' => Field::Null,
        b'"' => string(raw).map_or(Field::Invalid, Field::Value),
        _ => Field::Invalid,
    }
}

fn chat_id_field(raw: &RawValue) -> Field<Id<'_>> {
    match kind(raw) {
        b'n' => Field::Null,
        b'"' => string(raw).map_or(Field::Invalid, |s| Field::Value(Id::Str(s))),
        _ => integral(raw.get()).map_or(Field::Invalid, |n| Field::Value(Id::Int(n))),
    }
}

fn runs_field(raw: &RawValue, max_runs: usize) -> serde_json::Result<Field<Vec<Run<'_>>>> {
    Ok(match kind(raw) {
        b'n' => Field::Null,
        b'[' => {
            let mut de = serde_json::Deserializer::from_str(raw.get());
            Field::Value(de.deserialize_seq(RunsVisitor { max_runs })?)
        }
        _ => Field::Invalid,
    })
}

/// The body keys the engine reads; every other key is skipped unread.
enum Key {
    ChatId,
    Text,
    ParseMode,
    TextStyles,
    Limit,
    Other,
}

impl<'de> de::Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "chat_id" => Key::ChatId,
                    "text" => Key::Text,
                    "parse_mode" => Key::ParseMode,
                    "text_styles" => Key::TextStyles,
                    "limit" => Key::Limit,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct BodyVisitor {
    max_runs: usize,
}

impl<'de> Visitor<'de> for BodyVisitor {
    type Value = Body<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body<'de>, A::Error> {
        let mut body = Body::default();
        while let Some(key) = map.next_key::<Key>()? {
            if let Key::Other = key {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let raw: &'de RawValue = map.next_value()?;
            match key {
                Key::ChatId => body.chat_id = chat_id_field(raw),
                Key::Text => body.text = string_field(raw),
                Key::ParseMode => body.parse_mode = string_field(raw),
                Key::Limit => body.limit = integral_field(raw),
                Key::TextStyles => {
                    body.text_styles = runs_field(raw, self.max_runs).map_err(de::Error::custom)?
                }
                Key::Other => {}
            }
        }
        Ok(body)
    }
}

struct RunsVisitor {
    max_runs: usize,
}

impl<'de> Visitor<'de> for RunsVisitor {
    type Value = Vec<Run<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Run<'de>>, A::Error> {
        let mut runs = Vec::new();
        loop {
            // R6: past the cap, entries are only counted by skipping them
            if self.max_runs != 0 && runs.len() > self.max_runs {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(runs);
            }
            let Some(raw) = seq.next_element::<&'de RawValue>()? else {
                return Ok(runs);
            };
            runs.push(if kind(raw) == b'{' {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                de.deserialize_map(RunVisitor).map_err(de::Error::custom)?
            } else {
                Run::default() // N1: not an object, dropped
            });
        }
    }
}

struct RunVisitor;

impl<'de> Visitor<'de> for RunVisitor {
    type Value = Run<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a run object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Run<'de>, A::Error> {
        let mut run = Run::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "start" => run.start = integral(map.next_value::<&'de RawValue>()?.get()),
                "len" => run.len = integral(map.next_value::<&'de RawValue>()?.get()),
                "st" => {
                    let raw: &'de RawValue = map.next_value()?;
                    run.st = match kind(raw) {
                        b'"' => string(raw).map(Codes::Comma),
                        b'[' => {
                            let mut de = serde_json::Deserializer::from_str(raw.get());
                            Some(Codes::List(
                                de.deserialize_seq(CodesVisitor)
                                    .map_err(de::Error::custom)?,
                            ))
                        }
                        _ => None, // N2: missing, null, a number, an object
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(run)
    }
}

/// The strings of an `st` array; other elements are ignored (N2).
struct CodesVisitor;

impl<'de> Visitor<'de> for CodesVisitor {
    type Value = Vec<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut codes = Vec::new();
        while let Some(raw) = seq.next_element::<&'de RawValue>()? {
            if let Some(s) = string(raw) {
                codes.push(s);
            }
        }
        Ok(codes)
    }
}

/// Rewrites `\uD8xx` escapes not followed by a low-surrogate escape (and lone `\uDCxx`) as
/// `\uFFFD` (L2). Backslashes only occur inside JSON strings, so a lexical scan suffices.
pub(crate) fn replace_lone_surrogates(json: &str) -> Cow<'_, str> {
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

fn hex4(b: &[u8]) -> Option<u16> {
    let s = core::str::from_utf8(b.get(..4)?).ok()?;
    u16::from_str_radix(s, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_by_value_n1() {
        for (raw, want) in [
            ("3", Some(3)),
            ("3.0", Some(3)),
            ("3e0", Some(3)),
            ("-0", Some(0)),
            ("-0.0", Some(0)),
            ("1.5", None),
            ("\"3\"", None),
            ("true", None),
            ("null", None),
            ("18446744073709551615", Some(i64::MAX)),
            ("-18446744073709551616", Some(i64::MIN)),
            ("-1e300", Some(i64::MIN)),
            ("1e400", Some(i64::MAX)),
            ("-1e400", Some(i64::MIN)),
            ("1e-400", Some(0)),
            ("12.5e1", Some(125)),
        ] {
            assert_eq!(integral(raw), want, "{raw}");
        }
    }

    #[test]
    fn runs_past_the_cap_are_counted_not_kept_r6() {
        let json = format!("[{}]", vec!["{}"; 50].join(","));
        let runs = read_runs(&json, 10).unwrap().unwrap();
        assert_eq!(runs.0.len(), 11);
        assert_eq!(read_runs(&json, 0).unwrap().unwrap().0.len(), 50);
    }
}
