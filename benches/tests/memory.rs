//! Deterministic memory figures, asserted (issues 11 and 13): at most 3 heap allocations per
//! parse of a message under 4 KB (text, runs, one spare) in both modes; peak heap at most 4
//! bytes per input byte parsing the long inputs; and at most 12 bytes per input byte
//! resolving large pathological bodies and writing the answer line, as the CLI does.

use chatmark_benches::alloc::{measure, Counting};
use chatmark_benches::{corpus, memory};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One test, so that no other test thread allocates while a figure is taken.
#[test]
fn memory_figures() {
    let (md, html) = corpus(false);
    for (name, texts, parse) in memory::modes(&md, &html) {
        let (max, _) = memory::allocations_per_call(texts, parse);
        assert!(max <= 3, "{name}: {max} allocations in one call");
    }
    let (md, html) = corpus(true);
    for (name, texts, parse) in memory::modes(&md, &html) {
        let per_byte = memory::long_input_peak(texts, parse);
        assert!(
            per_byte <= 4.0,
            "{name}: peak {per_byte:.2} bytes per input byte"
        );
    }
    let mut report = Vec::new();
    let mut worst: f64 = 0.0;
    for (name, body) in chatmark_benches::pathological_bodies(1 << 20) {
        let (_, usage) = measure(|| memory::resolve_and_write(&body));
        let per_byte = usage.peak as f64 / body.len() as f64;
        report.push(format!("{name}: {per_byte:.2}"));
        worst = worst.max(per_byte);
    }
    assert!(
        worst <= 12.0,
        "peak heap per input byte:\n{}",
        report.join("\n")
    );
}
