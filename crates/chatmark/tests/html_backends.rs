//! Differential test of the two H1 tokenizers: on arbitrary strings biased toward markup and
//! reference syntax, the own tokenizer and the html5ever backend give the same token stream,
//! with literal text and reference output kept apart and spans compared.

#![cfg(feature = "html5ever")]

mod common;

use proptest::prelude::*;

/// Fragments the inputs are built from: markup and reference punctuation, letters, digits,
/// whitespace, `\r`, NUL, non-ASCII, and a few words that make tags, comments and names.
const FRAGMENTS: &[&str] = &[
    "<",
    "<",
    "<",
    ">",
    ">",
    "/",
    "!",
    "-",
    "-",
    "&",
    "&",
    ";",
    "#",
    "x",
    "X",
    "=",
    "\"",
    "'",
    "a",
    "b",
    "p",
    "A",
    "Z",
    "0",
    "1",
    "9",
    "f",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\0",
    "?",
    "`",
    "\u{e9}",
    "\u{1F600}",
    "amp",
    "AMP",
    "lt",
    "not",
    "notin",
    "in",
    "NotEqualTilde",
    "nbsp",
    "&#",
    "&#x",
    "&amp",
    "<!--",
    "-->",
    "--!>",
    "</",
    "<!DOCTYPE",
    "<!doctype",
    "[CDATA[",
    "]]>",
    "<a ",
    "<b>",
    "</b>",
    "script",
    "80",
    "38",
    "26",
    "D800",
    "110000",
    "9999999999",
];

fn html_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn own_and_html5ever_agree(input in html_like()) {
        prop_assert_eq!(common::own(&input), common::html5ever(&input), "input: {:?}", input);
    }

    #[test]
    fn own_and_html5ever_agree_on_any_string(input in any::<String>()) {
        prop_assert_eq!(common::own(&input), common::html5ever(&input), "input: {:?}", input);
    }
}

/// Cases the property found or that pin the adapter's re-derivation of references and spans.
#[test]
fn known_cases_agree() {
    let cases = [
        "&amp;amp;",
        "&ampx&amp",
        "&#38;&#x26&#0038",
        "&",
        "&#",
        "&#x",
        "a&b",
        "&amx",
        "&NotEqualTilde;",
        "&NotEqualTilde;\u{338}",
        "&nvlt;\u{20D2}x",
        "<&amp;",
        "<&x",
        "x</>y</>&amp;</>z<b>",
        "a\r\nb\r&amp;\r\n<p\r\nq='\r\n'>\r",
        "<a b='&ampx' c=&amp;>",
        "\u{feff}x",
        "<!-- x -->&lt;<!doctype a>b",
        "&lt",
        "&notit",
        "<",
        "</",
        "<a",
    ];
    for input in cases {
        assert_eq!(
            common::own(input),
            common::html5ever(input),
            "input: {input:?}"
        );
    }
}
