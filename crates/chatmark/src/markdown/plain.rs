//! The markdown fast path: a message in which no byte can begin a construct is its own
//! text with no runs (I7), and skips both passes. Most chat messages carry no markup (43%
//! of the bench corpus).
//!
//! A construct needs one of the bytes of [`super::syntax`]: anywhere, `` ` `` (I1, F1), `\`
//! (I2), `{` or `<` (I3), `*` or `_` (I4), `~` (I5); at the start of a line, a space (P1,
//! and the blank lines of 2.3, whose spaces go), `>` (P2), `#`, `-`, `+` or a digit (P3).
//! Without them every line is a text line with no prefix and every paragraph is plain text,
//! so the output is the input: line breaks are copied unchanged (section 2) and nothing
//! adds a code.
//! (The backtick is on the list although a code span or fence alone copies its text as it
//! is: one byte more to stop at costs nothing, and the rule stays "no construct".)

use super::syntax::{is_inline, is_prefix};
use crate::text::search::{find, Markdown};
use crate::text::source::{units, Source};
use crate::text::unit::Unit;

/// Whether no unit of `input` can begin a markdown construct (see the module docs): then
/// parsing it gives the input as text with no runs and no diagnostics. Through the scan's
/// own search ([`crate::text::search::find`]): a plain message stops only at its line breaks,
/// each followed by a unit that is not a line prefix, and at near misses of the search.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn is_plain(input: Source<'_>) -> bool {
    units!(input, s => plain(s))
}

/// [`is_plain`] of the units `s`.
fn plain<U: Unit>(s: &[U]) -> bool {
    let prefix = |c: &U| is_prefix(c.byte());
    if s.first().is_some_and(prefix) {
        return false;
    }
    let mut k = 0;
    loop {
        let j = find::<Markdown, U>(s, k);
        match s.get(j).map(|c| c.byte()) {
            None => return true,
            Some(b'\n') if !s.get(j + 1).is_some_and(prefix) => k = j + 1,
            Some(b) if b == b'\n' || is_inline(b) => return false,
            // a near miss of the search: text
            Some(_) => k = j + 1,
        }
    }
}

/// The rule unit by unit: both classes count at a line start, only the inline one
/// elsewhere (the reference the faster tests are checked against).
#[cfg(test)]
fn plain_by_unit<U: Unit>(input: &[U]) -> bool {
    let mut line_start = true;
    for &c in input {
        let b = c.byte();
        if is_inline(b) || (line_start && is_prefix(b)) {
            return false;
        }
        line_start = b == b'\n';
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_plain;
    use crate::text::source::Source;

    /// Every message the fast path takes gives the same result through both passes: its
    /// own text, no runs, no diagnostics. Random messages from bytes that are markup only
    /// at a line start (or not at all), line breaks of both kinds and non-ASCII text.
    #[test]
    fn plain_messages_parse_to_themselves_through_both_passes_i7() {
        let pieces = [
            "a", "word", " ", "  ", "\n", "\r\n", "\t", ">", "#", "-", "+", "1", "2024.", "1.",
            "é", "😀", "}", "]", ")", "!", ".", "&amp;", "\u{a0}", "\u{3000}", "3", "4", "5", "6",
            "7", "8", "9. ", "0", "[", "^", "|", "\u{7f}",
            // UTF-16 units whose low byte is markup or a line break: `{`, `*`, `\n`
            "Ż", "ਪ", "Ċ",
        ];
        // the bytes that begin inline constructs, now and then: a table missing one would
        // let such a message through, and the two passes would disagree
        let inline = [
            "*", "_", "~~", "`", "\\", "{red}", "{/red}", "<big>", "</big>", "**", "__",
        ];
        let mut rng = crate::rng::Rng(0x2545_F491_4F6C_DD1D);
        let mut taken = 0;
        for _ in 0..20_000 {
            let text = rng.text(24, &pieces, &inline, 13);
            // the search agrees with the rule unit by unit
            let units: Vec<u16> = text.encode_utf16().collect();
            let want = super::plain_by_unit(text.as_bytes());
            assert_eq!(is_plain(Source::Utf8(&text)), want, "{text:?}");
            assert_eq!(is_plain(Source::Utf16(&units)), want, "{text:?}");
            assert_eq!(super::plain_by_unit(&units[..]), want, "{text:?}");
            if !is_plain(Source::Utf8(&text)) {
                continue;
            }
            taken += 1;
            let (mut out, mut runs) = (String::new(), crate::builder::RunBuilder::default());
            let notes = super::super::one_pass(
                text.as_str(),
                super::super::emit::Utf8Out {
                    src: &text,
                    text: &mut out,
                },
                &mut runs,
                &mut super::super::Scratch::default(),
                true,
            );
            assert_eq!(out, text, "{text:?}");
            let runs = runs.finish();
            assert!(runs.is_empty(), "{text:?}: {runs:?}");
            assert!(notes.is_empty(), "{text:?}");
        }
        assert!(taken > 1000, "only {taken} plain messages generated");
    }

    #[test]
    fn markup_bytes_anywhere_and_prefixes_at_line_starts() {
        for plain in [
            "",
            "hello world",
            "a\nb\r\nc",
            "\n\n",
            "x - y + 1 # 2 > 0",
            "é😀\n中",
        ] {
            assert!(is_plain(Source::Utf8(plain)), "{plain:?}");
            let units: Vec<u16> = plain.encode_utf16().collect();
            assert!(is_plain(Source::Utf16(&units)), "{plain:?}");
        }
        for markup in [
            "a*b", "a_b", "a~b", "a`b", "a\\b", "a{b", "a<b", " a", "a\n b", "> q", "a\n>q", "# h",
            "#tag", "- x", "+ x", "1. x", "a\n2024", "\n  \n",
        ] {
            assert!(!is_plain(Source::Utf8(markup)), "{markup:?}");
            let units: Vec<u16> = markup.encode_utf16().collect();
            assert!(!is_plain(Source::Utf16(&units)), "{markup:?}");
        }
    }
}
