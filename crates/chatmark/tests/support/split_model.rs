//! S1–S3 as the spec states them, slowly and independently of the engine: every candidate
//! of every kind listed from unicode-segmentation's clusters, then each part's cut picked
//! by the rule's words. The property tests compare `chatmark::split` with it.
#![allow(dead_code)]

use unicode_segmentation::UnicodeSegmentation;

/// A candidate cut: the part ends at `e`, the next starts at `s` (what lies between is
/// white space, dropped), of kind 1 (paragraph) to 6 (code point).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    pub e: usize,
    pub s: usize,
    pub kind: u8,
}

fn u16len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Every candidate of `text` in order, for parts of at most `limit` units: clusters longer
/// than the limit split into their code points.
pub fn candidates(text: &str, limit: usize) -> Vec<Cut> {
    // atoms: (start, end, is it white space, is its end a cluster boundary)
    let mut atoms: Vec<(usize, usize, bool, bool)> = Vec::new();
    for (k, g) in text.grapheme_indices(true) {
        if u16len(g) > limit {
            for (j, c) in g.char_indices() {
                let end = k + j + c.len_utf8();
                atoms.push((k + j, end, false, end == k + g.len()));
            }
        } else {
            atoms.push((k, k + g.len(), g.chars().all(char::is_whitespace), true));
        }
    }
    let mut cuts: Vec<Cut> = Vec::new();
    let mut i = 0;
    while i < atoms.len() {
        let (start, _, ws, _) = atoms[i];
        if ws {
            let mut j = i;
            while j < atoms.len() && atoms[j].2 {
                j += 1;
            }
            let (e, s) = (start, atoms[j - 1].1);
            let breaks = text[e..s].matches('\n').count();
            let before = text[..e].chars().next_back();
            let kind = match breaks {
                2.. => 1,
                1 => 2,
                _ if before.is_some_and(|c| ".!?…。！？".contains(c)) => 3,
                _ => 4,
            };
            cuts.retain(|c| c.e != e); // the boundary before the run is the run's cut
            cuts.push(Cut { e, s, kind });
            i = j;
            continue;
        }
        let (_, end, _, cluster) = atoms[i];
        let next_ws = atoms.get(i + 1).is_some_and(|a| a.2);
        if end < text.len() && !next_ws {
            let before = text[..end].chars().next_back();
            let kind = if cluster && before.is_some_and(|c| "。！？".contains(c)) {
                3
            } else if cluster {
                5
            } else {
                6
            };
            cuts.push(Cut {
                e: end,
                s: end,
                kind,
            });
        }
        i += 1;
    }
    cuts
}

/// The parts' byte ranges, by S1–S3: `None` for a limit below 2.
pub fn split(text: &str, limit: usize) -> Option<Vec<(usize, usize)>> {
    if limit < 2 {
        return None;
    }
    let cuts = candidates(text, limit);
    let mut parts = Vec::new();
    let mut p = 0;
    while p < text.len() {
        if u16len(&text[p..]) <= limit {
            parts.push((p, text.len()));
            break;
        }
        let len = |c: &Cut| u16len(&text[p..c.e]);
        let fits: Vec<Cut> = cuts
            .iter()
            .copied()
            .filter(|c| c.e >= p && c.s > p && len(c) <= limit)
            .collect();
        let half = |c: &Cut| 2 * len(c) >= limit && c.e > p;
        let pick = (1..=6)
            .find_map(|k| fits.iter().rfind(|c| c.kind <= k && half(c)))
            .or_else(|| fits.iter().rfind(|c| c.e > p))
            .or_else(|| fits.first())
            .copied()
            .expect("a candidate within the limit");
        if pick.e > p {
            parts.push((p, pick.e));
        }
        p = pick.s;
    }
    Some(parts)
}
