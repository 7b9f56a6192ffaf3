//! Rendering round trips (W1, W2): for a canonical message whose line codes cover whole
//! lines, `parse_html(to_html(x)) == x` with both tokenizers, and `parse_markdown` of
//! `to_markdown(x)` gives `x` back whenever nothing is reported lost. Input: the text, a NUL
//! byte, then the `text_styles` JSON (normalised first, as section 4 says).
#![no_main]
use chatmark::html::{parse_html_with, Backend};
use chatmark::Formatted;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, json) = match data.iter().position(|&b| b == 0) {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => (data, &b"[]"[..]),
    };
    let text = String::from_utf8_lossy(text).into_owned();
    let json = String::from_utf8_lossy(json);
    let Ok((runs, _)) = chatmark::normalize_json(&text, &json, &Default::default()) else {
        return;
    };
    let x = Formatted { text, text_styles: runs }.with_whole_line_codes();
    let html = x.to_html();
    for backend in [Backend::Own, Backend::Html5ever] {
        let (back, _) = parse_html_with(&html, backend);
        assert_eq!(back, x, "HTML round trip ({backend:?}) of {x:?} via {html:?}");
    }
    let md = x.to_markdown();
    if md.is_lossless() {
        assert_eq!(chatmark::parse_markdown(&md.text), x, "markdown round trip via {:?}", md.text);
    }
});
