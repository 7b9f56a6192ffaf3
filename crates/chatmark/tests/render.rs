//! Rendering back (spec section 6): property tests of the round trips
//! `parse_html(to_html(x)) == x` (W1) and `parse_markdown(to_markdown(x).text) == x` when
//! nothing is reported lost (W2); the lossless rate on word-boundary styling; the escaping
//! cases of `tests/data/render_cases.jsonl`; and the round trip of every public vector's
//! expected output whose line codes cover whole lines.
//!
//! `RENDER_CASES` sets the number of proptest cases (default 10,000).
#![cfg(not(target_arch = "wasm32"))]

use chatmark::{normalize, Formatted, RawTextStyle, StyleCode, StyleSet};
use proptest::prelude::*;
use serde_json::Value;

fn cases() -> u32 {
    std::env::var("RENDER_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

const CODES: [&str; 20] = [
    "b", "i", "u", "s", "f_13", "f_15", "f_18", "f_20", "c_050a19", "c_15a85f", "c_f7b503",
    "c_f27806", "c_db342e", "lst_1", "lst_2", "ind_1", "ind_2", "ind_3", "ind_4", "ind_5",
];

/// Text biased toward what is hard to render: whitespace at line edges, breaks of every
/// kind, markup characters of both dialects, non-BMP characters.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-c]{1,3}",
        3 => Just(" ".to_string()),
        3 => prop::sample::select(vec!["\n", "\r\n", "\r", "\n\n", "\t", "\u{c}", "  "])
            .prop_map(str::to_string),
        2 => prop::sample::select(vec![
            "*", "**", "_", "~~", "`", "\\", "{red}", "<red>", "</b>", "&amp;", "&", "<", ">",
            "\"", "'", "#", "- ", "> ", "1. ", "+", ".", "(", "😀", "é", "\u{a0}", "\0",
            "\u{80}", "\u{b}", "\u{2028}",
        ])
        .prop_map(str::to_string),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

fn run() -> impl Strategy<Value = (i64, i64, Vec<&'static str>)> {
    (
        0i64..40,
        1i64..20,
        prop::collection::vec(prop::sample::select(CODES.to_vec()), 1..4),
    )
}

/// A canonical message whose line codes cover whole lines: text plus random client runs,
/// normalised (section 4), then line codes dropped from lines they do not fully cover.
fn canonical() -> impl Strategy<Value = Formatted> {
    (text(), prop::collection::vec(run(), 0..8)).prop_map(|(text, runs)| {
        let raw: Vec<RawTextStyle<'_>> = runs
            .iter()
            .map(|(s, l, st)| RawTextStyle {
                start: Some(*s),
                len: Some(*l),
                st: Some(st.clone()),
            })
            .collect();
        let (styles, _) = normalize(&text, &raw);
        Formatted {
            text,
            text_styles: styles,
        }
        .with_whole_line_codes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn render_html_round_trips_w1(x in canonical()) {
        prop_assert_eq!(x.check_canonical(), Ok(()));
        let html = x.to_html();
        prop_assert_eq!(chatmark::parse_html(&html), x, "html: {}", html);
    }

    #[test]
    fn render_markdown_round_trips_when_lossless_w2(x in canonical()) {
        let md = x.to_markdown();
        if md.is_lossless() {
            prop_assert_eq!(chatmark::parse_markdown(&md.text), x, "markdown: {:?}", md.text);
        }
    }
}

/// A tiny deterministic generator (xorshift) for the lossless-rate measurement.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A message of words and spaces over 1–4 lines, random word ranges styled with
/// `b i s u`, a colour or `f_18`, and whole-line list and indent codes.
fn worded(rng: &mut Rng) -> Formatted {
    const INLINE: [&str; 9] = [
        "b", "i", "s", "u", "c_db342e", "c_15a85f", "c_f27806", "c_f7b503", "f_18",
    ];
    let mut text = String::new();
    // (start, end) of every word, in UTF-16 units (ASCII: bytes), and of every line
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for l in 0..1 + rng.below(4) {
        if l > 0 {
            text.push('\n');
        }
        let start = text.len();
        for w in 0..1 + rng.below(8) {
            if w > 0 {
                text.push(' ');
            }
            let s = text.len();
            for _ in 0..1 + rng.below(7) {
                text.push((b'a' + rng.below(26) as u8) as char);
            }
            if rng.below(10) == 0 {
                text.push(['.', ',', '!', '?'][rng.below(4)]);
            }
            words.push((s, text.len()));
        }
        lines.push((start, text.len()));
    }
    let mut raw: Vec<RawTextStyle<'static>> = Vec::new();
    for _ in 0..rng.below(5) {
        let a = rng.below(words.len());
        let b = (a + rng.below(4)).min(words.len() - 1);
        let (s, e) = (words[a].0, words[b].1);
        let codes = vec![INLINE[rng.below(INLINE.len())]];
        raw.push(RawTextStyle {
            start: Some(s as i64),
            len: Some((e - s) as i64),
            st: Some(codes),
        });
    }
    for &(s, e) in &lines {
        let mut codes = Vec::new();
        match rng.below(6) {
            0 => codes.push("lst_1"),
            1 => codes.push("lst_2"),
            _ => {}
        }
        match rng.below(8) {
            0 => codes.push("ind_1"),
            1 => codes.push("ind_2"),
            _ => {}
        }
        if !codes.is_empty() {
            raw.push(RawTextStyle {
                start: Some(s as i64),
                len: Some((e - s) as i64),
                st: Some(codes),
            });
        }
    }
    let (styles, _) = normalize(&text, &raw);
    Formatted {
        text,
        text_styles: styles,
    }
}

#[test]
fn render_markdown_lossless_rate_on_word_styling() {
    let n = cases() as usize;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut lossless = 0usize;
    let mut sample: Vec<String> = Vec::new();
    for _ in 0..n {
        let x = worded(&mut rng);
        let md = x.to_markdown();
        if md.is_lossless() {
            lossless += 1;
            assert_eq!(chatmark::parse_markdown(&md.text), x, "{:?}", md.text);
        } else if sample.len() < 5 {
            sample.push(format!("{:?} {:?}", md.text, md.unexpressed));
        }
    }
    let rate = lossless as f64 / n as f64;
    println!(
        "to_markdown lossless rate on word-boundary styling: {lossless}/{n} = {:.2}%",
        rate * 100.0
    );
    for s in &sample {
        println!("  lossy: {s}");
    }
    assert!(rate >= 0.99, "lossless rate {rate}");
}

// ---- data-driven cases ---------------------------------------------------------------

fn formatted_of(v: &Value) -> Formatted {
    let text = v["text"].as_str().unwrap_or_default().to_owned();
    let (styles, _) =
        chatmark::normalize_json(&text, &v["text_styles"].to_string(), &Default::default())
            .unwrap();
    Formatted {
        text,
        text_styles: styles,
    }
}

/// The start tags a tokenizer sees in `html` (names), with the crate's own tokenizer.
fn start_tags(html: &str) -> Vec<String> {
    struct Tags(Vec<String>);
    impl chatmark::html::token::TokenSink for Tags {
        fn text(&mut self, _: &str) {}
        fn char_ref(&mut self, _: &str) {}
        fn start_tag(&mut self, tag: &chatmark::html::token::StartTag<'_>) {
            self.0.push(tag.name.to_owned());
        }
        fn end_tag(&mut self, _: &str, _: (usize, usize)) {}
    }
    let mut sink = Tags(Vec::new());
    chatmark::html::tokenizer::tokenize(html, &mut sink);
    sink.0
}

/// The tags `to_html` writes itself.
const OWN_TAGS: [&str; 10] = [
    "b",
    "i",
    "u",
    "s",
    "span",
    "br",
    "ul",
    "ol",
    "li",
    "blockquote",
];

#[test]
fn render_escaping_cases() {
    let data = include_str!("data/render_cases.jsonl");
    let mut ran = 0;
    for (k, line) in data.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap_or("?");
        let x = formatted_of(&v["input"]);
        let html = x.to_html();
        // No raw `<` of user text: every start tag is one of ours, and no user text ever
        // reaches an attribute (ours are fixed strings).
        for tag in start_tags(&html) {
            assert!(OWN_TAGS.contains(&tag.as_str()), "{id}: <{tag}> in {html}");
        }
        for bad in ["<script", "<img", "onerror=\"", "\"><"] {
            assert!(!html.contains(bad), "{id}: {bad} in {html}");
        }
        if let Some(want) = v["html"].as_str() {
            assert_eq!(html, want, "{id} (line {})", k + 1);
        }
        assert_eq!(chatmark::parse_html(&html), x, "{id}: html {html}");
        let md = x.to_markdown();
        if let Some(want) = v["markdown"].as_str() {
            assert_eq!(md.text, want, "{id} (line {})", k + 1);
        }
        if let Some(want) = v["lossless"].as_bool() {
            assert_eq!(md.is_lossless(), want, "{id}: {md:?}");
        }
        if md.is_lossless() {
            assert_eq!(
                chatmark::parse_markdown(&md.text),
                x,
                "{id}: md {:?}",
                md.text
            );
        }
        ran += 1;
    }
    assert!(ran >= 10, "only {ran} render cases");
}

/// Whether every line code of `x` covers its whole line.
fn whole_lines(x: &Formatted) -> bool {
    x.with_whole_line_codes() == *x
}

#[test]
fn render_round_trips_every_public_vector_expectation() {
    let data = include_str!("data/conformance.jsonl");
    let (mut html_ok, mut md_lossless, mut total) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(expect) = v.get("expect") else {
            continue;
        };
        let id = v["id"].as_str().unwrap_or("?");
        let x: Formatted = serde_json::from_value(expect.clone()).unwrap();
        if !whole_lines(&x) {
            continue;
        }
        total += 1;
        let html = x.to_html();
        if chatmark::parse_html(&html) == x {
            html_ok += 1;
        } else {
            failures.push(format!("{id}: html {html}"));
        }
        let md = x.to_markdown();
        if md.is_lossless() {
            md_lossless += 1;
            if chatmark::parse_markdown(&md.text) != x {
                failures.push(format!("{id}: markdown {:?}", md.text));
            }
        }
    }
    println!("public vectors: {total} with whole-line codes, {html_ok} html round trips, {md_lossless} lossless markdown");
    assert!(total > 150, "too few vectors: {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn render_codes_table_is_complete() {
    // every code renders to something that reads back (guards the fixed tables)
    for c in StyleCode::ALL {
        let x = Formatted {
            text: "x".into(),
            text_styles: vec![chatmark::TextStyle {
                start: 0,
                len: 1,
                st: StyleSet::of(c),
            }],
        };
        let html = x.to_html();
        assert!(!html.is_empty(), "{c}");
        let md = x.to_markdown();
        let sayable = !matches!(
            c,
            StyleCode::Small | StyleCode::Normal | StyleCode::VeryLarge | StyleCode::DefaultColour
        );
        assert_eq!(md.is_lossless(), sayable, "{c}: {md:?}");
    }
}

/// L1: rendering is linear — 8x the input takes about 8x the time, not 64x.
#[test]
fn render_time_grows_linearly() {
    use std::time::{Duration, Instant};
    let message = |n: usize| {
        let mut text = String::new();
        let mut raw: Vec<RawTextStyle<'static>> = Vec::new();
        for k in 0..n {
            let s = text.len() as i64;
            text.push_str(" ab *c* <d>\n");
            let codes: &[&'static str] = match k % 4 {
                0 => &["b", "lst_1"],
                1 => &["i", "c_db342e", "ind_2"],
                2 => &["s", "lst_2", "ind_1"],
                _ => &["u", "f_13"],
            };
            raw.push(RawTextStyle {
                start: Some(s + 1),
                len: Some(5),
                st: Some(codes.to_vec()),
            });
        }
        let (styles, _) = normalize(&text, &raw);
        Formatted {
            text,
            text_styles: styles,
        }
    };
    let time = |x: &Formatted| {
        (0..2)
            .map(|_| {
                let t = Instant::now();
                let _ = x.to_html();
                let _ = x.to_markdown();
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let (small, large) = (message(2_000), message(16_000));
    let (a, b) = (time(&small), time(&large));
    assert!(
        b < a * 24 + Duration::from_millis(200),
        "2k: {a:?}, 16k: {b:?}"
    );
}
