//! `sendMessage`: the request as a client writes it, its resolution through chatmark (spec
//! section 5, R1–R8) and the result `{message_id, date}` with `date` in epoch milliseconds.

use core::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use chatmark::{Limits, ResolveError, Resolved};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A `sendMessage` body `{chat_id, text, parse_mode?, text_styles?}` as a client builds it.
///
/// A server should not deserialize into this type: it resolves the raw JSON with
/// [`resolve_send_message`] so that every refusal carries chatmark's stable code.
///
/// # Examples
///
/// ```
/// let req = chatmark_api::SendMessageRequest::new(7, "**hi**").with_parse_mode("markdown");
/// assert_eq!(
///     serde_json::to_string(&req).unwrap(),
///     r#"{"chat_id":7,"text":"**hi**","parse_mode":"markdown"}"#
/// );
/// assert_eq!(req.resolve(&Default::default()).unwrap().formatted.text, "hi");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SendMessageRequest {
    /// The target chat: an integer or a non-empty string.
    pub chat_id: Value,
    /// The raw text, markup included.
    pub text: String,
    /// `markdown` or `html`; absent for plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parse_mode: Option<String>,
    /// Client-made runs `{start, len, st}`, used only without `parse_mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_styles: Option<Vec<Value>>,
}

impl SendMessageRequest {
    /// A plain-text request to `chat_id`.
    ///
    /// # Examples
    ///
    /// ```
    /// let req = chatmark_api::SendMessageRequest::new("@chan", "hi");
    /// assert_eq!(req.chat_id, serde_json::json!("@chan"));
    /// ```
    pub fn new(chat_id: impl Into<Value>, text: impl Into<String>) -> Self {
        SendMessageRequest {
            chat_id: chat_id.into(),
            text: text.into(),
            parse_mode: None,
            text_styles: None,
        }
    }

    /// The same request with a `parse_mode`.
    ///
    /// # Examples
    ///
    /// ```
    /// let req = chatmark_api::SendMessageRequest::new(1, "<b>x</b>").with_parse_mode("html");
    /// assert_eq!(req.parse_mode.as_deref(), Some("html"));
    /// ```
    pub fn with_parse_mode(mut self, mode: impl Into<String>) -> Self {
        self.parse_mode = Some(mode.into());
        self
    }

    /// Resolves the request as a server would (R1–R8, `chat_id` included).
    ///
    /// # Examples
    ///
    /// ```
    /// let req = chatmark_api::SendMessageRequest::new(1, "");
    /// assert_eq!(req.resolve(&Default::default()).unwrap_err().code.as_str(), "text_empty");
    /// ```
    pub fn resolve(&self, limits: &Limits) -> Result<Resolved, ResolveError> {
        // Serialising a struct of JSON values and strings cannot fail; `Null` would be
        // refused by R5/R1 all the same.
        let body = serde_json::to_value(self).unwrap_or(Value::Null);
        resolve_send_message(&body.to_string(), limits)
    }
}

/// Resolves a raw JSON `sendMessage` body as a server does: the whole request, `chat_id`
/// included (R5), in the order of R8.
///
/// # Examples
///
/// ```
/// let body = serde_json::json!({"chat_id": 1, "text": "*a*", "parse_mode": "Markdown"});
/// let r = chatmark_api::resolve_send_message(&body.to_string(), &Default::default()).unwrap();
/// assert_eq!(r.formatted.text, "a");
/// ```
pub fn resolve_send_message(body: &str, limits: &Limits) -> Result<Resolved, ResolveError> {
    chatmark::resolve_json(body, limits, true)
}

/// The one form a `chat_id` is stored and compared in, from its JSON text as sent (R5): an
/// integer in decimal digits, without exponent, fraction, `+` or a minus on zero (`100`,
/// `1e2`, `1.0e2` and `100.00` are all `100`; `-0` is `0`), read exactly, never through a
/// float; a string as JSON with its escapes resolved (`"\u0040chan"` is `"@chan"`, lone
/// surrogates read as U+FFFD as the body's reader does). `None` for anything else: a number
/// that is not an integer, or one outside the signed 64-bit range (which a reader by value
/// would saturate or round into another chat's id), an empty string, other JSON.
///
/// # Examples
///
/// ```
/// use chatmark_api::canonical_chat_id;
/// assert_eq!(canonical_chat_id("1e2").as_deref(), Some("100"));
/// assert_eq!(canonical_chat_id("-0").as_deref(), Some("0"));
/// assert_eq!(canonical_chat_id("9007199254740993.0").as_deref(), Some("9007199254740993"));
/// assert_eq!(canonical_chat_id(r#""\u0040chan""#).as_deref(), Some(r#""@chan""#));
/// assert_eq!(canonical_chat_id("1.5"), None);
/// assert_eq!(canonical_chat_id("9223372036854775808"), None);
/// ```
pub fn canonical_chat_id(raw: &str) -> Option<String> {
    let raw = raw.trim();
    match raw.bytes().next()? {
        b'"' => {
            let s: String = chatmark::json_from_str_lossy(raw).ok()?;
            if s.is_empty() {
                return None;
            }
            serde_json::to_string(&s).ok()
        }
        b'-' | b'0'..=b'9' => exact_integer(raw).map(|n| n.to_string()),
        _ => None,
    }
}

/// The value of a JSON number if it is an integer within `i64`, computed on its decimal
/// digits (so `12345678901234567.0` is not rounded and `1.0000000000000000001` is no integer).
fn exact_integer(number: &str) -> Option<i64> {
    let (negative, rest) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number),
    };
    let (mantissa, exponent) = match rest.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || (mantissa.contains('.') && !digits(frac)) {
        return None;
    }
    // the power of ten of the last digit; huge exponents saturate (and are refused below)
    let mut scale: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (minus, e) = match e.strip_prefix('-') {
                Some(e) => (true, e),
                None => (false, e.strip_prefix('+').unwrap_or(e)),
            };
            if !digits(e) {
                return None;
            }
            let magnitude = e.bytes().fold(0i64, |v, b| {
                v.saturating_mul(10).saturating_add(i64::from(b - b'0'))
            });
            if minus {
                -magnitude
            } else {
                magnitude
            }
        }
    };
    scale = scale.saturating_sub(i64::try_from(frac.len()).unwrap_or(i64::MAX));
    let all = format!("{int}{frac}");
    let significant = all.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        return Some(0); // 0, -0, 0.000e9
    }
    scale = scale.saturating_add(i64::try_from(significant.len() - trimmed.len()).unwrap_or(0));
    let width = i64::try_from(trimmed.len()).unwrap_or(i64::MAX);
    if scale < 0 || width.saturating_add(scale) > 19 {
        return None; // a fraction, or more than 19 digits
    }
    let mut value: i128 = 0;
    for b in trimmed.bytes() {
        value = value * 10 + i128::from(b - b'0');
    }
    for _ in 0..scale {
        value *= 10;
    }
    i64::try_from(if negative { -value } else { value }).ok()
}

/// A point in time as 13-digit epoch milliseconds (years 2001 to 2286), as `date` is sent.
///
/// # Examples
///
/// ```
/// let d: chatmark_api::EpochMillis = serde_json::from_str("1767225600000").unwrap();
/// assert_eq!(d.get(), 1_767_225_600_000);
/// assert!(serde_json::from_str::<chatmark_api::EpochMillis>("1767225600").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EpochMillis(u64);

impl EpochMillis {
    /// The smallest 13-digit value.
    const MIN: u64 = 1_000_000_000_000;
    /// The largest 13-digit value.
    const MAX: u64 = 9_999_999_999_999;

    /// Checks that `ms` has 13 digits (an epoch in seconds has 10).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark_api::EpochMillis::new(1_767_225_600_000).is_ok());
    /// assert!(chatmark_api::EpochMillis::new(1_767_225_600).is_err());
    /// ```
    pub fn new(ms: u64) -> Result<Self, String> {
        if (Self::MIN..=Self::MAX).contains(&ms) {
            Ok(EpochMillis(ms))
        } else {
            Err(format!(
                "date must be epoch milliseconds with 13 digits, got {ms} ({} digits)",
                ms.to_string().len()
            ))
        }
    }

    /// The current time (clamped into the 13-digit range should the clock be wrong).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark_api::EpochMillis::now().get() >= 1_000_000_000_000);
    /// ```
    pub fn now() -> Self {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        EpochMillis(ms.clamp(Self::MIN, Self::MAX))
    }

    /// The milliseconds since 1970-01-01T00:00:00Z.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark_api::EpochMillis::new(1_000_000_000_000).unwrap().get(), 1_000_000_000_000);
    /// ```
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for EpochMillis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for EpochMillis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for EpochMillis {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let ms = u64::deserialize(deserializer)?;
        EpochMillis::new(ms).map_err(serde::de::Error::custom)
    }
}

/// The result of a successful `sendMessage`: `{message_id, date}`.
///
/// `message_id` is a string on the wire (the platform's table: `message_id | string`),
/// written `"42"`; reading takes a string of digits or a number (older servers wrote one).
/// Unknown fields are ignored when reading, so additions by a newer server do not break
/// clients.
///
/// # Examples
///
/// ```
/// let r: chatmark_api::SendMessageResult =
///     serde_json::from_str(r#"{"message_id":"42","date":1767225600000}"#).unwrap();
/// assert_eq!(r.message_id, 42);
/// assert!(serde_json::to_string(&r).unwrap().starts_with(r#"{"message_id":"42","#));
/// // an older server's number reads too
/// let old: chatmark_api::SendMessageResult =
///     serde_json::from_str(r#"{"message_id":42,"date":1767225600000}"#).unwrap();
/// assert_eq!(old, r);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendMessageResult {
    /// The id of the stored message (a string of digits on the wire).
    #[serde(with = "id_as_string")]
    pub message_id: u64,
    /// When it was stored, in epoch milliseconds.
    pub date: EpochMillis,
}

/// A `u64` written as a JSON string of digits, read from a string or a number.
mod id_as_string {
    use serde::de::{self, Deserializer, Visitor};
    use serde::Serializer;

    pub fn serialize<S: Serializer>(id: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }

    struct Id;

    impl Visitor<'_> for Id {
        type Value = u64;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a message id: a string of digits (or a non-negative integer)")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(E::invalid_value(de::Unexpected::Str(v), &self));
            }
            v.parse()
                .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(Id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Envelope;
    use serde_json::json;

    #[test]
    fn result_round_trips_in_the_envelope() {
        let text = r#"{"ok":true,"result":{"message_id":"9","date":1767225600123}}"#;
        let e: Envelope<SendMessageResult> = serde_json::from_str(text).unwrap();
        assert_eq!(e.result.unwrap().date.get(), 1_767_225_600_123);
        assert_eq!(serde_json::to_string(&e).unwrap(), text);
    }

    /// Issue 20 item 10: the id is a string on the wire; a number (older servers) and a
    /// string of digits read alike, anything else is refused.
    #[test]
    fn message_id_is_a_string_and_reads_a_number_too() {
        let r = SendMessageResult {
            message_id: 18_446_744_073_709_551_615,
            date: serde_json::from_str("1767225600000").unwrap(),
        };
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(
            text,
            r#"{"message_id":"18446744073709551615","date":1767225600000}"#
        );
        assert_eq!(serde_json::from_str::<SendMessageResult>(&text).unwrap(), r);
        for bad in [
            r#""""#,
            r#""-1""#,
            r#""1.5""#,
            r#""x""#,
            "-1",
            "1.5",
            "null",
            r#""18446744073709551616""#,
        ] {
            let body = format!(r#"{{"message_id":{bad},"date":1767225600000}}"#);
            assert!(
                serde_json::from_str::<SendMessageResult>(&body).is_err(),
                "{bad}"
            );
        }
    }

    /// Issue 51 finding 6: every spelling of one integer gives one form; no float rounding.
    #[test]
    fn chat_ids_have_one_form() {
        let same = [
            ("100", "100"),
            ("1e2", "100"),
            ("1E+2", "100"),
            ("0.1e3", "100"),
            ("100.000", "100"),
            ("100000e-3", "100"),
            ("-0", "0"),
            ("0e999999999999999999999", "0"),
            ("-1.5e1", "-15"),
            ("123456789012345678.9e1", "1234567890123456789"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("9223372036854775807.000", "9223372036854775807"),
            (r#""@c""#, r#""@c""#),
            (r#""\ud800x""#, "\"\u{fffd}x\""),
            (r#" "a\"b" "#, r#""a\"b""#),
        ];
        for (raw, want) in same {
            assert_eq!(canonical_chat_id(raw).as_deref(), Some(want), "{raw}");
        }
        for raw in [
            "1.5",
            "1e-1",
            "1.0000000000000000001",
            "9223372036854775808",
            "-9223372036854775809",
            "1e19",
            "1e999999999999999999999",
            "99999999999999999999",
            r#""""#,
            "true",
            "null",
            "[1]",
            "1.",
            ".5",
            "1e",
            "-",
            "",
        ] {
            assert_eq!(canonical_chat_id(raw), None, "{raw}");
        }
    }

    #[test]
    fn result_tolerates_new_fields() {
        let r: SendMessageResult =
            serde_json::from_str(r#"{"message_id":1,"date":1767225600000,"chat":{"id":1}}"#)
                .unwrap();
        assert_eq!(r.message_id, 1);
    }

    #[test]
    fn date_in_seconds_is_refused_clearly() {
        let err =
            serde_json::from_str::<SendMessageResult>(r#"{"message_id":1,"date":1767225600}"#)
                .unwrap_err();
        assert!(err.to_string().contains("13 digits"), "{err}");
        let err = serde_json::from_str::<SendMessageResult>(r#"{"message_id":1,"date":"x"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
        let err = serde_json::from_str::<SendMessageResult>(r#"{"message_id":1}"#).unwrap_err();
        assert!(err.to_string().contains("missing field `date`"), "{err}");
    }

    #[test]
    fn request_round_trips() {
        let v = json!({"chat_id": "c1", "text": "hi", "text_styles": [{"start": 0, "len": 2, "st": ["b"]}]});
        let r: SendMessageRequest = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(serde_json::to_value(&r).unwrap(), v);
        let resolved = r.resolve(&Limits::default()).unwrap();
        assert_eq!(resolved.formatted.text_styles.len(), 1);
    }

    #[test]
    fn refusals_keep_chatmarks_codes() {
        let limits = Limits::default();
        let cases = [
            (json!({"text": "x"}), "missing_chat_id"),
            (json!({"chat_id": 1}), "missing_text"),
            (json!({"chat_id": 1, "text": 5}), "invalid_text"),
            (
                json!({"chat_id": 1, "text": "x".repeat(2001)}),
                "text_too_long",
            ),
            (
                json!({"chat_id": 1, "text": "x", "parse_mode": "rtf"}),
                "invalid_parse_mode",
            ),
            (
                json!({"chat_id": 1, "text": "- ", "parse_mode": "markdown"}),
                "empty_after_formatting",
            ),
        ];
        for (body, code) in cases {
            let e = resolve_send_message(&body.to_string(), &limits).unwrap_err();
            assert_eq!(e.code.as_str(), code, "{body}");
            let env = Envelope::<()>::from_resolve_error(&e);
            assert_eq!(env.error_code, Some(400));
            assert!(!env.description.unwrap_or_default().is_empty());
        }
    }
}
