//! Prints the memory figures of `benches/RESULTS.md`: heap allocations per call over the
//! corpus (messages under 4 KB, both modes), peak heap per input byte of parsing the long
//! inputs, and of resolving large pathological bodies and writing the answer line as
//! `chatmark --jsonl` does. `tests/memory.rs` asserts the same figures.

use chatmark_benches::alloc::{measure, Counting};
use chatmark_benches::{corpus, memory};

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let (md, html) = corpus(false);
    for (name, texts, parse) in memory::modes(&md, &html) {
        let (max, mean) = memory::allocations_per_call(texts, parse);
        println!("allocations per call, {name} (< 4 KB): max {max}, mean {mean:.2}");
    }
    let (md, html) = corpus(true);
    for (name, texts, parse) in memory::modes(&md, &html) {
        let per_byte = memory::long_input_peak(texts, parse);
        println!("peak heap per input byte, {name} long inputs: {per_byte:.2}");
    }
    for (name, body) in chatmark_benches::pathological_bodies(1 << 22) {
        let (_, usage) = measure(|| memory::resolve_and_write(&body));
        println!(
            "resolve_json + answer line, {name:28} {:6.2} B/B",
            usage.peak as f64 / body.len() as f64
        );
    }
}
