//! Runs one engine path over the corpus many times, for profilers (callgrind counts
//! instructions repeatably): `profile markdown|markdown16|html|normalize [rounds]`
//! (`markdown16`: the UTF-16 entry point the npm package calls, into one reused result).
//! Build it with `--profile speed` (fat LTO) to profile what the speed check counts.

use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "markdown".into());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    if what == "normalize" {
        let (text, runs) = chatmark_benches::normalize_input();
        for _ in 0..rounds {
            black_box(chatmark::normalize(black_box(&text), black_box(&runs)));
        }
        return;
    }
    let (md, html) = chatmark_benches::corpus(false);
    if what == "markdown16" {
        let units: Vec<Vec<u16>> = md.iter().map(|t| t.encode_utf16().collect()).collect();
        let mut out = chatmark::FormattedUtf16::default();
        for _ in 0..rounds {
            for u in &units {
                chatmark::parse_markdown_utf16_into(black_box(u), &mut out);
                black_box(&out);
            }
        }
        return;
    }
    let texts = if what == "html" { html } else { md };
    for _ in 0..rounds {
        for t in &texts {
            match what.as_str() {
                "html" => drop(black_box(chatmark::parse_html(black_box(t)))),
                _ => drop(black_box(chatmark::parse_markdown(black_box(t)))),
            }
        }
    }
}
