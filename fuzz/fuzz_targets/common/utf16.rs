//! The checks the markdown and html targets share: a dialect's UTF-16 entry point reads
//! units as its UTF-8 one reads their lossy decoding (L2: a lone surrogate is U+FFFD), and
//! a parse is a fixed point of normalisation (W1, 1.3).

use chatmark::{Diagnostic, Formatted, FormattedUtf16};

/// Checks both UTF-16 readings of the fuzz input: the UTF-8 text's own units, and the raw
/// bytes taken as little-endian units (lone surrogates included).
pub fn check(
    data: &[u8],
    text: &str,
    utf8: impl Fn(&str) -> (Formatted, Vec<Diagnostic>),
    utf16: impl Fn(&[u16]) -> (FormattedUtf16, Vec<Diagnostic>),
) {
    let own: Vec<u16> = text.encode_utf16().collect();
    let raw: Vec<u16> = data
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    for units in [own, raw] {
        let (want, want_diags) = utf8(&String::from_utf16_lossy(&units));
        let (got, got_diags) = utf16(&units);
        assert_eq!(got.to_formatted(), want, "UTF-16 {units:?}");
        assert_eq!(got_diags, want_diags, "UTF-16 diagnostics {units:?}");
    }
}

/// W1, 1.3: a parse is a fixed point of normalisation (its runs, given back as client runs
/// over its own text, come out unchanged), so storing a parsed message and reading it back
/// as `text_styles` changes nothing.
pub fn fixed_point(f: &Formatted, input: &str) {
    let raw: Vec<chatmark::RawTextStyle<'static>> =
        f.text_styles.iter().map(chatmark::RawTextStyle::from).collect();
    assert_eq!(
        chatmark::normalize(&f.text, &raw).0,
        f.text_styles,
        "not a fixed point of normalize: {input:?}"
    );
}
