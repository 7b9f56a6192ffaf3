//! Properties of the CommonMark import (spec section 9): on inline content, the same
//! characters bold, italic and struck as in pulldown-cmark's own HTML rendering (M2, read
//! back by the engine's HTML mode); on any document, a canonical result (M11) that is a
//! fixed point of normalisation, whose line codes never cover a line break (1.3), with no
//! whitespace line at either end (M1), and the same through the UTF-16 entry point (L2).
#![cfg(not(target_arch = "wasm32"))]

use chatmark::{Formatted, RawTextStyle, StyleCode, StyleSet};
use proptest::prelude::*;

/// pulldown-cmark's options of spec section 9.
fn options() -> pulldown_cmark::Options {
    use pulldown_cmark::Options;
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Each character that is not whitespace, with whether it is bold, italic and struck.
fn flags(f: &Formatted) -> Vec<(char, bool, bool, bool)> {
    let mut out = Vec::new();
    let mut unit = 0;
    for c in f.text.chars() {
        if !c.is_whitespace() {
            let st = f
                .text_styles
                .iter()
                .find(|r| r.start <= unit && unit < r.end())
                .map_or(StyleSet::EMPTY, |r| r.st);
            out.push((
                c,
                st.contains(StyleCode::Bold),
                st.contains(StyleCode::Italic),
                st.contains(StyleCode::Strike),
            ));
        }
        unit += c.len_utf16();
    }
    out
}

/// The reference: pulldown-cmark's HTML for `input`, read by HTML mode (`strong` → `b`,
/// `em` → `i`, `del` → `s`, H3).
fn reference_flags(input: &str) -> Vec<(char, bool, bool, bool)> {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new_ext(input, options()));
    flags(&chatmark::parse_html(&html))
}

/// Paragraphs of inline CommonMark: words, delimiter runs of `*`, `_` and `~`, punctuation,
/// escapes, entities, soft and hard breaks, and non-ASCII text.
fn inline_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        5 => "[a-c]{1,3}",
        3 => Just(" ".to_string()),
        5 => prop::sample::select(vec!["*", "**", "***", "_", "__", "___", "~", "~~", "~~~"])
            .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            ".", ",", "!", "?", "(", ")", "\"", "'", "-", ":", "😀", "é", "\u{a0}", "中",
        ])
        .prop_map(str::to_string),
        1 => prop::sample::select(vec!["\\*", "\\_", "\\~", "&amp;", "&#42;", "&lt;x&gt;"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec!["\n", "  \n", "\\\n", "\n\n"]).prop_map(str::to_string),
    ];
    prop::collection::vec(piece, 1..24)
        .prop_map(|v| v.concat())
        .prop_filter("a line that is a block of its own", |s| {
            s.lines().all(|line| {
                let thematic = |t: &str| {
                    ['*', '_', '-'].iter().any(|&c| {
                        t.chars().all(|x| x == c || x == ' ')
                            && t.chars().filter(|&x| x == c).count() >= 3
                    })
                };
                // what follows a list item's marker begins a block too
                let t = line.trim();
                let mut item = t;
                while let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|m| item.strip_prefix(m))
                {
                    item = rest.trim_start();
                }
                let fence = item.starts_with("~~~");
                // four spaces may begin an indented code block (after a marker too)
                !thematic(t) && !thematic(item) && !fence && !line.contains("    ")
            })
        })
}

/// Documents of every construct of section 9, nested and crossed.
fn document() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        5 => "[a-c]{1,3}",
        3 => Just(" ".to_string()),
        3 => prop::sample::select(vec!["*", "**", "_", "__", "~~", "~", "`", "``", "\\"])
            .prop_map(str::to_string),
        4 => prop::sample::select(vec!["\n", "\n\n", "\r\n", "\n  ", "\n    ", "\n   \n"])
            .prop_map(str::to_string),
        3 => prop::sample::select(vec![
            "# ", "## ", "###### ", "- ", "* ", "+ ", "1. ", "2) ", "> ", ">", "- [ ] ",
            "- [x] ", "  - ", "    - ", "===", "---", "***", "```", "~~~", "```js", "    ",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "| a | b |\n|---|:-:|\n", "| x |", "|", "[t](https://x.y)", "[t](/p)", "[", "](",
            ")", "<https://a.b>", "<a@b.c>", "![alt *e*](i.png)", "[r]", "\n[r]: https://r.s\n",
        ])
        .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "<br>", "<b>", "</b>", "<div>", "</div>", "<!--", "-->", "<span\n", "&amp;",
            "&#10;", "&#13;", "&#32;", "&nbsp;", "😀", "é", "\t", "\u{2028}",
        ])
        .prop_map(str::to_string),
    ];
    prop::collection::vec(piece, 0..48).prop_map(|v| v.concat())
}

/// Whether `unit` of `text` is part of a line break: a `\n`, or a `\r` before one (1.3).
fn in_line_break(units: &[u16], unit: usize) -> bool {
    match units.get(unit) {
        Some(0x0a) => true,
        Some(0x0d) => units.get(unit + 1) == Some(&0x0a),
        _ => false,
    }
}

fn check_document(input: &str) -> Result<(), TestCaseError> {
    let f = chatmark::from_commonmark(input);
    prop_assert_eq!(f.check_canonical(), Ok(()), "input {:?}", input);
    // a fixed point of normalisation: storing the result as client runs changes nothing
    let raw: Vec<RawTextStyle<'static>> = f.text_styles.iter().map(RawTextStyle::from).collect();
    prop_assert_eq!(
        &chatmark::normalize(&f.text, &raw).0,
        &f.text_styles,
        "input {:?}",
        input
    );
    // 1.3: line codes never cover a line break
    let units: Vec<u16> = f.text.encode_utf16().collect();
    for r in &f.text_styles {
        if r.st.iter().any(|c| c.is_line_code()) {
            for u in r.start..r.end() {
                prop_assert!(
                    !in_line_break(&units, u),
                    "line code on a break: {:?}",
                    input
                );
            }
        }
    }
    // M1: no whitespace line at either end
    if !f.text.is_empty() {
        let first = f.text.split('\n').next().unwrap_or_default();
        let last = f.text.rsplit('\n').next().unwrap_or_default();
        prop_assert!(
            !first.trim().is_empty(),
            "leading whitespace line: {:?}",
            input
        );
        prop_assert!(
            !last.trim().is_empty(),
            "trailing whitespace line: {:?}",
            input
        );
    }
    // L2: the UTF-16 entry point reads the same text alike
    let units: Vec<u16> = input.encode_utf16().collect();
    prop_assert_eq!(chatmark::from_commonmark_utf16(&units).to_formatted(), f);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// M2: the same characters bold, italic and struck as pulldown-cmark renders them.
    #[test]
    fn inline_styles_agree_with_pulldown_cmark_html(input in inline_text()) {
        let ours = flags(&chatmark::from_commonmark(&input));
        prop_assert_eq!(ours, reference_flags(&input), "input {:?}", input);
    }

    #[test]
    fn every_document_gives_a_canonical_result(input in document()) {
        check_document(&input)?;
    }
}

#[test]
fn the_reference_sees_each_style() {
    let want = [
        ('a', true, false, false),
        ('b', false, true, false),
        ('c', false, false, true),
        ('d', true, true, true),
    ];
    assert_eq!(reference_flags("**a** _b_ ~~c~~ ***~d~***"), want);
    assert_eq!(
        flags(&chatmark::from_commonmark("**a** _b_ ~~c~~ ***~d~***")),
        want
    );
}

/// Documents the generators rarely reach: each a shape that once needed care.
#[test]
fn documents_of_note_are_canonical() {
    for input in [
        "- # a\n\n- # b\n- ```\n  x\n  ```\n\n  > q",
        "> - a\n>\n>   b\n> - c",
        "| a |\n|---|\n| <br> |\n\n<br>",
        "&#13;&#10;x&#13;\n**&#13;&#10;**",
        // a `\r` before a soft break once kept the item's list code (1.3)
        "- *&#13;\na",
        "- \n  \n- \n\n-",
        "<div>\n\n  </div>\n\n<p>\n  a  <b>b</b>  \n</p>",
        "[![a](b)](https://c) [](mailto:x@y) [ ](http://z)",
    ] {
        check_document(input).unwrap();
    }
}
