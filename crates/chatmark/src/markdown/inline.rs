//! The inline constructs the scan ([`super::scan`]) reads at a markup unit: delimiter-run
//! flanking (I4, I5), tags (I3), and the index of a paragraph's backtick runs that finds
//! code-span closers (I1). Code-span closers are found through the paragraph's backtick
//! runs sorted by length, indexed at its first backtick, so unmatched openers never rescan
//! (L1).

use super::chars::{self, Class};
use super::lines;
use crate::sort::sat32;
use crate::text::search::find_byte;
use crate::text::source::TypedSource;
use crate::text::unit::Unit;
use crate::vocab::{Spelling, Tag};

/// Whether the delimiter run `i..i + n` of `ch` (`*`, `_` or `~`) can open and close
/// (I4's left- and right-flanking, with `_`'s extra rules).
#[inline(always)]
pub(super) fn flanking<'a, T: TypedSource<'a>>(src: T, i: usize, n: usize, ch: u8) -> (bool, bool) {
    let prev = chars::before(src, i);
    let next = chars::after(src, i + n);
    let left = next != Class::Whitespace && (next != Class::Punctuation || prev != Class::Other);
    let right = prev != Class::Whitespace && (prev != Class::Punctuation || next != Class::Other);
    if ch == b'_' {
        (
            left && (!right || prev == Class::Punctuation),
            right && (!left || next == Class::Punctuation),
        )
    } else {
        (left, right)
    }
}

/// The backtick runs of one paragraph (maximal runs in line content) as
/// `length << 32 | start`, sorted: the closer of a span is the first run of its length at or
/// after a position (I1). Positions past 4 GiB saturate (inputs are far smaller).
pub(super) struct Backticks<'v> {
    runs: &'v mut Vec<u64>,
    built: bool,
}

/// A run's key: its length, then its start.
fn pack(len: usize, start: usize) -> u64 {
    (u64::from(sat32(len)) << 32) | u64::from(sat32(start))
}

/// The line starting at `i`: the end of its content (before `\r\n` or `\n`) and the start
/// of the next line.
#[inline]
pub(super) fn line_end<U: Unit>(s: &[U], i: usize) -> (usize, usize) {
    match s.get(i..).and_then(|t| find_byte(t, b'\n')) {
        Some(k) => {
            let nl = i + k;
            if k > 0 && s.get(nl - 1).is_some_and(|c| c.byte() == b'\r') {
                (nl - 1, nl + 1)
            } else {
                (nl, nl + 1)
            }
        }
        None => (s.len(), s.len()),
    }
}

impl<'v> Backticks<'v> {
    pub(super) fn new(runs: &'v mut Vec<u64>) -> Self {
        runs.clear();
        Backticks { runs, built: false }
    }

    /// Forgets the paragraph's runs (a new paragraph begins).
    pub(super) fn reset(&mut self) {
        if self.built {
            self.runs.clear();
            self.built = false;
        }
    }

    /// The start of the first run of exactly `n` backticks at or after `from`, indexing the
    /// paragraph's runs from `from` on first (the lines up to the next blank or fence line),
    /// when they are not yet.
    pub(super) fn closer<U: Unit>(&mut self, s: &[U], n: usize, from: usize) -> Option<usize> {
        // The commonest span closes with the next run, on its own line: that run (maximal,
        // as `from` follows a maximal run) is then the first of its length at or after
        // `from`, as the index would say. The searches of consecutive openers cover
        // disjoint stretches (the scan's next opener is that run or later), so they stay
        // linear (L1).
        let rest = s.get(from..).unwrap_or_default();
        if let Some(k) = find_byte(rest, b'`') {
            let run = rest.get(k..).map_or(0, |t| U::run_of(t, b'`'));
            let line = rest.get(..k).unwrap_or_default();
            if run == n && find_byte(line, b'\n').is_none() {
                return Some(from + k);
            }
        }
        self.indexed(s, n, from)
    }

    /// [`Backticks::closer`] through the index alone.
    fn indexed<U: Unit>(&mut self, s: &[U], n: usize, from: usize) -> Option<usize> {
        if !self.built {
            self.build(s, from);
        }
        let key = pack(n, from);
        let k = self.runs.partition_point(|&r| r < key);
        self.runs
            .get(k)
            .filter(|&&r| r >> 32 == key >> 32)
            .map(|&r| (r & 0xffff_ffff) as usize)
    }

    fn build<U: Unit>(&mut self, s: &[U], from: usize) {
        self.built = true;
        let mut i = from;
        loop {
            let (end, next) = line_end(s, i);
            while let Some(k) = s.get(i..end).and_then(|t| find_byte(t, b'`')) {
                let k = i + k;
                let n = s.get(k..end).map_or(0, |t| U::run_of(t, b'`'));
                self.runs.push(pack(n, k));
                i = k + n;
            }
            if next >= s.len() {
                break;
            }
            // the paragraph goes on while lines are neither blank nor fences (2.3, F1)
            let (raw_end, _) = line_end(s, next);
            let raw = s.get(next..raw_end).unwrap_or_default();
            if lines::is_blank(raw) || lines::opens_fence(raw).is_some() {
                break;
            }
            i = next;
        }
        crate::sort::sort_u64(self.runs);
    }
}

/// Per name length `k`, the mask of a key's low `k` bytes (a table: a shift of a `u128`
/// costs a dozen instructions).
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
#[cfg(vector)]
static NAME_MASK: [u128; Tag::LONGEST_NAME + 1] = {
    let mut t = [0; Tag::LONGEST_NAME + 1];
    let mut k = 1;
    while k <= Tag::LONGEST_NAME {
        t[k] = (1 << (8 * k)) - 1;
        k += 1;
    }
    t
};

/// Reads `{name}`, `{/name}`, `<name>` or `</name>` at `i` (I3): its length, tag, spelling
/// and whether it closes.
// Once per `{` and `<` in the scan's loop; inline, its result stays in registers.
#[inline(always)]
pub(super) fn tag_at<U: Unit>(units: &[U], i: usize) -> Option<(usize, Tag, Spelling, bool)> {
    let spelling = Spelling::opened_by(units.get(i)?.byte())?;
    let closing = units.get(i + 1).is_some_and(|c| c.byte() == b'/');
    let name_start = i + 1 + usize::from(closing);
    #[cfg(vector)]
    let found = match units
        .get(name_start..name_start + 16)
        .and_then(|c| <&[U; 16]>::try_from(c).ok())
    {
        Some(chunk) => name_in_chunk(chunk, spelling),
        None => name_by_units(units.get(name_start..)?, spelling.close_bracket()),
    };
    #[cfg(not(vector))]
    let found = name_by_units(units.get(name_start..)?, spelling.close_bracket());
    let (k, tag) = found?;
    Some((name_start + k + 1 - i, tag, spelling, closing))
}

/// The tag whose name begins `units` and ends at a `close` bracket, with the name's length.
/// Looks no further than the longest name and its bracket (linear); names are lower-case
/// ASCII letters (checked at build time), so anything else ends the look early.
#[inline(always)]
fn name_by_units<U: Unit>(units: &[U], close: u8) -> Option<(usize, Tag)> {
    // the key in two words (a `u128` shift by a variable is a library call on targets
    // without 128-bit shifts, the wasm's)
    let (mut lo, mut hi) = (0u64, 0u64);
    for (k, c) in units.iter().take(Tag::LONGEST_NAME + 1).enumerate() {
        let b = c.byte();
        if b == close {
            let key = u128::from(lo) | u128::from(hi) << 64;
            return Some((k, Tag::from_key(key, k)?));
        }
        if !b.is_ascii_lowercase() {
            return None;
        }
        if k < 8 {
            lo |= u64::from(b) << (8 * k);
        } else {
            hi |= u64::from(b) << (8 * (k - 8));
        }
    }
    None
}

/// [`name_by_units`] over sixteen units in one register: the name ends at the first
/// `close` bracket, and its bytes below it are the key. A unit that is no lower-case ASCII
/// letter makes a key that no name has, where the loop stops at it: the same answer.
#[cfg(vector)]
#[inline(always)]
fn name_in_chunk<U: Unit>(chunk: &[U; 16], spelling: Spelling) -> Option<(usize, Tag)> {
    use crate::text::simd::vector::{bits, eq};
    let v = crate::text::search::load(chunk);
    // each bracket a constant: a byte splatted at run time costs four instructions more
    let at_close = match spelling {
        Spelling::Brace => eq(v, b'}'),
        Spelling::Angle => eq(v, b'>'),
    };
    let k = bits(at_close).trailing_zeros() as usize;
    if k > Tag::LONGEST_NAME {
        return None;
    }
    let word = crate::text::simd::vector::to_u128(v);
    let key = word & NAME_MASK.get(k).copied().unwrap_or(0);
    Some((k, Tag::from_key_and_word(key, word as u64, k)?))
}

#[cfg(all(test, sse2))]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// I3: a name read from sixteen units in one register is the one the unit loop reads,
    /// in both encodings: every tag's name, mutated (a letter changed, cut short, run on, a
    /// bracket of the other spelling, an upper-case or non-ASCII unit) and followed by
    /// anything.
    #[test]
    fn a_name_read_as_a_word_is_the_name_read_by_units_i3() {
        let pieces: &[&str] = &[
            "}",
            ">",
            "{",
            "<",
            "/",
            " ",
            "a",
            "e",
            "d",
            "R",
            "\u{e9}",
            "\u{17d}",
            "\u{7d00}",
            "\u{1f600}",
            "\0",
        ];
        let names: Vec<&str> = Tag::ALL.iter().map(|t| t.name()).collect();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut found = 0;
        for k in 0..100_000 {
            let mut s: Vec<char> = rng.pick(&names).chars().collect();
            match rng.below(6) {
                0 => {
                    let at = rng.below(s.len());
                    s[at] = rng.pick(pieces).chars().next().unwrap_or('x');
                }
                1 => s.truncate(rng.below(s.len())),
                2 => s.extend(rng.pick(&names).chars()),
                _ => {}
            }
            let mut text: String = s.into_iter().collect();
            if k % 3 != 0 {
                text.push(if k % 2 == 0 { '}' } else { '>' });
            }
            text.push_str(&rng.text(10, pieces, &names, 4));
            for spelling in [Spelling::Brace, Spelling::Angle] {
                let close = spelling.close_bracket();
                let utf8 = text.as_bytes();
                let utf16: Vec<u16> = text.encode_utf16().collect();
                let by_units = name_by_units(utf8, close);
                assert_eq!(by_units, name_by_units(&utf16, close), "{text:?}");
                if let Some(chunk) = utf8.first_chunk::<16>() {
                    assert_eq!(name_in_chunk(chunk, spelling), by_units, "{text:?}");
                }
                if let Some(chunk) = utf16.first_chunk::<16>() {
                    assert_eq!(name_in_chunk(chunk, spelling), by_units, "{text:?}");
                }
                found += usize::from(by_units.is_some());
            }
        }
        // names are found often, so the comparison is not only of misses
        assert!(found > 20_000, "{found}");
    }
}

#[cfg(test)]
mod backtick_tests {
    use super::*;

    /// I1: the closer found on the opener's line without the index is the index's, for
    /// every opener (a maximal backtick run) of random messages of backticks, line breaks,
    /// blank and fence lines, escapes and text, in both encodings.
    #[test]
    fn the_closer_on_the_same_line_is_the_indexs_i1() {
        let pieces = [
            "`", "``", "```", "a", " ", "\n", "\n\n", "\n```\n", "\\`", "é",
        ];
        let mut rng = crate::rng::Rng(0x2545_f491_4f6c_dd1d);
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        let mut found = 0;
        for _ in 0..20_000 {
            let n = rng.below(16);
            let text: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let units: Vec<u16> = text.encode_utf16().collect();
            let bytes = text.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let len = bytes[j..].iter().take_while(|&&b| b == b'`').count();
                if len == 0 {
                    j += 1;
                    continue;
                }
                let from = j + len;
                let want = Backticks::new(&mut slow).indexed(bytes, len, from);
                let got = Backticks::new(&mut fast).closer(bytes, len, from);
                assert_eq!(got, want, "{text:?} at {j}");
                // UTF-16 positions differ from byte positions only past the `é`
                let at16 = text[..from].encode_utf16().count();
                let want16 = want.map(|w| text[..w].encode_utf16().count());
                let got16 = Backticks::new(&mut fast).closer(&units[..], len, at16);
                assert_eq!(got16, want16, "UTF-16 {text:?} at {j}");
                found += usize::from(want.is_some());
                j = from;
            }
        }
        assert!(found > 5_000, "{found}");
    }
}
