//! Property tests: canonical form (C1–C6) of every result, markdown output as a subsequence of
//! its input, normalisation idempotent and equal to a naive per-UTF-16-unit model (N1–N5), and
//! emphasis (I4) equal to pulldown-cmark's on the shared subset of CommonMark.
// a test may panic: the methods clippy.toml keeps out of the engine are fine here
#![allow(clippy::disallowed_methods)]
#![cfg(not(target_arch = "wasm32"))]

use chatmark::{normalize, Formatted, RawTextStyle, StyleCode, StyleSet};
use proptest::prelude::*;

#[path = "support/naive.rs"]
mod naive;
use naive::naive;

/// Strings biased toward the markup of both dialects, emoji, CRLF and spaces.
fn markupish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-z]{1,4}",
        2 => Just(" ".to_string()),
        1 => Just("  ".to_string()),
        2 => prop::sample::select(vec!["*", "**", "***", "_", "__", "~~", "~", "`", "``", "\\"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec![
            "{red}", "{/red}", "{green}", "{/green}", "{big}", "{/big}", "<underline>",
            "</underline>", "<red>", "</red>", "{RED}", "{/",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(vec!["# ", "## ", "- ", "* ", "1. ", "> ", ">> ", ">", "```", "#"])
            .prop_map(str::to_string),
        2 => prop::sample::select(vec!["\n", "\r\n", "\r", "\n\n", "\t", "\r{red}{/red}", "&#13;"]).prop_map(str::to_string),
        1 => prop::sample::select(vec!["😀", "é", "\u{a0}", "👨‍👩‍👧", "€", ".", "(", ")", "!", "\u{3000}"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec!["<b>", "</b>", "&amp;", "&#32;", "<br>", "<li>", "<p>", "</p>"])
            .prop_map(str::to_string),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// A dialect's UTF-8 parse with diagnostics, its UTF-16 one, and its UTF-16 `_into` form.
type Utf8Parse = dyn Fn(&str) -> (Formatted, Vec<chatmark::Diagnostic>);
type Utf16Parse = dyn Fn(&[u16]) -> (chatmark::FormattedUtf16, Vec<chatmark::Diagnostic>);
type Utf16Into = dyn Fn(&[u16], &mut chatmark::FormattedUtf16);

fn is_subsequence(small: &str, big: &str) -> bool {
    let mut it = big.chars();
    small.chars().all(|c| it.any(|b| b == c))
}

/// The markup characters whose removal markdown mode may cause.
fn markup_only_removed(out: &str, input: &str) -> bool {
    let mut it = out.chars().peekable();
    for c in input.chars() {
        if it.peek() == Some(&c) {
            it.next();
        } else if !matches!(
            c,
            '*' | '_' | '~' | '\\' | '{' | '}' | '<' | '>' | '/' | '#' | '-' | '+' | '.' | ' '
        ) && !c.is_ascii_alphanumeric()
        {
            return false;
        }
    }
    it.next().is_none()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn markdown_is_canonical_and_a_subsequence(input in markupish()) {
        let f = chatmark::parse_markdown(&input);
        prop_assert_eq!(f.check_canonical(), Ok(()));
        prop_assert!(is_subsequence(&f.text, &input), "{:?} -> {:?}", input, f.text);
        prop_assert!(markup_only_removed(&f.text, &input), "{:?} -> {:?}", input, f.text);
    }

    /// The UTF-16 entry points read a message as the UTF-8 ones do, in both dialects: same
    /// text, runs and diagnostics (one parser, two encodings); a lone surrogate reads as
    /// U+FFFD (L2); the `_into` forms give the same over reused buffers.
    #[test]
    fn both_dialects_read_utf16_as_they_read_utf8(
        input in markupish(),
        lone in prop::collection::vec((0usize..64, prop::sample::select(vec![0xd800u16, 0xdbff, 0xdc00, 0xdfff])), 0..3),
    ) {
        let mut units: Vec<u16> = input.encode_utf16().collect();
        for (at, u) in lone {
            units.insert(at.min(units.len()), u);
        }
        let text = String::from_utf16_lossy(&units);
        let own = |t: &str| chatmark::html::parse_html_with(t, chatmark::html::Backend::Own);
        let checks: [(&Utf8Parse, &Utf16Parse, &Utf16Into); 2] = [
            (
                &chatmark::parse_markdown_with_diagnostics,
                &chatmark::parse_markdown_utf16_with_diagnostics,
                &chatmark::parse_markdown_utf16_into,
            ),
            (&own, &chatmark::parse_html_utf16_with_diagnostics, &chatmark::parse_html_utf16_into),
        ];
        for (utf8, utf16, into) in checks {
            let (want, want_diags) = utf8(&text);
            let (got, got_diags) = utf16(&units);
            prop_assert_eq!(got.to_formatted(), want, "{:?}", units);
            prop_assert_eq!(got_diags, want_diags, "{:?}", units);
            let mut reused = chatmark::parse_markdown_utf16(&[u16::from(b'*'); 3]);
            into(&units, &mut reused);
            prop_assert_eq!(reused, got);
        }
    }

    /// Every parse is a fixed point of normalisation (W1, 1.3): its runs, given back as
    /// client runs over its own text, come out unchanged. In particular a `\r` that the
    /// removal of markup leaves right before a `\n` is a line break and carries no line code.
    #[test]
    fn every_parse_is_a_fixed_point_of_normalize(input in markupish()) {
        let own = |t: &str| chatmark::html::parse_html_with(t, chatmark::html::Backend::Own);
        let units: Vec<u16> = input.encode_utf16().collect();
        let parses = [
            chatmark::parse_markdown(&input),
            chatmark::parse_markdown_utf16(&units).to_formatted(),
            own(&input).0,
            chatmark::parse_html_utf16(&units).to_formatted(),
        ];
        for f in parses {
            let raw: Vec<RawTextStyle<'static>> = f.text_styles.iter().map(RawTextStyle::from).collect();
            prop_assert_eq!(&normalize(&f.text, &raw).0, &f.text_styles, "{:?} -> {:?}", input, f);
        }
    }

    #[test]
    fn html_is_canonical(input in markupish()) {
        let f = chatmark::parse_html(&input);
        prop_assert_eq!(f.check_canonical(), Ok(()));
    }

    #[test]
    fn normalize_matches_naive_model_and_is_idempotent(
        text in prop::collection::vec(prop::sample::select(vec!["a", "b", "\n", "\r\n", "\r", "😀", "é", " "]), 0..12)
            .prop_map(|v| v.concat()),
        runs in prop::collection::vec(raw_run(), 0..8),
    ) {
        let raw: Vec<RawTextStyle<'static>> = runs.clone();
        let (out, _) = normalize(&text, &raw);
        let f = Formatted { text: text.clone(), text_styles: out.clone() };
        prop_assert_eq!(f.check_canonical(), Ok(()));
        prop_assert_eq!(&out, &naive(&text, &raw));
        let again: Vec<RawTextStyle<'static>> = out.iter().map(RawTextStyle::from).collect();
        prop_assert_eq!(&normalize(&text, &again).0, &out);
    }
}

/// Every code of the engine's table, and one unknown code (N2).
fn codes() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = StyleCode::ALL.iter().map(|c| c.as_str()).collect();
    codes.push("zz");
    codes
}

fn raw_run() -> impl Strategy<Value = RawTextStyle<'static>> {
    (
        prop::option::weighted(0.95, -3i64..16),
        prop::option::weighted(0.95, prop_oneof![-2i64..16, Just(i64::MAX)]),
        prop::option::weighted(
            0.95,
            prop::collection::vec(prop::sample::select(codes()), 0..4),
        ),
    )
        .prop_map(|(start, len, st)| RawTextStyle { start, len, st })
}

/// Per-character (bold, italic) of a parse, for the differential test.
fn flags_of(f: &Formatted) -> Vec<(char, bool, bool)> {
    let mut out = Vec::new();
    let mut unit = 0;
    for c in f.text.chars() {
        let st = f
            .text_styles
            .iter()
            .find(|r| r.start <= unit && unit < r.end())
            .map_or(StyleSet::EMPTY, |r| r.st);
        out.push((
            c,
            st.contains(StyleCode::Bold),
            st.contains(StyleCode::Italic),
        ));
        unit += c.len_utf16();
    }
    out
}

fn pulldown_flags(input: &str) -> Vec<(char, bool, bool)> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let (mut strong, mut em) = (0, 0);
    let mut out = Vec::new();
    for ev in Parser::new(input) {
        match ev {
            Event::Start(Tag::Strong) => strong += 1,
            Event::End(TagEnd::Strong) => strong -= 1,
            Event::Start(Tag::Emphasis) => em += 1,
            Event::End(TagEnd::Emphasis) => em -= 1,
            Event::Text(t) => out.extend(t.chars().map(|c| (c, strong > 0, em > 0))),
            _ => {}
        }
    }
    out
}

/// Single-paragraph inputs of the subset both dialects share (no other construct starts).
fn emphasis_subset() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-c]{1,3}",
        2 => Just(" ".to_string()),
        4 => prop::sample::select(vec!["*", "**", "***", "_", "__", "___"]).prop_map(str::to_string),
        2 => prop::sample::select(vec![".", ",", ";", ":", "!", "?", "(", ")", "\"", "'", "-", "😀"])
            .prop_map(str::to_string),
    ];
    prop::collection::vec(piece, 1..16)
        .prop_map(|v| v.concat())
        .prop_filter("a block construct or edge whitespace", |s| {
            let t = s.trim();
            let starts_block = ["- ", "* ", "+ ", "-\t"].iter().any(|m| s.starts_with(m))
                || s == "-"
                || s == "*"
                || s == "+";
            // thematic breaks: three or more of one of * - _ with only spaces
            let thematic = ['*', '-', '_'].iter().any(|&c| {
                t.chars().all(|x| x == c || x == ' ') && t.chars().filter(|&x| x == c).count() >= 3
            });
            !t.is_empty() && t.len() == s.len() && !starts_block && !thematic
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn emphasis_agrees_with_pulldown_cmark(input in emphasis_subset()) {
        let ours = flags_of(&chatmark::parse_markdown(&input));
        prop_assert_eq!(ours, pulldown_flags(&input), "input {:?}", input);
    }
}

#[test]
fn the_oracles_see_emphasis() {
    assert_eq!(
        pulldown_flags("*a* **b**"),
        [('a', false, true), (' ', false, false), ('b', true, false)]
    );
    assert_eq!(
        flags_of(&chatmark::parse_markdown("*a* **b**")),
        pulldown_flags("*a* **b**")
    );
    let raw = [RawTextStyle {
        start: Some(0),
        len: Some(1),
        st: Some(vec!["b"]),
    }];
    assert_eq!(naive("ab", &raw).len(), 1);
}
