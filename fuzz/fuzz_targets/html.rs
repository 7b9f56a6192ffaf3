//! HTML mode on arbitrary text: canonical form (C1–C6), html5ever's tokenizer gives exactly
//! the same result as ours (H1), and the UTF-16 entry points read the text as the UTF-8 ones
//! do (the bytes read as UTF-8, and as UTF-16 units with lone surrogates, L2).
#![no_main]
use chatmark::html::{parse_html_with, Backend};
use libfuzzer_sys::fuzz_target;

/// The UTF-16 parse of `units` equals the UTF-8 parse of their lossy decoding.
fn same_from_utf16(units: &[u16]) {
    let text = String::from_utf16_lossy(units);
    let (want, want_diags) = parse_html_with(&text, Backend::Own);
    let (got, got_diags) = chatmark::parse_html_utf16_with_diagnostics(units);
    assert_eq!(got.to_formatted(), want, "UTF-16 {units:?}");
    assert_eq!(got_diags, want_diags, "UTF-16 diagnostics {units:?}");
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (own, _) = parse_html_with(&input, Backend::Own);
    if let Err(rule) = own.check_canonical() {
        panic!("{rule}: {input:?}");
    }
    let (theirs, _) = parse_html_with(&input, Backend::Html5ever);
    assert_eq!(own, theirs, "backends differ on {input:?}");
    let utf16: Vec<u16> = input.encode_utf16().collect();
    same_from_utf16(&utf16);
    let raw: Vec<u16> = data
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    same_from_utf16(&raw);
});
