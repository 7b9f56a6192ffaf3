//! HTML mode on arbitrary text: canonical form (C1–C6), and html5ever's tokenizer gives
//! exactly the same result as ours (H1).
#![no_main]
use chatmark::html::{parse_html_with, Backend};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (own, _) = parse_html_with(&input, Backend::Own);
    if let Err(rule) = own.check_canonical() {
        panic!("{rule}: {input:?}");
    }
    let (theirs, _) = parse_html_with(&input, Backend::Html5ever);
    assert_eq!(own, theirs, "backends differ on {input:?}");
});
