//! The naive per-UTF-16-unit reference model of normalisation (spec section 4, N1–N5),
//! written independently of the engine: the property tests and the `normalize` fuzz target
//! compare the engine against it.

use chatmark::{RawTextStyle, StyleCode, StyleSet, TextStyle};

/// The per-unit reference model of section 4, written independently of the engine.
pub fn naive(text: &str, runs: &[RawTextStyle<'_>]) -> Vec<TextStyle> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let n = units.len() as i128;
    let low = |k: usize| units.get(k).is_some_and(|u| (0xDC00..=0xDFFF).contains(u));
    let mut per_unit = vec![StyleSet::EMPTY; units.len()];
    for r in runs {
        let (Some(s), Some(l), Some(st)) = (r.start, r.len, &r.st) else {
            continue;
        };
        let set: StyleSet = st
            .iter()
            .filter_map(|c| c.parse::<StyleCode>().ok())
            .collect();
        let (s, e) = (s as i128, (s as i128 + l as i128).min(i64::MAX as i128));
        let (mut s, mut e) = (s.clamp(0, n) as usize, e.clamp(0, n) as usize);
        if e <= s || set.is_empty() {
            continue;
        }
        if low(s) {
            s -= 1;
        }
        if low(e) {
            e += 1;
        }
        for u in &mut per_unit[s..e] {
            *u = u.with(set);
        }
    }
    for k in 0..units.len() {
        let brk = units[k] == 0x0A || (units[k] == 0x0D && units.get(k + 1) == Some(&0x0A));
        if brk {
            per_unit[k] = per_unit[k].without_line_codes();
        }
    }
    let mut out: Vec<TextStyle> = Vec::new();
    for (k, set) in per_unit.into_iter().enumerate() {
        match out.last_mut() {
            Some(last) if last.end() == k && last.st == set => last.len += 1,
            _ if set.is_empty() => {}
            _ => out.push(TextStyle {
                start: k,
                len: 1,
                st: set,
            }),
        }
    }
    out
}
