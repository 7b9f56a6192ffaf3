//! The deterministic speed check (issue 21): instructions executed by one pass over the
//! shared corpus, counted by callgrind, for chatmark and the peer of each dialect, and the
//! ratios between them. Wall-clock time on shared machines swings 2× between runs;
//! instruction counts do not, so CI asserts these ratios.
//!
//! `cargo run --profile speed -p chatmark-benches --example instructions` runs every case under
//! `valgrind --tool=callgrind` (itself, in its `run` mode), prints a table and fails when a
//! ratio is below its floor. Each case runs twice, for 1 and for 3 passes, and the figure is
//! half the difference: start-up, corpus loading and first-call warm-up cancel out.
//! `instructions run CASE PASSES` is the measured program.

use std::hint::black_box;
use std::process::{Command, ExitCode};

#[path = "../src/peers.rs"]
mod peers;

/// Lowest accepted ratio of the peer's instructions to chatmark's, per case: about 5 %
/// below the measured figures, so that they catch regressions and leave room for clarity
/// (CONTRIBUTING.md, "Speed").
///
/// The CommonMark import (spec section 9) is built on pulldown-cmark, so its figure is
/// pulldown-cmark's event stream (same options) over the model-style answers of
/// `corpus/answers.jsonl` divided by `from_commonmark`'s over the same: the import may cost
/// at most 1.3 times the events alone (a ratio of 1/1.3 = 0.77).
const FLOORS: [(&str, &str, f64); 3] = [
    ("markdown", "pulldown-cmark", 2.85),
    ("html", "html5ever", 2.95),
    ("commonmark", "pulldown-cmark-gfm", FLOOR_COMMONMARK),
];

/// The floor of the import's ratio (see [`FLOORS`]), never below 1/1.3.
const FLOOR_COMMONMARK: f64 = 0.80;

/// Lowest accepted ratio of `parse_markdown`'s instructions over the corpus to `split`'s of
/// its parsed messages at `limit` 200 (spec section 8): issue 48 asks that split cost at most
/// half of parsing (2), and the floor sits about 5 % below the measured figure (see
/// benches/RESULTS.md), as the other floors do.
const FLOOR_SPLIT: f64 = 1.92;

/// The limit of the `split` case.
const SPLIT_LIMIT: usize = 200;

/// The measured cases: (name, what it runs).
const CASES: [&str; 7] = [
    "markdown",
    "pulldown-cmark",
    "html",
    "html5ever",
    "commonmark",
    "pulldown-cmark-gfm",
    "split",
];

fn run(case: &str, passes: usize) {
    let (md, html) = chatmark_benches::corpus(false);
    let answers = chatmark_benches::answers();
    // split's input, made once: start-up, which the 1-pass and 3-pass runs share
    let parsed: Vec<chatmark::Formatted> = if case == "split" {
        md.iter().map(|m| chatmark::parse_markdown(m)).collect()
    } else {
        Vec::new()
    };
    for _ in 0..passes {
        match case {
            "markdown" => md
                .iter()
                .for_each(|m| drop(black_box(chatmark::parse_markdown(black_box(m))))),
            "pulldown-cmark" => md.iter().for_each(|m| {
                black_box(peers::pulldown_events(black_box(m)));
            }),
            "html" => html
                .iter()
                .for_each(|h| drop(black_box(chatmark::parse_html(black_box(h))))),
            "html5ever" => html.iter().for_each(|h| {
                black_box(peers::html5ever_tokens(black_box(h)));
            }),
            "commonmark" => answers
                .iter()
                .for_each(|a| drop(black_box(chatmark::from_commonmark(black_box(a))))),
            "pulldown-cmark-gfm" => answers.iter().for_each(|a| {
                black_box(peers::pulldown_gfm_events(black_box(a)));
            }),
            "split" => parsed.iter().for_each(|f| {
                drop(black_box(chatmark::split(black_box(f), SPLIT_LIMIT)));
            }),
            _ => panic!("unknown case {case}"),
        }
    }
}

/// Instructions of `passes` passes of `case` (with start-up), as callgrind counts them.
fn count(case: &str, passes: usize) -> Result<u64, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(me)
        .args(["run", case, &passes.to_string()])
        .output()
        .map_err(|e| format!("valgrind: {e} (install it: apt-get install valgrind)"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("callgrind of {case} failed:\n{err}"));
    }
    err.lines()
        .find_map(|l| {
            l.split_once("Collected :")
                .map(|(_, n)| n.trim().parse().ok())
        })
        .flatten()
        .ok_or_else(|| format!("no count in callgrind's output:\n{err}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, case, passes] = args.as_slice() {
        if mode == "run" {
            run(case, passes.parse().unwrap_or(1));
            return ExitCode::SUCCESS;
        }
    }
    // the floors are set in the peers' fastest build: in another, the ratios would flatter chatmark
    let profile = std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.file_name()?.to_owned()));
    if profile.as_deref() != Some(std::ffi::OsStr::new("speed")) {
        eprintln!("instructions: build it with `--profile speed` (fat LTO, the peers' fastest build), not {profile:?}");
        return ExitCode::FAILURE;
    }
    if cfg!(feature = "html5ever") {
        eprintln!("instructions: build it without the html5ever feature (parse_html must use chatmark's own tokenizer)");
        return ExitCode::FAILURE;
    }
    let (md, html) = chatmark_benches::corpus(false);
    let bytes = |v: &[String]| v.iter().map(String::len).sum::<usize>() as f64;
    let (md_bytes, html_bytes) = (bytes(&md), bytes(&html));
    let answer_bytes = bytes(&chatmark_benches::answers());
    let mut per_pass = Vec::new();
    println!(
        "instructions per pass over the corpus ({} messages; the import's: {} answers; callgrind)",
        md.len(),
        chatmark_benches::answers().len()
    );
    println!("{:<18} {:>14} {:>10}", "case", "instructions", "per byte");
    for case in CASES {
        let figure = count(case, 1)
            .and_then(|one| count(case, 3).map(|three| three.saturating_sub(one) / 2));
        let n = match figure {
            Ok(n) => n,
            Err(e) => {
                eprintln!("instructions: {e}");
                return ExitCode::FAILURE;
            }
        };
        let b = if case.starts_with("html") {
            html_bytes
        } else if matches!(case, "commonmark" | "pulldown-cmark-gfm") {
            answer_bytes
        } else {
            md_bytes
        };
        println!("{case:<18} {n:>14} {:>10.2}", n as f64 / b);
        per_pass.push((case, n));
    }
    let get = |name: &str| {
        per_pass
            .iter()
            .find(|(c, _)| *c == name)
            .map_or(0, |&(_, n)| n) as f64
    };
    let mut ok = true;
    for (ours, peer, floor) in FLOORS {
        let ratio = get(peer) / get(ours).max(1.0);
        let verdict = if ratio >= floor { "ok" } else { "BELOW FLOOR" };
        println!("{ours}: {peer} / chatmark = {ratio:.2} (floor {floor:.2}) {verdict}");
        ok &= ratio >= floor;
    }
    let ratio = get("markdown") / get("split").max(1.0);
    let verdict = if ratio >= FLOOR_SPLIT {
        "ok"
    } else {
        "BELOW FLOOR"
    };
    println!(
        "split: parse_markdown / split at limit {SPLIT_LIMIT} = {ratio:.2} (floor {FLOOR_SPLIT:.2}) {verdict}"
    );
    ok &= ratio >= FLOOR_SPLIT;
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
