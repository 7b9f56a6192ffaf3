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

#[path = "support/split_model.rs"]
mod split_model;

/// Text for the split (spec section 8): words, every kind of white space and line break,
/// sentence ends, and clusters of every shape — emoji sequences, flags, a letter with its
/// marks, a space that carries a mark, a prepended mark, CJK, and stacks of marks long
/// enough to exceed small limits.
fn splittable() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => "[a-z]{1,7}",
        4 => Just(" ".to_string()),
        1 => prop::sample::select(vec!["  ", "\t", "\u{a0}", "\u{3000}", " \u{2009} "]).prop_map(str::to_string),
        2 => prop::sample::select(vec!["\n", "\n\n", "\r\n", "\n \n", " \n", "\r\n\r\n"]).prop_map(str::to_string),
        2 => prop::sample::select(vec![". ", "! ", "? ", "… ", ".", "。", "！", "？", "!?"]).prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "😀", "👩\u{200d}👩\u{200d}👧", "🇻🇳", "🇯🇵🇫", "e\u{301}", "tiê\u{301}ng", " \u{301}",
            "\u{600}", "\u{600} ", "日本語", "\u{915}\u{94d}\u{915}", "👍🏽", "\r",
        ])
        .prop_map(str::to_string),
        1 => (1usize..12).prop_map(|n| format!("a{}", "\u{301}".repeat(n))),
    ];
    prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

/// A formatted message over splittable text, with canonical runs from random client runs.
fn formatted_for_split() -> impl Strategy<Value = Formatted> {
    (splittable(), prop::collection::vec(raw_run_wide(), 0..6)).prop_map(|(text, raw)| {
        let (text_styles, _) = normalize(&text, &raw);
        Formatted { text, text_styles }
    })
}

fn raw_run_wide() -> impl Strategy<Value = RawTextStyle<'static>> {
    (
        0i64..120,
        1i64..80,
        prop::collection::vec(prop::sample::select(codes()), 1..3),
    )
        .prop_map(|(start, len, st)| RawTextStyle {
            start: Some(start),
            len: Some(len),
            st: Some(st),
        })
}

/// The codes of each UTF-16 unit of `f`'s text.
fn unit_codes(f: &Formatted) -> Vec<StyleSet> {
    let mut out = vec![StyleSet::EMPTY; chatmark::utf16_len(&f.text)];
    for r in &f.text_styles {
        for u in &mut out[r.start..r.end()] {
            *u = r.st;
        }
    }
    out
}

fn u16len(s: &str) -> usize {
    chatmark::utf16_len(s)
}

/// Whether byte `k` of `text` is a cluster boundary, or lies in a cluster longer than
/// `limit` (where S3 lets code points be cut).
fn cuttable(text: &str, k: usize, limit: usize) -> bool {
    use unicode_segmentation::UnicodeSegmentation;
    text.grapheme_indices(true)
        .find(|(s, g)| *s < k && k < s + g.len())
        .is_none_or(|(_, g)| u16len(g) > limit)
}

fn is_white_cluster(g: &str) -> bool {
    g.chars().all(char::is_whitespace)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// S1–S5 on random messages and limits: each part within the limit and canonical; the
    /// parts joined with white space between them give the text back; no part starts or
    /// ends with white space from a cut; every character keeps its codes; no cluster is cut
    /// unless it alone exceeds the limit; the cuts are the ones S3's words pick (an
    /// independent slow model), so each part is maximal; UTF-16 splits alike.
    #[test]
    fn split_keeps_every_invariant_s1_s5(f in formatted_for_split(), limit in prop_oneof![2usize..12, 12usize..60, Just(2000)]) {
        use unicode_segmentation::UnicodeSegmentation;
        let parts = chatmark::split(&f, limit).unwrap();
        let text = f.text.as_str();
        // S1
        if text.is_empty() {
            prop_assert!(parts.is_empty());
        } else if u16len(text) <= limit {
            prop_assert_eq!(&parts, &vec![f.clone()]);
        }
        let codes = unit_codes(&f);
        let mut at = 0; // bytes of `text` accounted for
        for (k, part) in parts.iter().enumerate() {
            let n = u16len(&part.text);
            prop_assert!((1..=limit).contains(&n), "part {} has {} units: {:?}", k, n, part.text);
            prop_assert_eq!(part.check_canonical(), Ok(()));
            // S2: what lies between the parts is white space only
            let gap_start = at;
            while !text[at..].starts_with(part.text.as_str()) {
                let c = text[at..].chars().next().unwrap();
                prop_assert!(c.is_whitespace(), "{:?} dropped before part {} of {:?}", c, k, text);
                at += c.len_utf8();
            }
            if at > gap_start || k > 0 {
                // a cut: whole white-space clusters dropped, none left at the edges
                prop_assert!(cuttable(text, gap_start, limit) && cuttable(text, at, limit));
            }
            // (clusters of the text: a part that starts or ends inside a cluster longer than
            // the limit has its code points, white space or not)
            let end = at + part.text.len();
            let cluster_at = |k: usize| text.grapheme_indices(true).find(|&(s, _)| s == k).map(|(_, g)| g);
            let cluster_before = |k: usize| text.grapheme_indices(true).find(|&(s, g)| s + g.len() == k).map(|(_, g)| g);
            if k > 0 {
                prop_assert!(!cluster_at(at).is_some_and(is_white_cluster), "part {} starts with white space", k);
            }
            if k + 1 < parts.len() {
                prop_assert!(!cluster_before(end).is_some_and(is_white_cluster), "part {} ends with white space", k);
            }
            // S3: cut only at cluster boundaries, or inside a cluster over the limit
            prop_assert!(cuttable(text, at, limit), "part {} starts inside a cluster", k);
            prop_assert!(cuttable(text, end, limit), "part {} ends inside a cluster", k);
            // S4: every character keeps its codes
            let from = u16len(&text[..at]);
            prop_assert_eq!(&unit_codes(part)[..], &codes[from..from + n]);
            at += part.text.len();
        }
        prop_assert!(text[at..].chars().all(char::is_whitespace), "{:?} lost at the end", &text[at..]);
        // S3: the model's cuts (and so maximal parts)
        let want: Vec<&str> = split_model::split(text, limit).unwrap().iter().map(|&(a, b)| &text[a..b]).collect();
        let got: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
        prop_assert_eq!(got, want, "{:?} at {}", text, limit);
        // one implementation, two encodings
        let f16 = chatmark::FormattedUtf16 { text: text.encode_utf16().collect(), text_styles: f.text_styles.clone() };
        let parts16: Vec<Formatted> = chatmark::split_utf16(&f16, limit).unwrap().iter().map(|p| p.to_formatted()).collect();
        prop_assert_eq!(parts16, parts);
    }

    /// Maximality as the issue words it: no part could have taken the next candidate of the
    /// kind of its own cut (every later candidate of that kind or a stronger one would
    /// leave it over the limit).
    #[test]
    fn split_parts_are_maximal_s3(text in splittable(), limit in 2usize..40) {
        let cuts = split_model::candidates(&text, limit);
        let parts = split_model::split(&text, limit).unwrap();
        for w in parts.windows(2) {
            let ((p, e), _) = (w[0], w[1]);
            let cut = cuts.iter().find(|c| c.e == e).unwrap();
            let next = cuts.iter().find(|c| c.e > e && c.kind <= cut.kind);
            if let Some(next) = next {
                prop_assert!(u16len(&text[p..next.e]) > limit, "{:?}: part {:?} could reach {}", text, &text[p..e], next.e);
            }
        }
    }
}

#[test]
fn split_rejects_limits_below_two_s1() {
    let f = chatmark::parse_markdown("text");
    for limit in [0, 1] {
        assert_eq!(
            chatmark::split(&f, limit),
            Err(chatmark::SplitError::InvalidLimit(limit))
        );
    }
    assert_eq!(split_model::split("text", 1), None);
}
