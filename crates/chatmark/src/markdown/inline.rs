//! Inline tokenizing of one paragraph (2.3): code spans (I1), escapes (I2), tags (I3),
//! `*`/`_` runs (I4) and `~~` runs (I5) with their flanking, everything else text (I7).
//! Left to right in one pass, straight into a [`Sink`] (nothing is stored per token), so the
//! analysis pass and the emission pass see exactly the same tokens; plain text is skipped
//! by a byte-class table. Code-span closers are found through an index of the paragraph's
//! backtick runs sorted by length, built at its first backtick, so unmatched openers never
//! rescan (L1).

use super::chars::{self, Class};
use super::lines::{LineKind, Lines};
use crate::sort::sat32;
use crate::vocab::{Spelling, Tag};
use crate::StyleSet;

/// The next byte at or after `from` (before `end`) that may start markup
/// (`\\ ` * _ ~ { <`), or `end`: a byte-class table, which beats vectorised searches on chat
/// text, where markup is a few bytes apart.
#[inline]
fn next_special(bytes: &[u8], from: usize, end: usize) -> usize {
    bytes
        .get(from..end)
        .and_then(|s| {
            s.iter()
                .position(|&b| SPECIAL.get(usize::from(b)).copied().unwrap_or(false))
        })
        .map_or(end, |k| from + k)
}

/// Bytes that may start markup (a byte-class table); everything else is plain text.
// Indexing in a const initialiser cannot panic at run time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let bytes = *b"\\`*_~{<";
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
};

/// What the tokenizer reports, in source order: only markup, never plain text (code spans,
/// unmatched backticks and escaped characters are text, and so are not reported).
pub(super) trait Sink {
    /// A paragraph line begins; its content carries `codes` (P4).
    fn line(&mut self, codes: StyleSet);
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

    /// Indexes the runs from `lines` (the current line first) to the paragraph's end.
    fn build(&mut self, bytes: &[u8], from: usize, lines: Lines<'_>, current_end: usize) {
        self.built = true;
        let mut add = |start: usize, end: usize| {
            let mut i = start;
            while i < end {
                match bytes
                    .get(i..end)
                    .and_then(|r| r.iter().position(|&b| b == b'`'))
                {
                    Some(k) => i += k,
                    None => break,
                }
                let n = run_len(bytes, i, end, b'`');
                self.runs.push(pack(n, i));
                i += n;
            }
        };
        add(from, current_end);
        for line in lines.take_while(|l| l.kind == LineKind::Text) {
            add(line.content.0, line.content.1);
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

pub(super) fn run_len(input: &[u8], from: usize, end: usize, b: u8) -> usize {
    input
        .get(from..end)
        .map_or(0, |r| r.iter().take_while(|&&x| x == b).count())
}

/// Tokenizes the paragraph whose lines `lines` yields next (consecutive `Text` lines; it
/// stops before the first other line), reporting to `sink`.
pub(super) fn paragraph(
    input: &str,
    lines: &mut Lines<'_>,
    ticks: &mut Backticks<'_>,
    sink: &mut impl Sink,
) {
    let bytes = input.as_bytes();
    // End of the code span being copied, when one spans lines.
    let mut code_until: Option<usize> = None;
    while let Some(line) = lines.peek().filter(|l| l.kind == LineKind::Text) {
        lines.next();
        sink.line(line.codes);
        let (line_start, end) = line.content;
        let mut i = line_start;
        if let Some(stop) = code_until {
            i = stop.min(end);
            if stop <= end {
                code_until = None;
            }
        }
        while i < end {
            i = next_special(bytes, i, end);
            let Some(&b) = bytes.get(i).filter(|_| i < end) else {
                break;
            };
            match b {
                b'\\' => {
                    if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) && i + 1 < end {
                        sink.escape(i);
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                b'`' => {
                    let n = run_len(bytes, i, end, b'`');
                    if !ticks.built {
                        ticks.build(bytes, i, *lines, end);
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
                    let n = run_len(bytes, i, end, b);
                    if b == b'~' && n != 2 {
                        i += n;
                        continue;
                    }
                    let prev = chars::before(input, i, line_start);
                    let next = chars::after(input, i + n, end);
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
                _ => match tag_at(bytes, i, end) {
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
pub(super) fn tag_at(bytes: &[u8], i: usize, end: usize) -> Option<(usize, Tag, Spelling, bool)> {
    let spelling = Spelling::opened_by(*bytes.get(i)?)?;
    let closing = bytes.get(i + 1) == Some(&b'/');
    let name_start = i + 1 + usize::from(closing);
    // Look no further than the longest name and its bracket (linear).
    let window = bytes.get(name_start..end.min(name_start + Tag::LONGEST_NAME + 1))?;
    let len = window.iter().position(|&b| b == spelling.close_bracket())?;
    let tag = Tag::from_name(window.get(..len)?)?;
    Some((name_start + len + 1 - i, tag, spelling, closing))
}
