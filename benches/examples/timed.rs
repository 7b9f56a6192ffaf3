//! Timed ratios against the peers with the two sides interleaved pass by pass: on a shared
//! machine whose speed drifts within seconds, a ratio of two passes taken a few
//! milliseconds apart is steadier than one of two criterion groups run a minute apart.
//!
//! `cargo run --profile speed -p chatmark-benches --example timed [-- ROUNDS [long|split]]`
//! (`long`: the corpus plus the long inputs, as the criterion benches; `split`: markdown
//! only, its messages with markup apart from those without). Prints, per dialect (and for
//! the CommonMark import, over its own corpus, against pulldown-cmark's events alone), each
//! side's median pass and the median of the per-round ratios.

use std::hint::black_box;
use std::time::Instant;

#[path = "../src/peers.rs"]
mod peers;

/// Seconds of one pass of `f` over `texts`.
fn pass(texts: &[String], f: &dyn Fn(&str)) -> f64 {
    let t = Instant::now();
    for s in texts {
        f(black_box(s));
    }
    t.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Interleaves `rounds` passes of `ours` and `peer`, alternating which goes first.
fn compare(name: &str, texts: &[String], rounds: usize, ours: &dyn Fn(&str), peer: &dyn Fn(&str)) {
    let bytes: usize = texts.iter().map(String::len).sum();
    for _ in 0..3 {
        pass(texts, ours);
        pass(texts, peer);
    }
    let (mut a, mut b, mut r) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..rounds {
        let (x, y) = if i % 2 == 0 {
            let x = pass(texts, ours);
            (x, pass(texts, peer))
        } else {
            let y = pass(texts, peer);
            (pass(texts, ours), y)
        };
        a.push(x);
        b.push(y);
        r.push(y / x);
    }
    let mib = bytes as f64 / (1 << 20) as f64;
    let (ma, mb) = (median(&mut a), median(&mut b));
    println!(
        "{name:<9} chatmark {:7.1} MiB/s  peer {:7.1} MiB/s  ratio of medians {:.2}  median ratio {:.2}",
        mib / ma,
        mib / mb,
        mb / ma,
        median(&mut r)
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args
        .next()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200)
        .max(1);
    let how = args.next().unwrap_or_default();
    let (md, html) = chatmark_benches::corpus(how == "long");
    let ours = |m: &str| drop(black_box(chatmark::parse_markdown(m)));
    let pulldown = |m: &str| {
        black_box(peers::pulldown_events(m));
    };
    if how == "split" {
        // where the ratio is made: messages the parser changes, and those it copies (I7)
        let (styled, unstyled): (Vec<String>, Vec<String>) = md
            .iter()
            .cloned()
            .partition(|m| chatmark::parse_markdown(m).text != *m);
        for (name, texts) in [("styled", styled), ("unstyled", unstyled)] {
            let bytes: usize = texts.iter().map(String::len).sum();
            println!("{name}: {} messages, {bytes} bytes", texts.len());
            compare(name, &texts, rounds, &ours, &pulldown);
        }
        return;
    }
    compare("markdown", &md, rounds, &ours, &pulldown);
    compare(
        "html",
        &html,
        rounds,
        &|h| drop(black_box(chatmark::parse_html(h))),
        &|h| {
            black_box(peers::html5ever_tokens(h));
        },
    );
    compare(
        "import",
        &chatmark_benches::answers(),
        rounds,
        &|a| drop(black_box(chatmark::from_commonmark(a))),
        &|a| {
            black_box(peers::pulldown_gfm_events(a));
        },
    );
}
