//! Unit tests of the import's helpers; its behaviour is tested on data
//! (`tests/data/import*.jsonl` through `tests/vectors.rs`) and by the properties of
//! `tests/commonmark.rs`.

use super::*;

fn run(start: usize, len: usize, codes: &[StyleCode]) -> TextStyle {
    TextStyle {
        start,
        len,
        st: codes.iter().copied().collect(),
    }
}

#[test]
fn blank_lines_between_list_blocks_m1() {
    let src = b"- # a\n\n- # b";
    // from the end of the first heading (its line break included) to the next item
    assert!(loose::blank_line_between(src, 6, 7));
    assert!(!loose::blank_line_between(b"- # a\n- # b", 6, 6));
    // the rest of a block's own line is not a line of the gap
    assert!(!loose::blank_line_between(b"a  \n- b", 1, 4));
    // a quote's bare marker is a blank line of the quote
    assert!(loose::blank_line_between(b"> - # a\n>\n> - # b", 8, 12));
    // a line with anything else, or one that ends past the gap, is not blank
    assert!(!loose::blank_line_between(b"x\n[r]: /u\n- b", 2, 10));
    assert!(!loose::blank_line_between(b"x\n  ", 2, 4));
    // out of range reads nothing
    assert!(!loose::blank_line_between(b"x", 5, 9));
}

#[test]
fn absolute_destinations_m7() {
    for d in ["http://a", "HTTPS://a", "mailto:a@b", "Http:x"] {
        assert!(is_absolute(d), "{d}");
    }
    for d in [
        "/a",
        "ftp://a",
        "http:",
        "https",
        "a.html",
        "#x",
        "",
        "tel:1",
        "javascript:x",
    ] {
        assert!(!is_absolute(d), "{d}");
    }
}

#[test]
fn widening_shifts_later_runs_m1() {
    // "a\nb\nc" whose two separators belong to lists: slot 0 loose, slot 1 tight
    let b = [StyleCode::Bullet];
    let runs = vec![run(0, 1, &b), run(2, 1, &b), run(4, 1, &b)];
    let patches = [
        Patch {
            byte: 1,
            unit: 1,
            slot: 0,
        },
        Patch {
            byte: 3,
            unit: 3,
            slot: 1,
        },
    ];
    let (text, runs) = widen("a\nb\nc", runs, &patches, &[true, false]);
    assert_eq!(text, "a\n\nb\nc");
    assert_eq!(runs, [run(0, 1, &b), run(3, 1, &b), run(5, 1, &b)]);
}

#[test]
fn whitespace_lines_at_the_ends_go_m1() {
    let b = [StyleCode::Bold];
    let f = trim_whitespace_lines(" \u{a0}\n\n x\ny \n \t".to_owned(), vec![run(0, 6, &b)]);
    assert_eq!(f.text, " x\ny ");
    assert_eq!(f.text_styles, [run(0, 2, &b)]);
    assert_eq!(f.check_canonical(), Ok(()));
    let f = trim_whitespace_lines(" \n ".to_owned(), vec![run(0, 3, &b)]);
    assert_eq!(f, Formatted::default());
    let kept = trim_whitespace_lines("a\n\nb".to_owned(), vec![run(3, 1, &b)]);
    assert_eq!((kept.text.as_str(), kept.text_styles.len()), ("a\n\nb", 1));
}

#[test]
fn a_carriage_return_before_a_separator_keeps_inline_codes_only() {
    // 1.3: `\r` before `\n` is part of the line break, which line codes never cover
    let f = from_commonmark("- **a&#13;**\n- b");
    assert_eq!(f.text, "a\r\nb");
    let codes: Vec<Vec<&str>> = f
        .text_styles
        .iter()
        .map(|r| r.st.iter().map(StyleCode::as_str).collect())
        .collect();
    assert_eq!(codes, [vec!["b", "lst_1"], vec!["b"], vec!["lst_1"]]);
    assert_eq!(f.text_styles[1].start, 1);
}

#[test]
fn utf16_entry_replaces_lone_surrogates_l2() {
    let f = from_commonmark_utf16(&[0x2a, 0xd800, 0x2a, 0x61]);
    assert_eq!(f.to_formatted(), from_commonmark("*\u{fffd}*a"));
}

#[test]
fn lists_without_paragraphs_judged_on_the_source_m1() {
    // items separated by a blank line; blocks of one item separated by one; neither; a blank
    // line inside a fenced block or a nested list, which does not count for the outer list
    assert_eq!(loose::blank_separated_lists("- # a\n\n- # b"), [true]);
    assert_eq!(
        loose::blank_separated_lists("- # a\n\n  ```\n  x\n  ```"),
        [true]
    );
    assert_eq!(loose::blank_separated_lists("- # a\n- # b"), [false]);
    assert_eq!(
        loose::blank_separated_lists("- ```\n  x\n\n  y\n  ```\n- # b"),
        [false]
    );
    assert_eq!(
        loose::blank_separated_lists("- - # a\n\n  - # b\n- # c\n\n> - # d\n>\n> - # e"),
        [false, true, true]
    );
}
