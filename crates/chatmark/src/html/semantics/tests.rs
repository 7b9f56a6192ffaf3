//! Tests of the HTML-mode semantics beyond the data files: diagnostics (L3), deep nesting
//! (L1) and no-panic sweeps over token sequences and strings (L2). The vectors of
//! `tests/data/*.jsonl` run through the real tokenizers in `tests/vectors.rs`; the timing
//! of the adversarial shapes is measured by the scaling binary (`benches`), not here.

use super::*;
use crate::html::token::Attribute;
use crate::html::{parse_html_with, Backend};
use crate::Formatted;

use crate::rng::Rng;

/// Semantics over chatmark's own tokenizer, whose spans the assertions below spell out.
fn parse(input: &str) -> (Formatted, Vec<Diagnostic>) {
    parse_html_with(input, Backend::Own)
}

// ---- L3 diagnostics ------------------------------------------------------------------

/// A diagnostic as `(code, start, len)` in UTF-16 units.
type Diag = (&'static str, usize, usize);

/// The diagnostics of `input`.
fn diags(input: &str) -> Vec<Diag> {
    parse(input)
        .1
        .iter()
        .map(|d| (d.code.as_str(), d.start, d.len))
        .collect()
}

const UNMATCHED: &str = "unmatched_closing_tag";
const UNCLOSED: &str = "unclosed_tag";
const UNSUPPORTED: &str = "unsupported_element";

/// Inputs and their diagnostics `(code, start, len)` (L3).
#[rustfmt::skip]
const DIAGNOSTIC_CASES: &[(&str, &[Diag])] = &[
    ("<i>a</i></b>", &[(UNMATCHED, 8, 4)]),
    ("a</p>b</li>", &[(UNMATCHED, 1, 4), (UNMATCHED, 6, 5)]),
    // the second </b> finds no open b
    ("<b>a</b></b>", &[(UNMATCHED, 8, 4)]),
    // </br> is a br, never unmatched
    ("a</br>b", &[]),
    // a void element never opens, so its end tag is unmatched
    ("<hr></hr>", &[(UNMATCHED, 4, 5)]),
    // positions in UTF-16 units
    ("\u{1F600}<b>x", &[(UNCLOSED, 2, 3)]),
    ("<b>x</i>", &[(UNCLOSED, 0, 3), (UNMATCHED, 4, 4)]),
    ("<div style=\"color:red\">\u{e9}", &[(UNCLOSED, 0, 23)]),
    // li, p and tr may omit their end tag in HTML: no diagnostic for them
    ("<ul><li>a<li><p>b", &[(UNCLOSED, 0, 4)]),
    ("<table><tr>x", &[(UNCLOSED, 0, 7)]),
    // elements closed by H5 before the end are not reported
    ("<b><p>x</b>", &[]),
    ("<b><i>x</b>y", &[(UNCLOSED, 3, 3)]),
    ("<foo>x</foo>", &[(UNSUPPORTED, 0, 5)]),
    ("a<img src=x>b", &[(UNSUPPORTED, 1, 11)]),
    ("<x>y", &[(UNSUPPORTED, 0, 3), (UNCLOSED, 0, 3)]),
    ("<span>a</span><font color=red>b</font>", &[]),
];

#[test]
fn html_diagnostics_l3() {
    for &(input, want) in DIAGNOSTIC_CASES {
        assert_eq!(diags(input), want, "{input:?}");
    }
    // every element of the H3 table is known: no unsupported_element
    let known =
        "<b></b><strong></strong><i></i><em></em><u></u><ins></ins><s></s><strike></strike>\
        <del></del><h1></h1><h2></h2><h3></h3><h4></h4><h5></h5><h6></h6><big></big>\
        <small></small><red></red><orange></orange><yellow></yellow><green></green>\
        <underline></underline><ul></ul><ol></ol><li></li><blockquote></blockquote><p></p>\
        <div></div><pre></pre><hr><section></section><article></article><header></header>\
        <footer></footer><table></table><tr></tr><br>";
    assert_eq!(diags(known), []);
}

#[test]
fn html_diagnostic_spans_inside_a_character_round_down() {
    let input = "\u{e9}\u{1F600}x";
    let mut scratch = Scratch::default();
    let mut out = FormattedBuilder::with_capacity(0, 0);
    let mut sem = Semantics::new(Source::Utf8(input), &mut scratch, true, &mut out);
    TokenSink::end_tag(&mut sem, "b", (1, 4));
    TokenSink::end_tag(&mut sem, "i", (3, 99));
    let d = sem.finish();
    let got: Vec<_> = d.iter().map(|x| (x.start, x.len)).collect();
    assert_eq!(got, [(0, 1), (1, 3)]);
}

#[test]
fn html_no_diagnostics_for_clean_input() {
    let (f, d) = parse("<b>a</b> <i>b</i><br><ul><li>c</li></ul>");
    assert_eq!(f.text, "a b\nc");
    assert!(d.is_empty());
}

// ---- L1 linear time, L2 no panic -----------------------------------------------------

/// Parses `n` copies of each piece, concatenated.
fn drive(pieces: &[(&str, usize)]) -> (Formatted, Vec<Diagnostic>) {
    let mut src = String::new();
    for (p, n) in pieces {
        for _ in 0..*n {
            src.push_str(p);
        }
    }
    parse(&src)
}

#[test]
fn html_deep_nesting_is_fine() {
    let n = 100_000;
    let (f, _) = drive(&[("<b>", n), ("x", 1), ("</b>", n)]);
    assert_eq!((f.text.as_str(), f.text_styles.len()), ("x", 1));
    let first_codes = |f: &Formatted| -> Vec<&str> {
        f.text_styles[0].st.iter().map(StyleCode::as_str).collect()
    };
    let (f, d) = drive(&[("<b>", n), ("<i>", n), ("</b>", n), ("x", 1)]);
    assert_eq!(first_codes(&f), ["i"]);
    assert_eq!(d.len(), crate::diagnostics::MAX_DIAGNOSTICS); // L3: the first ones only
    let (f, _) = drive(&[("<ul><li>", n), ("x", 1)]);
    assert_eq!(first_codes(&f), ["lst_1", "ind_5"]);
    let (f, _) = drive(&[("<li>x", n)]);
    assert_eq!(f.text.len(), 2 * n - 1);
}

/// Checks canonical form (C1–C6), 1.3 (no line code on `\n`) and diagnostics inside the
/// input.
fn assert_canonical(input: &str, f: &Formatted, d: &[Diagnostic]) {
    assert_eq!(f.check_canonical(), Ok(()), "{input:?}");
    let units: Vec<u16> = f.text.encode_utf16().collect();
    for r in &f.text_styles {
        if units[r.start..r.end()].contains(&u16::from(b'\n')) {
            assert_eq!(
                r.st,
                r.st.without_line_codes(),
                "{input:?}: line code on \\n"
            );
        }
    }
    let len = input.encode_utf16().count();
    for x in d {
        assert!(x.start + x.len <= len, "{input:?}: {x:?}");
    }
}

#[test]
fn html_never_panics_on_token_sequences() {
    #[rustfmt::skip]
    const NAMES: [&str; 20] = [
        "b", "i", "u", "s", "p", "li", "ul", "ol", "pre", "br", "blockquote", "h1", "h5",
        "font", "span", "x", "hr", "img", "div", "big",
    ];
    #[rustfmt::skip]
    const STYLES: [&str; 12] = [
        "color:red", "font-weight:normal", "font-size:14px", "text-decoration:none",
        "font-style:italic;color:#db342e", "/*", "color:rgb(1,2", ":;:;",
        "font-size:99999999999999999999999999999999999.5pt", "font-weight:.",
        "color:#\u{e9}\u{e9}\u{e9}", "font-size:\u{e9}px",
    ];
    #[rustfmt::skip]
    const TEXT: [&str; 10] = [
        " ", "\n", "a", "\u{1F600}", "\r", "\t", "  \n ", "x y", "\u{c}", "",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let input: String = (0..24).map(|_| rng.pick(&TEXT)).collect();
        let mut scratch = Scratch::default();
        let mut out = FormattedBuilder::with_capacity(0, 0);
        let mut sem = Semantics::new(Source::Utf8(&input), &mut scratch, true, &mut out);
        for _ in 0..40 {
            let span = ((rng.next() % 40) as usize, (rng.next() % 40) as usize);
            match rng.next() % 5 {
                0 => {
                    let attrs = [
                        Attribute {
                            name: "style".into(),
                            value: (rng.pick(&STYLES)).into(),
                        },
                        Attribute {
                            name: "color".into(),
                            value: (rng.pick(&STYLES)).into(),
                        },
                    ];
                    let k = (rng.next() % 3) as usize;
                    TokenSink::start_tag(
                        &mut sem,
                        &StartTag {
                            name: rng.pick(&NAMES),
                            attrs: &attrs[..k.min(2)],
                            self_closing: rng.next() % 2 == 0,
                            span,
                        },
                    );
                }
                1 => TokenSink::end_tag(&mut sem, rng.pick(&NAMES), span),
                2 => TokenSink::char_ref(&mut sem, rng.pick(&TEXT)),
                _ => TokenSink::text(&mut sem, rng.pick(&TEXT)),
            }
        }
        let d = sem.finish();
        let f = out.finish();
        assert_canonical(&input, &f, &d);
    }
}

#[test]
fn html_never_panics_on_strings() {
    #[rustfmt::skip]
    const BITS: [&str; 22] = [
        "<b>", "</b>", "<p>", "</p>", "<li>", "<ul>", "</ul>", "<br>", "</br>", "<pre>",
        "</pre>", " ", "\n", "\r\n", "&#10;", "&#32;", "a", "\u{e9}", "\u{1F600}", "<i>",
        "</i>", "<span style=\"color:red;font-size:20px\">",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..3000 {
        let input: String = (0..30).map(|_| rng.pick(&BITS)).collect();
        let (f, d) = parse(&input);
        assert_canonical(&input, &f, &d);
    }
}

// ---- the element table ---------------------------------------------------------------

#[test]
fn known_names_match_their_ids_h3() {
    for (i, name) in KNOWN.iter().enumerate() {
        assert_eq!(known(name), Some(i as u32), "{name}");
        assert_eq!(
            known(&name.to_uppercase()),
            None,
            "names are matched lower-cased"
        );
    }
    for name in ["", "bb", "x", "img", "underlines", "h7", "spa"] {
        assert_eq!(known(name), None, "{name}");
    }
    assert_eq!((KNOWN[BR as usize], KNOWN[HR as usize]), ("br", "hr"));
    assert_eq!(KNOWN[FONT as usize], "font");
    // the I3 tags are elements of the same name and effect
    for tag in crate::vocab::Tag::ALL {
        let (role, effect) = classify(known(tag.name()));
        assert_eq!(role, Role::Inline, "{}", tag.name());
        assert_eq!(effect, Effect::default().with(tag.code()), "{}", tag.name());
    }
    // H3's blocks and lists, by name (`is_block` is one compare on the role's order)
    #[rustfmt::skip]
    let blocks = [
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "p", "div",
        "hr", "section", "article", "header", "footer", "table", "tr",
    ];
    for name in KNOWN {
        let role = classify(known(name)).0;
        let list = match name {
            "ul" => Some(StyleCode::Bullet),
            "ol" => Some(StyleCode::Ordered),
            _ => None,
        };
        assert_eq!(role.list_code(), list, "{name}");
        assert_eq!(role.is_block(), blocks.contains(&name), "{name}");
    }
}

/// The scan of `Out::push` (a word or sixteen bytes at a time) counts UTF-16 units and
/// finds line breaks as the plain definitions do (1.3), at every length and with every
/// kind of character.
#[test]
fn scan_agrees_with_utf16_len() {
    let pieces = [
        "a",
        " ",
        "\r",
        "\n",
        "\u{e9}",
        "\u{20ac}",
        "\u{1F600}",
        "\u{c}",
        "\0",
        "\u{7f}",
    ];
    let mut rng = Rng(0x51_7CC1_B727_220A);
    for round in 0..5000 {
        // every other text has no line break at all, or one only
        let n = (rng.next() % 24) as usize;
        let mut s: String = (0..n)
            .map(|_| rng.pick(&pieces))
            .filter(|p| round % 2 == 0 || !p.contains(['\r', '\n']))
            .collect();
        if round % 4 == 1 {
            let at = s
                .char_indices()
                .map(|(k, _)| k)
                .nth(n / 2)
                .unwrap_or(s.len());
            s.insert(at, if round % 8 == 1 { '\r' } else { '\n' });
        }
        for lf in [false, true] {
            let want_breaks = s.contains('\r') || (lf && s.contains('\n'));
            assert_eq!(
                scan::<true>(s.as_bytes(), lf),
                (s.encode_utf16().count(), want_breaks),
                "{s:?}"
            );
            assert_eq!(scan::<false>(s.as_bytes(), lf), (0, want_breaks), "{s:?}");
            // the same text inside other text, whose line breaks do not count
            let pre: String = (0..rng.below(20)).map(|_| rng.pick(&pieces)).collect();
            let post: String = (0..rng.below(20)).map(|_| rng.pick(&pieces)).collect();
            let src = format!("{pre}{s}{post}");
            let (a, b) = (pre.len(), pre.len() + s.len());
            assert_eq!(
                scan_in::<true>(src.as_bytes(), a, b, lf),
                (s.encode_utf16().count(), want_breaks),
                "{src:?} {a}..{b}"
            );
            assert_eq!(
                scan_in::<false>(src.as_bytes(), a, b, lf),
                (0, want_breaks),
                "{src:?} {a}..{b}"
            );
        }
    }
}

/// H4: the fast path of `style` values spelled `color:#rrggbb` gives the effect of reading
/// every declaration, on random values around that spelling (other cases, six digits or
/// not, other separators, comments, spaces, palette and other colours) and from effects
/// that already hold codes.
#[test]
fn renderer_colour_spelling_reads_as_every_declaration_h4() {
    #[rustfmt::skip]
    const PIECES: [&str; 28] = [
        "db342e", "DB342E", "15a85f", "050a19", "f7b503", "f27806", "0", "a", "F", "g", "#",
        ";", ":", "/", "/*", "*/", " ", "\t", "color", "COLOR", "color:", "red", "font-weight:",
        "bold", "\u{e9}", "1", "e", "x:y",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let starts = [
        Effect::NONE,
        Effect::NONE.with(StyleCode::Red),
        Effect::NONE.with(StyleCode::Bold),
    ];
    let mut fast = 0;
    for k in 0..100_000 {
        let head = if k % 4 == 0 { "" } else { "color:#" };
        let n = rng.below(6);
        let mut style = String::from(head);
        for _ in 0..n {
            style.push_str(rng.pick(&PIECES));
        }
        let start = rng.pick(&starts);
        let (mut got, mut want) = (start, start);
        css::apply_style(&style, &mut got);
        css::apply_declarations(&style, &mut want);
        assert_eq!(got, want, "{style:?}");
        fast += usize::from(style.len() == 13 && style.starts_with("color:#"));
    }
    // the fast path's spelling is among them, often
    assert!(fast > 1000, "{fast}");
}

/// H4 `#rrggbb`: the palette look on the digits as one word gives what decoding them and
/// comparing the colour does, for digits of either case, the bytes that lower-case onto a
/// digit (`0x10`–`0x19`, `G`, `@`) and the palette's own digits in every mix of cases.
#[test]
fn hex_colours_match_the_palette_by_value_h4() {
    let reference = |digits: &[u8]| -> Option<StyleCode> {
        let text = core::str::from_utf8(digits).ok()?;
        if digits.len() != 6 || !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let value = u32::from_str_radix(text, 16).ok()?;
        let rgb = [(value >> 16) as u8, (value >> 8) as u8, value as u8];
        crate::vocab::PALETTE
            .iter()
            .find(|c| c.rgb == rgb)
            .map(|c| c.code)
    };
    let mut bytes: Vec<u8> = b"0123456789abcdefABCDEFgG@`/:".to_vec();
    bytes.extend(0x10..=0x19);
    let mut rng = Rng(0xA076_1D64_78BD_642F);
    let mut hits = 0;
    for k in 0..200_000 {
        let digits: Vec<u8> = if k % 2 == 0 {
            // a palette colour's digits, each byte in a random case or swapped for another
            let c = rng.pick(&crate::vocab::PALETTE);
            let hex = format!("{:02x}{:02x}{:02x}", c.rgb[0], c.rgb[1], c.rgb[2]);
            hex.bytes()
                .map(|b| match rng.below(8) {
                    0 => b.to_ascii_uppercase(),
                    1 => rng.pick(&bytes),
                    2 if b.is_ascii_digit() => b - 0x20,
                    _ => b,
                })
                .collect()
        } else {
            (0..6).map(|_| rng.pick(&bytes)).collect()
        };
        let mut value = vec![b'#'];
        value.extend(&digits);
        let Ok(value) = String::from_utf8(value) else {
            continue;
        };
        let want = reference(&digits);
        assert_eq!(parse_colour(&value), want, "{value:?}");
        hits += usize::from(want.is_some());
    }
    assert!(hits > 10_000, "{hits}");
}
