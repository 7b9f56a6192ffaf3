//! The measured calls of the memory figures, shared by `src/bin/memory.rs` (prints them) and
//! `tests/memory.rs` (asserts them); both install [`crate::alloc::Counting`].

use crate::alloc::measure;

/// A parse function of one mode.
pub type Parse = fn(&str) -> chatmark::Formatted;

/// `(name, inputs, parse)` for markdown and HTML mode.
pub fn modes<'a>(md: &'a [String], html: &'a [String]) -> [(&'static str, &'a [String], Parse); 2] {
    [
        ("markdown", md, chatmark::parse_markdown as Parse),
        ("html", html, chatmark::parse_html as Parse),
    ]
}

/// Allocations of one call per message under 4 KB, after one warm-up call (per-thread
/// scratch buffers grow once): the maximum and the mean.
pub fn allocations_per_call(texts: &[String], parse: Parse) -> (usize, f64) {
    let small: Vec<&String> = texts.iter().filter(|t| t.len() < 4096).collect();
    for t in &small {
        drop(parse(t));
    }
    let counts: Vec<usize> = small
        .iter()
        .map(|t| measure(|| drop(parse(t))).1.allocations)
        .collect();
    let max = counts.iter().copied().max().unwrap_or(0);
    (
        max,
        counts.iter().sum::<usize>() as f64 / counts.len().max(1) as f64,
    )
}

/// The largest peak heap per input byte over the long inputs (4 KB and more: the corpus's
/// `long.jsonl`).
pub fn long_input_peak(texts: &[String], parse: Parse) -> f64 {
    texts
        .iter()
        .filter(|t| t.len() >= 4096)
        .map(|t| measure(|| drop(parse(t))).1.peak as f64 / t.len() as f64)
        .fold(0.0, f64::max)
}

/// Resolves `body` with no size limits and writes its answer line to a counting sink, as
/// `chatmark --jsonl --max-len 0` does.
pub fn resolve_and_write(body: &str) {
    let limits = chatmark::Limits {
        max_text_len: 0,
        max_text_styles: 0,
    };
    let resolved = chatmark::resolve_json(body, &limits, false);
    let answer = match &resolved {
        Ok(r) => chatmark::Answer::Formatted {
            formatted: &r.formatted,
            diagnostics: None,
        },
        Err(e) => chatmark::Answer::Error(e),
    };
    let _ = serde_json::to_writer(std::io::sink(), &answer);
}
