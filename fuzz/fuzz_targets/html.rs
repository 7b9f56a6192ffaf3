//! HTML mode on arbitrary text: canonical form (C1–C6), html5ever's tokenizer gives exactly
//! the same result as ours (H1), and the UTF-16 entry points read the text as the UTF-8 ones
//! do (the bytes read as UTF-8, and as UTF-16 units with lone surrogates, L2); the result
//! is a fixed point of normalisation (W1, 1.3).
#![no_main]
use chatmark::html::{parse_html_with, Backend};
use libfuzzer_sys::fuzz_target;

#[path = "common/utf16.rs"]
mod utf16;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (own, _) = parse_html_with(&input, Backend::Own);
    if let Err(rule) = own.check_canonical() {
        panic!("{rule}: {input:?}");
    }
    utf16::fixed_point(&own, &input);
    let (theirs, _) = parse_html_with(&input, Backend::Html5ever);
    assert_eq!(own, theirs, "backends differ on {input:?}");
    utf16::check(
        data,
        &input,
        |t| parse_html_with(t, Backend::Own),
        chatmark::parse_html_utf16_with_diagnostics,
    );
});
