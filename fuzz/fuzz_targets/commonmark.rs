//! The CommonMark import (spec section 9) on arbitrary text: no panic (L2), canonical form
//! (M11, C1–C6), a fixed point of normalisation (W1, 1.3), line codes never on a line break
//! (1.3), no whitespace line at either end (M1), and the UTF-16 entry point reading the
//! bytes as UTF-16 units (lone surrogates included) as the UTF-8 one reads their lossy
//! decoding (L2).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common/utf16.rs"]
mod utf16;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let f = chatmark::from_commonmark(&input);
    if let Err(rule) = f.check_canonical() {
        panic!("{rule}: {input:?}");
    }
    utf16::fixed_point(&f, &input);
    let units: Vec<u16> = f.text.encode_utf16().collect();
    for r in &f.text_styles {
        if r.st.iter().any(|c| c.is_line_code()) {
            for u in r.start..r.end() {
                let brk = match units.get(u) {
                    Some(0x0a) => true,
                    Some(0x0d) => units.get(u + 1) == Some(&0x0a),
                    _ => false,
                };
                assert!(!brk, "1.3: a line code on a line break: {input:?}");
            }
        }
    }
    if !f.text.is_empty() {
        let blank = |line: &str| line.chars().all(char::is_whitespace);
        assert!(!blank(f.text.split('\n').next().unwrap_or_default()), "M1 start: {input:?}");
        assert!(!blank(f.text.rsplit('\n').next().unwrap_or_default()), "M1 end: {input:?}");
    }
    let raw: Vec<u16> = data
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    assert_eq!(
        chatmark::from_commonmark_utf16(&raw).to_formatted(),
        chatmark::from_commonmark(&String::from_utf16_lossy(&raw)),
        "UTF-16 {raw:?}"
    );
});
