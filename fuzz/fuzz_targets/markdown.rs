//! Markdown mode on arbitrary text: canonical form (C1–C6), the output text is the input
//! with only markup characters removed (a subsequence), and the UTF-16 entry points read
//! the text as the UTF-8 ones do (the bytes read as UTF-8, and as UTF-16 units with lone
//! surrogates, L2), and the result is a fixed point of normalisation (W1, 1.3).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common/utf16.rs"]
mod utf16;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (f, diags) = chatmark::parse_markdown_with_diagnostics(&input);
    if let Err(rule) = f.check_canonical() {
        panic!("{rule}: {input:?}");
    }
    let mut rest = input.chars();
    assert!(
        f.text.chars().all(|c| rest.any(|x| x == c)),
        "not a subsequence: {input:?} -> {:?}",
        f.text
    );
    utf16::fixed_point(&f, &input);
    let units = chatmark::utf16_len(&input);
    assert!(diags.iter().all(|d| d.start + d.len <= units), "L3 positions");
    utf16::check(
        data,
        &input,
        chatmark::parse_markdown_with_diagnostics,
        chatmark::parse_markdown_utf16_with_diagnostics,
    );
});
