//! Runs one engine path over the corpus many times, for profilers (callgrind counts
//! instructions repeatably): `profile markdown|html|normalize [rounds]`.

use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "markdown".into());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/messages.jsonl");
    let data = std::fs::read_to_string(path).unwrap_or_default();
    let rows: Vec<serde_json::Value> = data
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if what == "normalize" {
        // the criterion bench's input: 10^5 runs over about 300,000 UTF-16 units
        let text = "abcdefghij 😀 ".repeat(20_000);
        let units = chatmark::utf16_len(&text) as i64;
        let codes = ["b", "i", "c_db342e", "lst_1", "f_13", "u", "ind_2", "s"];
        let runs: Vec<chatmark::RawTextStyle<'_>> = (0..100_000i64)
            .map(|k| chatmark::RawTextStyle {
                start: Some((k * 7919) % units),
                len: Some(1 + (k * 31) % 50),
                st: Some(vec![codes[(k % 8) as usize]]),
            })
            .collect();
        for _ in 0..rounds {
            black_box(chatmark::normalize(black_box(&text), black_box(&runs)));
        }
        return;
    }
    let key = if what == "html" { "html" } else { "markdown" };
    let texts: Vec<&str> = rows.iter().filter_map(|r| r[key].as_str()).collect();
    for _ in 0..rounds {
        for t in &texts {
            match what.as_str() {
                "html" => drop(black_box(chatmark::parse_html(black_box(t)))),
                _ => drop(black_box(chatmark::parse_markdown(black_box(t)))),
            }
        }
    }
}
