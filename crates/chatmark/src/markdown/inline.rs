//! The inline constructs the scan ([`super::scan`]) reads at a markup unit: delimiter-run
//! flanking (I4, I5), tags (I3), and the index of a paragraph's backtick runs that finds
//! code-span closers (I1). Code-span closers are found through the paragraph's backtick
//! runs sorted by length, indexed at its first backtick, so unmatched openers never rescan
//! (L1).

use super::chars::{self, Class};
use super::lines;
use crate::sort::sat32;
use crate::source::{TypedSource, Unit};
use crate::vocab::{Spelling, Tag};

/// Whether the delimiter run `i..i + n` of `ch` (`*`, `_` or `~`) can open and close
/// (I4's left- and right-flanking, with `_`'s extra rules).
#[inline]
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
    match s.get(i..).and_then(|t| U::position_of(t, b'\n')) {
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
            while let Some(k) = s.get(i..end).and_then(|t| U::position_of(t, b'`')) {
                let k = i + k;
                let n = s
                    .get(k..end)
                    .map_or(0, |t| t.iter().take_while(|c| c.byte() == b'`').count());
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

/// Reads `{name}`, `{/name}`, `<name>` or `</name>` at `i` (I3): its length, tag, spelling
/// and whether it closes.
pub(super) fn tag_at<U: Unit>(units: &[U], i: usize) -> Option<(usize, Tag, Spelling, bool)> {
    let spelling = Spelling::opened_by(units.get(i)?.byte())?;
    let closing = units.get(i + 1).is_some_and(|c| c.byte() == b'/');
    let name_start = i + 1 + usize::from(closing);
    let close = spelling.close_bracket();
    // Look no further than the longest name and its bracket (linear); names are lower-case
    // ASCII letters (checked at build time), so anything else ends the look early.
    let mut key = 0u128;
    for (k, c) in units
        .get(name_start..)?
        .iter()
        .take(Tag::LONGEST_NAME + 1)
        .enumerate()
    {
        let b = c.byte();
        if b == close {
            let tag = Tag::from_key(key, k)?;
            return Some((name_start + k + 1 - i, tag, spelling, closing));
        }
        if !b.is_ascii_lowercase() {
            return None;
        }
        key |= u128::from(b) << (8 * k);
    }
    None
}
