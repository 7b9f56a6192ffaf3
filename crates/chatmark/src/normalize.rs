//! Normalisation of client `text_styles` (spec section 4, N1–N5): validate and clamp each
//! run, widen boundaries out of surrogate pairs, combine overlaps (later run wins within a
//! family, 1.3), keep line codes off line breaks, and emit canonical form through the shared
//! run builder. O(n log n) in the number of runs plus O(L) in the text.

use std::collections::BinaryHeap;

use crate::builder::RunBuilder;
use crate::diagnostics::msg::{msg, Quoted};
use crate::diagnostics::{cap_diagnostics, MAX_DIAGNOSTICS};
use crate::sort::sort_u64;
use crate::text::source::well_formed;
use crate::{Diagnostic, DiagnosticCode, Family, StyleCode, StyleSet, TextStyle};

/// A client run as received, after the JSON-shape checks of N1 and N2.
///
/// `None` in `start` or `len` means the field was missing or not an integral number (N1);
/// `None` in `st` means `st` was missing or of a type that drops the run (N2). Codes are
/// still unvalidated strings: [`normalize`] ignores the unknown ones.
///
/// # Examples
///
/// ```
/// use chatmark::RawTextStyle;
/// let run = RawTextStyle { start: Some(0), len: Some(2), st: Some(vec!["b", "zz"]) };
/// let (runs, diags) = chatmark::normalize("abc", &[run]);
/// assert_eq!(runs.len(), 1);
/// assert_eq!(diags[0].code.as_str(), "unknown_style_code");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawTextStyle<'a> {
    /// Start in UTF-16 units, if integral.
    pub start: Option<i64>,
    /// Length in UTF-16 units, if integral.
    pub len: Option<i64>,
    /// The codes as sent (strings only), if `st` was an array or a comma string.
    pub st: Option<Vec<&'a str>>,
}

impl<'a> RawTextStyle<'a> {
    /// Parses a comma-separated `st` string (N2): `"b, c_db342e"` → `["b", "c_db342e"]`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::RawTextStyle::split_codes(" b, i ,"), ["b", "i", ""]);
    /// ```
    pub fn split_codes(s: &'a str) -> Vec<&'a str> {
        s.split(',').map(str::trim).collect()
    }
}

impl From<&TextStyle> for RawTextStyle<'static> {
    fn from(t: &TextStyle) -> Self {
        RawTextStyle {
            start: i64::try_from(t.start).ok(),
            len: i64::try_from(t.len).ok(),
            st: Some(t.st.iter().map(StyleCode::as_str).collect()),
        }
    }
}

/// A UTF-16 view of the text: bytes when it is ASCII (the common case), units otherwise.
enum Units {
    Ascii(Vec<u8>),
    Wide(Vec<u16>),
}

impl Units {
    fn new(text: &str) -> Units {
        if text.is_ascii() {
            Units::Ascii(text.as_bytes().to_vec())
        } else {
            Units::Wide(text.encode_utf16().collect())
        }
    }

    fn len(&self) -> usize {
        match self {
            Units::Ascii(b) => b.len(),
            Units::Wide(w) => w.len(),
        }
    }

    fn get(&self, k: usize) -> Option<u16> {
        match self {
            Units::Ascii(b) => b.get(k).map(|&x| u16::from(x)),
            Units::Wide(w) => w.get(k).copied(),
        }
    }

    /// Whether unit `k` is the second half of a surrogate pair (C5, N4).
    fn is_low_surrogate(&self, k: usize) -> bool {
        self.get(k).is_some_and(|u| (0xDC00..=0xDFFF).contains(&u))
    }

    /// Whether unit `k` is a line-break character: `\n`, or `\r` right before `\n` (1.3).
    fn is_break(&self, k: usize) -> bool {
        match self.get(k) {
            Some(0x0A) => true,
            Some(0x0D) => self.get(k + 1) == Some(0x0A),
            _ => false,
        }
    }
}

/// Normalises client runs over `text` (spec section 4) into canonical form, with diagnostics
/// saying what was ignored, adjusted or dropped (L3; positions are the run's range in
/// `text`, clamped, or 0 for a run with no usable range).
///
/// # Examples
///
/// ```
/// use chatmark::RawTextStyle;
/// let runs = [
///     RawTextStyle { start: Some(0), len: Some(4), st: Some(vec!["b"]) },
///     RawTextStyle { start: Some(2), len: Some(4), st: Some(vec!["i"]) },
/// ];
/// let (out, _) = chatmark::normalize("abcdef", &runs);
/// let spans: Vec<(usize, usize, usize)> = out.iter().map(|r| (r.start, r.len, r.st.len())).collect();
/// assert_eq!(spans, [(0, 2, 1), (2, 2, 2), (4, 2, 1)]);
/// ```
pub fn normalize(text: &str, styles: &[RawTextStyle<'_>]) -> (Vec<TextStyle>, Vec<Diagnostic>) {
    normalize_units(&Units::new(text), styles)
}

/// [`normalize`] over text held as UTF-16 units, for hosts whose strings are UTF-16 (the npm
/// package splits a JavaScript string's units, spec section 8); a lone surrogate reads as
/// U+FFFD (L2), one unit, as [`crate::split_utf16`] reads it.
///
/// # Examples
///
/// ```
/// use chatmark::RawTextStyle;
/// let text: Vec<u16> = "a😀".encode_utf16().collect();
/// let run = RawTextStyle { start: Some(0), len: Some(2), st: Some(vec!["b"]) };
/// let (runs, _) = chatmark::normalize_utf16(&text, &[run]);
/// assert_eq!((runs[0].start, runs[0].len), (0, 3)); // widened past the pair (N4)
/// ```
pub fn normalize_utf16(
    text: &[u16],
    styles: &[RawTextStyle<'_>],
) -> (Vec<TextStyle>, Vec<Diagnostic>) {
    normalize_units(&Units::Wide(well_formed(text).into_owned()), styles)
}

fn normalize_units(
    units: &Units,
    styles: &[RawTextStyle<'_>],
) -> (Vec<TextStyle>, Vec<Diagnostic>) {
    let total = units.len();
    let mut diags = Vec::new();
    // The runs kept, in array order (the order decides 1.3).
    let mut runs: Vec<Kept> = Vec::with_capacity(styles.len());
    for (k, raw) in styles.iter().enumerate() {
        // L3: memory for diagnostics stays bounded however many runs report one
        if diags.len() >= 2 * MAX_DIAGNOSTICS {
            cap_diagnostics(&mut diags);
        }
        let diag = |code, start, end, message: String| Diagnostic {
            code,
            start,
            len: end - start,
            message,
        };
        let (Some(start), Some(len), Some(codes)) = (raw.start, raw.len, raw.st.as_ref()) else {
            let why = if raw.st.is_none() {
                "st is missing or not an array or string"
            } else {
                "start or len is missing or not an integer"
            };
            diags.push(diag(
                DiagnosticCode::RunDropped,
                0,
                0,
                msg!("text_styles[", k, "] dropped: ", why),
            ));
            continue;
        };
        // N3: exact or saturating arithmetic, then clamping to [0, L].
        let end = start.saturating_add(len);
        let clamp = |v: i64| usize::try_from(v.max(0)).unwrap_or(usize::MAX).min(total);
        let (mut s, mut e) = (clamp(start), clamp(end));
        let mut adjusted =
            i64::try_from(s).ok() != Some(start) || i64::try_from(e).ok() != Some(end);
        let mut set = StyleSet::EMPTY;
        for &code in codes {
            match code.parse::<StyleCode>() {
                Ok(c) => set.insert(c),
                Err(_) => diags.push(diag(
                    DiagnosticCode::UnknownStyleCode,
                    s,
                    e.max(s),
                    msg!(
                        "text_styles[",
                        k,
                        "]: unknown style code ",
                        Quoted(code),
                        " ignored"
                    ),
                )),
            }
        }
        if e <= s || set.is_empty() {
            let why = if set.is_empty() {
                "no known style code"
            } else {
                "empty range after clamping to the text"
            };
            diags.push(diag(
                DiagnosticCode::RunDropped,
                s.min(e),
                s.min(e),
                msg!("text_styles[", k, "] dropped: ", why),
            ));
            continue;
        }
        // N4: boundaries inside a surrogate pair move outward.
        if units.is_low_surrogate(s) {
            s -= 1;
            adjusted = true;
        }
        if units.is_low_surrogate(e) {
            e += 1;
            adjusted = true;
        }
        if adjusted {
            diags.push(diag(
                DiagnosticCode::RunAdjusted,
                s,
                e,
                msg!(
                    "text_styles[",
                    k,
                    "] adjusted to start ",
                    s,
                    ", len ",
                    e - s
                ),
            ));
        }
        runs.push(Kept {
            start: s,
            end: e,
            set,
        });
    }
    cap_diagnostics(&mut diags);
    (combine(units, &runs), diags)
}

/// A client run kept by N1–N4: units `start..end` of the text and its codes.
#[derive(Clone, Copy, Debug)]
struct Kept {
    start: usize,
    end: usize,
    set: StyleSet,
}

/// The single-code families, in table order (after the flags, [`StyleCode::FLAGS`]).
const FAMILIES: [Family; 4] = [Family::Size, Family::Colour, Family::List, Family::Indent];

/// The sweep of N5: union of flags, later run wins within a family, line codes off breaks.
fn combine(units: &Units, runs: &[Kept]) -> Vec<TextStyle> {
    // Events: (position, is_start, run index). Ends sort before starts at one position.
    let events = sorted_events(runs, units.len());
    let mut active = vec![false; runs.len()];
    let mut flag_counts = [0usize; 4];
    let mut heaps: [BinaryHeap<usize>; 4] = Default::default();
    let mut out = RunBuilder::default();
    let mut pos = 0;
    let mut ev = events.iter().peekable();
    while let Some(&&(p, _, _)) = ev.peek() {
        // Emit [pos, p) with the current state.
        if p > pos {
            let mut set = StyleSet::EMPTY;
            for (c, f) in flag_counts.iter().zip(StyleCode::FLAGS) {
                if *c > 0 {
                    set.insert(f);
                }
            }
            // per family, the winner among active runs: the highest run index having it
            for (heap, fam) in heaps.iter_mut().zip(FAMILIES) {
                while heap
                    .peek()
                    .is_some_and(|&k| !active.get(k).copied().unwrap_or(false))
                {
                    heap.pop();
                }
                if let Some(code) = heap
                    .peek()
                    .and_then(|&k| runs.get(k))
                    .and_then(|r| r.set.get(fam))
                {
                    set.insert(code);
                }
            }
            emit(units, &mut out, pos, p, set);
            pos = p;
        }
        while let Some(&&(q, start, k)) = ev.peek() {
            if q != p {
                break;
            }
            ev.next();
            let Some(&Kept { set, .. }) = runs.get(k) else {
                continue;
            };
            if let Some(a) = active.get_mut(k) {
                *a = start;
            }
            for (c, f) in flag_counts.iter_mut().zip(StyleCode::FLAGS) {
                if set.contains(f) {
                    *c = if start { *c + 1 } else { c.saturating_sub(1) };
                }
            }
            if start {
                for (heap, fam) in heaps.iter_mut().zip(FAMILIES) {
                    if set.get(fam).is_some() {
                        heap.push(k);
                    }
                }
            }
        }
    }
    out.finish()
}

/// The runs' boundaries as `(position, is_start, run index)`, by position, ends before
/// starts at one position (the sweep applies every event of a position before it emits, so
/// nothing else about their order matters). When the positions are dense (the text is at
/// most four units per boundary) a counting sort over `0..=total`, linear and without
/// comparisons; otherwise a primitive sort of packed `u64` keys, so memory stays
/// proportional to the runs. Sorting was half the cost of normalising 10^5 runs.
fn sorted_events(runs: &[Kept], total: usize) -> Vec<(usize, bool, usize)> {
    let n = runs.len() * 2;
    match u32::try_from(total) {
        Ok(_) if total <= n.saturating_mul(2) => counting_sort(runs, total),
        _ => comparison_sort(runs),
    }
}

fn counting_sort(runs: &[Kept], total: usize) -> Vec<(usize, bool, usize)> {
    // boundaries per position, then the first output slot of each position
    let mut first = vec![0u32; total.saturating_add(2)];
    for r in runs {
        for p in [r.start, r.end] {
            if let Some(c) = first.get_mut(p.min(total) + 1) {
                *c += 1;
            }
        }
    }
    let mut sum = 0;
    for c in &mut first {
        sum += *c;
        *c = sum;
    }
    let mut events = vec![(0usize, false, 0usize); runs.len() * 2];
    // ends first, then starts: two placement rounds keep ends before starts at a position
    for start in [false, true] {
        for (k, r) in runs.iter().enumerate() {
            let p = if start { r.start } else { r.end }.min(total);
            let Some(slot) = first.get_mut(p) else {
                continue;
            };
            if let Some(e) = events.get_mut(*slot as usize) {
                *e = (p, start, k);
            }
            *slot += 1;
        }
    }
    events
}

fn comparison_sort(runs: &[Kept]) -> Vec<(usize, bool, usize)> {
    // (position, is_start) in the high bits, the run index in the low 32: one primitive
    // sort (positions past 2^31 units, far beyond any message, saturate)
    let key = |p: usize, start: bool, k: usize| -> u64 {
        let p = u64::try_from(p).unwrap_or(u64::MAX).min((1 << 31) - 1);
        (p << 33)
            | (u64::from(start) << 32)
            | u64::try_from(k).unwrap_or(0).min(u64::from(u32::MAX))
    };
    let mut keys: Vec<u64> = Vec::with_capacity(runs.len() * 2);
    for (k, r) in runs.iter().enumerate() {
        keys.push(key(r.end, false, k));
        keys.push(key(r.start, true, k));
    }
    sort_u64(&mut keys);
    keys.into_iter()
        .map(|key| {
            (
                (key >> 33) as usize,
                key >> 32 & 1 == 1,
                (key & u64::from(u32::MAX)) as usize,
            )
        })
        .collect()
}

/// Advances the builder over `[from, to)` with `set`, taking line codes off line breaks.
fn emit(units: &Units, out: &mut RunBuilder, from: usize, to: usize, set: StyleSet) {
    // Unstyled gaps before `from` are implied by the builder's position.
    let gap = from.saturating_sub(out.position());
    out.advance(gap, StyleSet::EMPTY);
    if set.without_line_codes() == set {
        out.advance(to - from, set);
        return;
    }
    let mut seg = from;
    for k in from..to {
        if units.is_break(k) {
            out.advance(k - seg, set);
            out.advance(1, set.without_line_codes());
            seg = k + 1;
        }
    }
    out.advance(to - seg, set);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(start: i64, len: i64, st: &[&'static str]) -> RawTextStyle<'static> {
        RawTextStyle {
            start: Some(start),
            len: Some(len),
            st: Some(st.to_vec()),
        }
    }

    #[test]
    fn later_run_wins_within_family_1_3() {
        let (out, _) = normalize(
            "abcd",
            &[raw(0, 4, &["c_db342e"]), raw(1, 2, &["c_15a85f"])],
        );
        let colours: Vec<_> = out
            .iter()
            .map(|r| (r.start, r.len, r.st.iter().next()))
            .collect();
        assert_eq!(
            colours,
            [
                (0, 1, Some(StyleCode::Red)),
                (1, 2, Some(StyleCode::Green)),
                (3, 1, Some(StyleCode::Red))
            ]
        );
    }

    #[test]
    fn surrogate_boundaries_move_outward_n4() {
        let (out, d) = normalize("a😀b", &[raw(2, 2, &["b"])]);
        assert_eq!((out[0].start, out[0].len), (1, 3));
        assert_eq!(d[0].code, DiagnosticCode::RunAdjusted);
    }

    /// L3: at most [`MAX_DIAGNOSTICS`], the first by position (not by array order), however
    /// many runs a client sends.
    #[test]
    fn diagnostics_are_capped_to_the_first_by_position_l3() {
        let n = 5000;
        let text = "a".repeat(n);
        // array order is the reverse of position order
        let runs: Vec<_> = (0..n as i64)
            .map(|k| raw(n as i64 - 1 - k, 1, &["zz"]))
            .collect();
        let (out, d) = normalize(&text, &runs);
        assert!(out.is_empty());
        assert_eq!(d.len(), MAX_DIAGNOSTICS);
        let spans: Vec<_> = d.iter().map(|d| (d.start, d.start + d.len)).collect();
        assert!(
            spans.windows(2).all(|w| w[0].0 <= w[1].0),
            "sorted by start"
        );
        // each run at `s` gives unknown_style_code at (s, s + 1), then run_dropped at (s, s)
        assert_eq!(spans[..3], [(0, 1), (0, 0), (1, 2)]);
        assert_eq!(
            spans[MAX_DIAGNOSTICS - 1],
            (MAX_DIAGNOSTICS / 2 - 1, MAX_DIAGNOSTICS / 2 - 1)
        );
        // ties keep array order: the unknown code is reported before the run is dropped
        let (_, d) = normalize("ab", &[raw(0, 0, &["zz"])]);
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [DiagnosticCode::UnknownStyleCode, DiagnosticCode::RunDropped]
        );
    }

    #[test]
    fn crlf_breaks_lose_line_codes_n5() {
        let (out, _) = normalize("a\r\nb", &[raw(0, 4, &["lst_1"])]);
        let spans: Vec<_> = out.iter().map(|r| (r.start, r.len)).collect();
        assert_eq!(spans, [(0, 1), (3, 1)]);
    }
}
