//! Splitting (spec section 8, S1–S5) of arbitrary messages at arbitrary limits: every part
//! within the limit and canonical, the text back when the parts are joined with white space
//! between them, every character's codes kept, the UTF-16 form alike, and — for inputs
//! small enough for it — the cuts of the slow model of S1–S3 (tests/support/split_model.rs).
//! Input: a limit byte, the text, a NUL byte, then the `text_styles` JSON (normalised first).
#![no_main]
use chatmark::{Formatted, FormattedUtf16};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/chatmark/tests/support/split_model.rs"]
mod split_model;

fuzz_target!(|data: &[u8]| {
    let Some((&l, rest)) = data.split_first() else {
        return;
    };
    let (text, json) = match rest.iter().position(|&b| b == 0) {
        Some(k) => (&rest[..k], &rest[k + 1..]),
        None => (rest, &b"[]"[..]),
    };
    let text = String::from_utf8_lossy(text).into_owned();
    let json = String::from_utf8_lossy(json);
    let runs = chatmark::normalize_json(&text, &json, &Default::default()).map_or_else(|_| Vec::new(), |r| r.0);
    let f = Formatted { text, text_styles: runs };
    let limit = usize::from(l);
    let Ok(parts) = chatmark::split(&f, limit) else {
        assert!(limit < 2);
        return;
    };
    let units: Vec<u16> = f.text.encode_utf16().collect();
    let mut codes = vec![None; units.len()];
    for r in &f.text_styles {
        for c in &mut codes[r.start..r.end()] {
            *c = Some(r.st);
        }
    }
    let mut at = 0;
    for part in &parts {
        let n = part.text.encode_utf16().count();
        assert!((1..=limit).contains(&n), "{n} units in {:?}", part.text);
        if let Err(rule) = part.check_canonical() {
            panic!("{rule}: {part:?}");
        }
        while !f.text[at..].starts_with(part.text.as_str()) {
            let c = f.text[at..].chars().next().expect("the part is in the text");
            assert!(c.is_whitespace(), "{c:?} dropped");
            at += c.len_utf8();
        }
        let from = f.text[..at].encode_utf16().count();
        let mut own = vec![None; n];
        for r in &part.text_styles {
            for c in &mut own[r.start..r.end()] {
                *c = Some(r.st);
            }
        }
        assert_eq!(own, codes[from..from + n], "codes of {:?}", part.text);
        at += part.text.len();
    }
    assert!(f.text[at..].chars().all(char::is_whitespace), "{:?} lost", &f.text[at..]);
    let f16 = FormattedUtf16 { text: units, text_styles: f.text_styles.clone() };
    let parts16: Vec<Formatted> = chatmark::split_utf16(&f16, limit)
        .expect("the same limit")
        .iter()
        .map(FormattedUtf16::to_formatted)
        .collect();
    assert_eq!(parts16, parts);
    if f.text.len() <= 300 {
        let want: Vec<&str> = split_model::split(&f.text, limit)
            .expect("the same limit")
            .iter()
            .map(|&(a, b)| &f.text[a..b])
            .collect();
        let got: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(got, want, "cuts of {:?} at {limit}", f.text);
    }
});
