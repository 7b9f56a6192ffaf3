//! Unit cases of chatmark's own HTML tokenizer (H1) beyond the html5lib suites: attribute
//! forms, spans, comments and bogus markup, input cut off inside markup, newline
//! preprocessing, character references in text and attribute values, and a property test of
//! well-formed spans. The token stream is recorded by the shared sink of `tests/common`.

mod common;

use common::{own as toks, Tok};

fn text(s: &str) -> Tok {
    Tok::Text(s.to_owned())
}

fn r(s: &str) -> Tok {
    Tok::Ref(s.to_owned())
}

/// The attributes of the single start tag in `input`.
fn attrs(input: &str) -> Vec<(String, String)> {
    match toks(input).as_slice() {
        [Tok::Start(_, attrs, _, _)] => attrs.clone(),
        other => panic!("{input:?}: {other:?}"),
    }
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn attribute_quoting_forms() {
    assert_eq!(
        attrs(r#"<a b="1 2" c='3 "4"' d=5 e f = "6" G=7>"#),
        pairs(&[
            ("b", "1 2"),
            ("c", "3 \"4\""),
            ("d", "5"),
            ("e", ""),
            ("f", "6"),
            ("g", "7")
        ])
    );
    assert_eq!(attrs("<a b=\"\" c=''>"), pairs(&[("b", ""), ("c", "")]));
    // Unquoted values keep quotes, `<`, `=` and backticks; `"x"y` after a quoted value
    // starts a new attribute.
    assert_eq!(attrs("<a b=x\"'<=`>"), pairs(&[("b", "x\"'<=`")]));
    assert_eq!(attrs("<a b=\"x\"c>"), pairs(&[("b", "x"), ("c", "")]));
    assert_eq!(attrs("<a =b>"), pairs(&[("=b", "")]));
    assert_eq!(attrs("<a b=>"), pairs(&[("b", "")]));
    assert_eq!(attrs("<a b\"c<d>"), pairs(&[("b\"c<d", "")]));
    // Duplicates: the first wins.
    assert_eq!(attrs("<a x=1 X=2 y x=3>"), pairs(&[("x", "1"), ("y", "")]));
    let many: String = (0..40)
        .map(|i| format!(" a{} a{}=d", i % 20, i % 20))
        .collect();
    let got = attrs(&format!("<p{many}>"));
    assert_eq!(got.len(), 20);
    assert_eq!(got[0], ("a0".to_owned(), String::new()));
    assert_eq!(got[19], ("a19".to_owned(), String::new()));
    // NUL becomes U+FFFD in names and values.
    assert_eq!(
        toks("<a\0 b\0=\"\0\">"),
        [Tok::Start(
            "a\u{fffd}".into(),
            pairs(&[("b\u{fffd}", "\u{fffd}")]),
            false,
            (0, 11)
        )]
    );
}

#[test]
fn self_closing_and_spans() {
    assert_eq!(
        toks("x<br/>y<img src=a />"),
        [
            text("x"),
            Tok::Start("br".into(), vec![], true, (1, 6)),
            text("y"),
            Tok::Start("img".into(), pairs(&[("src", "a")]), true, (7, 20)),
        ]
    );
    // `/` not before `>` is ignored; `<a/b>` has an attribute b.
    assert_eq!(attrs("<a/b>"), pairs(&[("b", "")]));
    assert_eq!(
        toks("<a / >"),
        [Tok::Start("a".into(), vec![], false, (0, 6))]
    );
    assert_eq!(toks("</B x=1/>"), [Tok::End("b".into(), (0, 9))]);
    assert_eq!(
        toks("<script>alert(1)</script>"),
        [
            Tok::Start("script".into(), vec![], false, (0, 8)),
            text("alert(1)"),
            Tok::End("script".into(), (16, 25)),
        ]
    );
}

#[test]
fn comments() {
    assert_eq!(toks("a<!-->b"), [text("ab")]);
    assert_eq!(toks("a<!--->b"), [text("ab")]);
    assert_eq!(toks("a<!-- a -- b -->b"), [text("ab")]);
    assert_eq!(toks("a<!--!>b-->c"), [text("ac")]);
    assert_eq!(toks("a<!-- x --!>b"), [text("ab")]);
    assert_eq!(toks("a<!-- x --!->b-->c"), [text("ac")]);
    assert_eq!(toks("a<!--<!-->b"), [text("ab")]);
    assert_eq!(toks("a<!--<!--->b"), [text("ab")]);
    assert_eq!(toks("a<!--<<!-- -->b"), [text("ab")]);
    assert_eq!(toks("a<!-- <b> -->c"), [text("ac")]);
    assert_eq!(toks("a<!---->b"), [text("ab")]);
    assert_eq!(toks("a<!------>b"), [text("ab")]);
}

#[test]
fn bogus_comments_doctype_and_odd_markup() {
    assert_eq!(toks("a<?php x ?>b"), [text("ab")]);
    assert_eq!(toks("a<!x>b"), [text("ab")]);
    assert_eq!(toks("a<!>b"), [text("ab")]);
    assert_eq!(toks("a<![CDATA[x>y]]>b"), [text("ay]]>b")]);
    assert_eq!(toks("a</1>b"), [text("ab")]);
    assert_eq!(toks("a</ x>b"), [text("ab")]);
    assert_eq!(toks("<!DOCTYPE html>x"), [text("x")]);
    assert_eq!(toks("<!doctype html PUBLIC \"a>b\">x"), [text("b\">x")]);
    assert_eq!(toks("<!DocType>x"), [text("x")]);
    assert_eq!(toks("a</>b"), [text("ab")]);
    assert_eq!(toks("a < b <3 <<"), [text("a < b <3 <<")]);
    assert_eq!(toks("a<"), [text("a<")]);
    assert_eq!(toks("a</"), [text("a</")]);
}

#[test]
fn eof_inside_markup_drops_it() {
    assert_eq!(toks("a<b"), [text("a")]);
    assert_eq!(toks("a<b c=\"d>"), [text("a")]);
    assert_eq!(toks("a</b"), [text("a")]);
    assert_eq!(toks("a<b/"), [text("a")]);
    assert_eq!(toks("a<!-- b"), [text("a")]);
    assert_eq!(toks("a<!--"), [text("a")]);
    assert_eq!(toks("a<!-"), [text("a")]);
    assert_eq!(toks("a<!DOCTYPE"), [text("a")]);
    assert_eq!(toks("a<?"), [text("a")]);
}

#[test]
fn newlines_are_preprocessed() {
    assert_eq!(toks("a\r\nb\rc\r\r\nd\r"), [text("a\nb\nc\n\nd\n")]);
    assert_eq!(
        attrs("<a b=\"1\r\n2\r3\" c='\r\r\n'\rd=x\r\n>"),
        pairs(&[("b", "1\n2\n3"), ("c", "\n\n"), ("d", "x")])
    );
    assert_eq!(
        toks("<a\r\nb>"),
        [Tok::Start("a".into(), pairs(&[("b", "")]), false, (0, 6))]
    );
}

#[test]
fn attribute_value_reference_rule() {
    assert_eq!(attrs("<a b=\"&ampx\">"), pairs(&[("b", "&ampx")]));
    assert_eq!(attrs("<a b=\"&amp=\">"), pairs(&[("b", "&amp=")]));
    assert_eq!(attrs("<a b=\"&amp;x\">"), pairs(&[("b", "&x")]));
    assert_eq!(attrs("<a b=\"&amp \">"), pairs(&[("b", "& ")]));
    assert_eq!(attrs("<a b=&notit;>"), pairs(&[("b", "&notit;")]));
    assert_eq!(attrs("<a b=&not;it>"), pairs(&[("b", "¬it")]));
    assert_eq!(attrs("<a b='&#x41x&#66'>"), pairs(&[("b", "AxB")]));
    assert_eq!(toks("&ampx"), [r("&"), text("x")]);
    assert_eq!(toks("&notit;"), [r("¬"), text("it;")]);
    assert_eq!(toks("&notin;"), [r("∉")]);
    assert_eq!(toks("&amp=&unknown;&"), [r("&"), text("=&unknown;&")]);
}

#[test]
fn numeric_references() {
    assert_eq!(toks("&#x80;&#129;&#x9F"), [r("\u{20AC}\u{81}\u{178}")]);
    assert_eq!(toks("&#x8D;&#x99;&#150;"), [r("\u{8D}\u{2122}\u{2013}")]);
    assert_eq!(
        toks("&#0;&#xD800;&#x110000;"),
        [r("\u{FFFD}\u{FFFD}\u{FFFD}")]
    );
    assert_eq!(toks("&#99999999999999999999999;"), [r("\u{FFFD}")]);
    assert_eq!(
        toks("&#x0000000041;&#13;&#xFFFF;&#1"),
        [r("A\r\u{FFFF}\u{1}")]
    );
    assert_eq!(toks("&#;&#x;&#xg;&# "), [text("&#;&#x;&#xg;&# ")]);
    assert_eq!(toks("&#65x"), [r("A"), text("x")]);
}

proptest::proptest! {
    /// No input panics; tag spans are in order, inside the input, from `<` to `>`; and
    /// literal text never holds a `\r`.
    #[test]
    fn spans_and_text_are_well_formed(input in "[<>/!a-c=&#x;'\"\r\n \\x00é-]{0,40}") {
        let mut last_end = 0;
        for tok in toks(&input) {
            match tok {
                Tok::Text(t) => proptest::prop_assert!(!t.contains('\r')),
                Tok::Ref(_) => {}
                Tok::Start(.., (a, b)) | Tok::End(_, (a, b)) => {
                    proptest::prop_assert!(last_end <= a && a < b && b <= input.len());
                    proptest::prop_assert!(input[a..b].starts_with('<'));
                    proptest::prop_assert!(input[a..b].ends_with('>'));
                    last_end = b;
                }
            }
        }
    }
}

#[test]
fn text_and_char_ref_split() {
    assert_eq!(
        toks("a &#32;b&nbsp;&lt;c&NotEqualTilde;"),
        [
            text("a "),
            r(" "),
            text("b"),
            r("\u{a0}<"),
            text("c"),
            r("\u{2242}\u{338}"),
        ]
    );
    assert_eq!(toks("\0&amp\0"), [text("\0"), r("&"), text("\0")]);
}
