#![allow(dead_code)] // each user (tests, fuzz targets) takes what it needs
//! The naive reference reading of JSON bodies (N1, N2, N6, R1–R3), written over a fully
//! parsed `serde_json::Value` independently of the engine's streaming reader: the property
//! tests and the `resolve`/`normalize` fuzz targets compare the engine against it wherever
//! `serde_json` can hold the input (no number beyond f64, nesting under 128).

use chatmark::{ChatId, Field, RawTextStyle, SendMessage};
use serde_json::{Map, Value};

/// N1: an integral JSON number by value (`3`, `3.0`, `3e0`), saturating beyond ±2^63.
pub fn integral(v: &Value) -> Option<i64> {
    let n = v.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    if n.as_u64().is_some() {
        return Some(i64::MAX);
    }
    let f = n.as_f64()?;
    (f.is_finite() && f.fract() == 0.0).then_some(f as i64)
}

/// One `text_styles` entry as N1 and N2 read it.
pub fn raw_style(v: &Value) -> RawTextStyle<'_> {
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

/// A body; a non-object reads as an empty body.
pub fn send_message(v: &Value) -> SendMessage<'_> {
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
            v.as_array().map(|a| a.iter().map(raw_style).collect())
        }),
    }
}
