//! Criterion benches over the shared chat corpus (`benches/corpus/`), each group side by
//! side with the peer a user would otherwise pick: markdown against pulldown-cmark's events;
//! HTML against html5ever's tokenizer alone and its fragment parser into a DOM; plus
//! normalising 10^5 client runs, resolving whole bodies end to end, and rendering the parsed
//! corpus back with `to_html` and `to_markdown`; and the CommonMark import over the
//! model-style answers (`corpus/answers.jsonl`) against pulldown-cmark's events alone.
//!
//! `cargo bench -p chatmark-benches --features html5ever` (add `-- --quick` for a fast pass).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../src/peers.rs"]
mod peers;
use peers::{html5ever_tokens, pulldown_events, pulldown_gfm_events};

/// The corpus: 2,000 chat messages plus a few long ones, each in markdown and in HTML.
fn corpus() -> (Vec<String>, Vec<String>) {
    chatmark_benches::corpus(true)
}

fn bytes(v: &[String]) -> u64 {
    v.iter().map(|s| s.len() as u64).sum()
}

fn markdown(c: &mut Criterion) {
    let (md, _) = corpus();
    let mut g = c.benchmark_group("markdown");
    g.throughput(Throughput::Bytes(bytes(&md)));
    g.bench_function("chatmark parse_markdown", |b| {
        b.iter(|| {
            for m in &md {
                black_box(chatmark::parse_markdown(black_box(m)));
            }
        })
    });
    g.bench_function("pulldown-cmark events (strikethrough)", |b| {
        b.iter(|| {
            for m in &md {
                black_box(pulldown_events(black_box(m)));
            }
        })
    });
    g.finish();
}

fn commonmark(c: &mut Criterion) {
    let answers = chatmark_benches::answers();
    let mut g = c.benchmark_group("commonmark");
    g.throughput(Throughput::Bytes(bytes(&answers)));
    g.bench_function("chatmark from_commonmark", |b| {
        b.iter(|| {
            for a in &answers {
                black_box(chatmark::from_commonmark(black_box(a)));
            }
        })
    });
    g.bench_function(
        "pulldown-cmark events (tables, strikethrough, tasks)",
        |b| {
            b.iter(|| {
                for a in &answers {
                    black_box(pulldown_gfm_events(black_box(a)));
                }
            })
        },
    );
    g.finish();
}

/// html5ever's fragment parser into an RcDom (what a typical server-side sanitiser does).
fn html5ever_fragment(input: &str) -> markup5ever_rcdom::RcDom {
    use html5ever::tendril::TendrilSink;
    use html5ever::{local_name, ns, QualName};
    html5ever::parse_fragment(
        markup5ever_rcdom::RcDom::default(),
        Default::default(),
        QualName::new(None, ns!(html), local_name!("body")),
        Vec::new(),
        false,
    )
    .one(input)
}

fn html(c: &mut Criterion) {
    let (_, html) = corpus();
    let mut g = c.benchmark_group("html");
    g.throughput(Throughput::Bytes(bytes(&html)));
    g.bench_function("chatmark own tokenizer", |b| {
        b.iter(|| {
            for h in &html {
                black_box(chatmark::html::parse_html_with(
                    black_box(h),
                    chatmark::html::Backend::Own,
                ));
            }
        })
    });
    #[cfg(feature = "html5ever")]
    g.bench_function("chatmark html5ever backend", |b| {
        b.iter(|| {
            for h in &html {
                black_box(chatmark::html::parse_html_with(
                    black_box(h),
                    chatmark::html::Backend::Html5ever,
                ));
            }
        })
    });
    g.bench_function("html5ever tokenizer alone", |b| {
        b.iter(|| {
            for h in &html {
                black_box(html5ever_tokens(black_box(h)));
            }
        })
    });
    g.bench_function("html5ever parse_fragment DOM", |b| {
        b.iter(|| {
            for h in &html {
                black_box(html5ever_fragment(black_box(h)));
            }
        })
    });
    g.finish();
}

fn normalize(c: &mut Criterion) {
    let (text, runs) = chatmark_benches::normalize_input();
    let mut g = c.benchmark_group("normalize");
    g.throughput(Throughput::Elements(runs.len() as u64));
    g.bench_function("10^5 runs", |b| {
        b.iter(|| black_box(chatmark::normalize(black_box(&text), black_box(&runs))))
    });
    g.finish();
}

fn resolve(c: &mut Criterion) {
    let (md, html) = corpus();
    let bodies: Vec<String> = md
        .iter()
        .map(|t| serde_json::json!({"chat_id": 1, "text": t, "parse_mode": "markdown"}))
        .chain(
            html.iter()
                .map(|t| serde_json::json!({"chat_id": 1, "text": t, "parse_mode": "html"})),
        )
        .map(|v| v.to_string())
        .collect();
    let limits = chatmark::Limits {
        max_text_len: 0,
        ..Default::default()
    };
    let mut g = c.benchmark_group("resolve");
    g.throughput(Throughput::Bytes(bytes(&bodies)));
    g.bench_function("JSON body to result", |b| {
        b.iter(|| {
            for body in &bodies {
                let _ = black_box(chatmark::resolve_json(black_box(body), &limits, true));
            }
        })
    });
    g.finish();
}

fn render(c: &mut Criterion) {
    let (md, _) = corpus();
    let parsed: Vec<chatmark::Formatted> = md.iter().map(|m| chatmark::parse_markdown(m)).collect();
    let mut g = c.benchmark_group("render");
    g.throughput(Throughput::Bytes(
        parsed.iter().map(|f| f.text.len() as u64).sum(),
    ));
    g.bench_function("to_html", |b| {
        b.iter(|| {
            for f in &parsed {
                black_box(black_box(f).to_html());
            }
        })
    });
    g.bench_function("to_markdown (with its loss check)", |b| {
        b.iter(|| {
            for f in &parsed {
                black_box(black_box(f).to_markdown());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, markdown, html, normalize, resolve, render, commonmark);
criterion_main!(benches);
