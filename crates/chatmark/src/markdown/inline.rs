//! Inline tokenizing of one paragraph (2.3): code spans (I1), escapes (I2), tags (I3),
//! `*`/`_` runs (I4) and `~~` runs (I5) with their flanking, everything else text (I7).
//! Left to right in one pass over the paragraph's line records, straight into a [`Sink`]
//! (nothing is stored per token); plain text is skipped by a byte-class table. Code-span
//! closers are found through an index of the paragraph's backtick runs sorted by length,
//! built at its first backtick, so unmatched openers never rescan (L1).

use super::chars::{self, Class};
use super::lines::Line;
use super::syntax::INLINE_TABLE;
use crate::sort::sat32;
use crate::source::{units, Source, Unit};
use crate::vocab::{Spelling, Tag};

/// What the tokenizer reports, in source order: only markup, never plain text (code spans,
/// unmatched backticks and escaped characters are text, and so are not reported).
pub(super) trait Sink {
    /// A backslash at `at` that escapes the next character (I2).
    fn escape(&mut self, at: usize);
    /// A `*`, `_` or `~~` run.
    fn delim(&mut self, run: DelimRun);
    /// An I3 tag at `start`, paired or not.
    fn tag(&mut self, start: usize, tag: Tag, spelling: Spelling, closing: bool);
}

/// A delimiter run as read, with its flanking (I4, I5).
#[derive(Clone, Copy, Debug)]
pub(super) struct DelimRun {
    pub start: usize,
    pub len: usize,
    /// `*`, `_` or `~`.
    pub ch: u8,
    pub can_open: bool,
    pub can_close: bool,
}

/// The backtick runs of one paragraph (maximal runs in line content, prefixes excluded) as
/// `length << 32 | start`, sorted: the closer of a span is the first run of its length at or after
/// a position (I1). Positions past 4 GiB saturate (inputs are far smaller).
pub(super) struct Backticks<'v> {
    runs: &'v mut Vec<u64>,
    built: bool,
}

/// A run's key: its length, then its start.
fn pack(len: usize, start: usize) -> u64 {
    (u64::from(sat32(len)) << 32) | u64::from(sat32(start))
}

impl<'v> Backticks<'v> {
    pub(super) fn new(runs: &'v mut Vec<u64>) -> Self {
        runs.clear();
        Backticks { runs, built: false }
    }

    /// Indexes the runs from `from` (in the current line, which ends at `current_end`) to
    /// the end of the paragraph, whose later lines are `rest`.
    fn build(&mut self, src: Source<'_>, from: usize, current_end: usize, rest: &[Line]) {
        self.built = true;
        let mut add = |start: usize, end: usize| {
            let mut i = start;
            while let Some(k) = src.find(i, end, b'`') {
                let n = src.run_len(k, end, b'`');
                self.runs.push(pack(n, k));
                i = k + n;
            }
        };
        add(from, current_end);
        for line in rest {
            let (start, end) = line.content();
            add(start, end);
        }
        crate::sort::sort_u64(self.runs);
    }

    /// Start of the first run of exactly `n` backticks starting at or after `from`.
    fn closer(&self, n: usize, from: usize) -> Option<usize> {
        let key = pack(n, from);
        let k = self.runs.partition_point(|&r| r < key);
        self.runs
            .get(k)
            .filter(|&&r| r >> 32 == key >> 32)
            .map(|&r| (r & 0xffff_ffff) as usize)
    }
}

/// Tokenizes the paragraph made of `lines` (consecutive text lines), reporting to `sink`.
pub(super) fn paragraph(
    src: Source<'_>,
    lines: &[Line],
    ticks: &mut Backticks<'_>,
    sink: &mut impl Sink,
) {
    // End of the code span being copied, when one spans lines.
    let mut code_until: Option<usize> = None;
    for (k, line) in lines.iter().enumerate() {
        let (line_start, end) = line.content();
        let mut i = line_start;
        if let Some(stop) = code_until {
            i = stop.min(end);
            if stop <= end {
                code_until = None;
            }
        }
        while i < end {
            i = src.find_in(i, end, &INLINE_TABLE);
            let Some(b) = src.byte(i).filter(|_| i < end) else {
                break;
            };
            match b {
                b'\\' => {
                    if i + 1 < end && src.byte(i + 1).is_some_and(|n| n.is_ascii_punctuation()) {
                        sink.escape(i);
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                b'`' => {
                    let n = src.run_len(i, end, b'`');
                    if !ticks.built {
                        ticks.build(src, i, end, lines.get(k + 1..).unwrap_or_default());
                    }
                    match ticks.closer(n, i + n) {
                        Some(close) => {
                            let stop = close + n;
                            if stop > end {
                                code_until = Some(stop);
                            }
                            i = stop.min(end);
                        }
                        None => i += n,
                    }
                }
                b'*' | b'_' | b'~' => {
                    let n = src.run_len(i, end, b);
                    if b == b'~' && n != 2 {
                        i += n;
                        continue;
                    }
                    let prev = chars::before(src, i, line_start);
                    let next = chars::after(src, i + n, end);
                    let left = next != Class::Whitespace
                        && (next != Class::Punctuation || prev != Class::Other);
                    let right = prev != Class::Whitespace
                        && (prev != Class::Punctuation || next != Class::Other);
                    let (can_open, can_close) = if b == b'_' {
                        (
                            left && (!right || prev == Class::Punctuation),
                            right && (!left || next == Class::Punctuation),
                        )
                    } else {
                        (left, right)
                    };
                    sink.delim(DelimRun {
                        start: i,
                        len: n,
                        ch: b,
                        can_open,
                        can_close,
                    });
                    i += n;
                }
                _ => match tag_at(src, i, end) {
                    Some((len, tag, spelling, closing)) => {
                        sink.tag(i, tag, spelling, closing);
                        i += len;
                    }
                    None => i += 1,
                },
            }
        }
    }
}

/// Reads `{name}`, `{/name}`, `<name>` or `</name>` at `i` (I3): its length, tag, spelling
/// and whether it closes.
pub(super) fn tag_at(
    src: Source<'_>,
    i: usize,
    end: usize,
) -> Option<(usize, Tag, Spelling, bool)> {
    units!(src, u => tag_in(u, i, end))
}

fn tag_in<U: Unit>(units: &[U], i: usize, end: usize) -> Option<(usize, Tag, Spelling, bool)> {
    let at = |k: usize| units.get(k).map(|c| c.byte());
    let spelling = Spelling::opened_by(at(i)?)?;
    let closing = at(i + 1) == Some(b'/');
    let name_start = i + 1 + usize::from(closing);
    // Look no further than the longest name and its bracket (linear).
    let window = units.get(name_start..end.min(name_start + Tag::LONGEST_NAME + 1))?;
    let len = window
        .iter()
        .position(|c| c.byte() == spelling.close_bracket())?;
    let mut name = [0u8; Tag::LONGEST_NAME];
    for (slot, c) in name.iter_mut().zip(window.get(..len)?) {
        *slot = c.byte();
    }
    let tag = Tag::from_name(name.get(..len)?)?;
    Some((name_start + len + 1 - i, tag, spelling, closing))
}
