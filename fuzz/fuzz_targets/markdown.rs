//! Markdown mode on arbitrary text: canonical form (C1–C6), and the output text is the
//! input with only markup characters removed (a subsequence).
#![no_main]
use libfuzzer_sys::fuzz_target;

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
    let units = chatmark::utf16_len(&input);
    assert!(diags.iter().all(|d| d.start + d.len <= units), "L3 positions");
});
