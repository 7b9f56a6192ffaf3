//! Inline tokenizing of one paragraph (2.3): code spans (I1), escapes (I2), tags (I3),
//! `*`/`_` runs (I4) and `~~` runs (I5) with their flanking, everything else text (I7).
//! Left to right in one pass; code-span closers are found through a per-length index of the
//! paragraph's backtick runs, so unmatched openers never rescan (L1).

use std::collections::HashMap;

use super::chars::{self, Class};
use super::emphasis::Delim;
use super::lines::Line;
use super::{Kind, RunState, Token};
use crate::vocab::{Spelling, Tag};

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

/// The next byte at or after `from` (before `end`) that may start markup, or `end`.
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

/// Index of the backtick runs of one paragraph by length, each with a forward-only cursor.
#[derive(Default)]
struct BacktickRuns {
    by_len: HashMap<usize, (Vec<usize>, usize)>,
}

impl BacktickRuns {
    fn collect(input: &[u8], lines: &[Line]) -> Self {
        let mut runs = BacktickRuns::default();
        for line in lines {
            let (mut i, end) = line.content;
            while i < end {
                if input.get(i) != Some(&b'`') {
                    i += 1;
                    continue;
                }
                let n = run_len(input, i, end, b'`');
                runs.by_len.entry(n).or_default().0.push(i);
                i += n;
            }
        }
        runs
    }

    /// Start of the first run of exactly `n` backticks starting at or after `from`.
    fn next(&mut self, n: usize, from: usize) -> Option<usize> {
        let (starts, cursor) = self.by_len.get_mut(&n)?;
        while starts.get(*cursor).is_some_and(|&s| s < from) {
            *cursor += 1;
        }
        starts.get(*cursor).copied()
    }
}

fn run_len(input: &[u8], from: usize, end: usize, b: u8) -> usize {
    input
        .get(from..end)
        .map_or(0, |r| r.iter().take_while(|&&x| x == b).count())
}

/// Tokenizes the paragraph made of `lines` (indices `first..` into the message's lines),
/// appending to `tokens`, the paragraph's delimiter runs to `delims`, and their matching
/// state to `runs`.
pub(super) fn tokenize(
    input: &str,
    lines: &[Line],
    first: usize,
    tokens: &mut Vec<Token>,
    delims: &mut Vec<Delim>,
    runs: &mut Vec<RunState>,
) {
    let bytes = input.as_bytes();
    let mut backticks: Option<BacktickRuns> = None;
    // End of the code span being copied, when one spans lines.
    let mut code_until: Option<usize> = None;
    for (k, line) in lines.iter().enumerate() {
        let ln = first + k;
        let (line_start, end) = line.content;
        let mut i = line_start;
        let mut text_from = i;
        let flush = |tokens: &mut Vec<Token>, from: usize, to: usize| {
            if to > from {
                tokens.push(Token::new(Kind::Text, from, to, ln));
            }
        };
        if let Some(stop) = code_until {
            let to = stop.min(end);
            flush(tokens, i, to);
            i = to;
            text_from = i;
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
                        flush(tokens, text_from, i);
                        tokens.push(Token::new(Kind::Text, i + 1, i + 2, ln));
                        i += 2;
                        text_from = i;
                    } else {
                        i += 1;
                    }
                }
                b'`' => {
                    let n = run_len(bytes, i, end, b'`');
                    let runs = backticks.get_or_insert_with(|| BacktickRuns::collect(bytes, lines));
                    match runs.next(n, i + n) {
                        Some(close) => {
                            flush(tokens, text_from, i);
                            let stop = close + n;
                            let to = stop.min(end);
                            flush(tokens, i, to);
                            if stop > end {
                                code_until = Some(stop);
                            }
                            i = to;
                        }
                        None => {
                            flush(tokens, text_from, i);
                            flush(tokens, i, i + n);
                            i += n;
                        }
                    }
                    text_from = i;
                }
                b'*' | b'_' | b'~' => {
                    let n = run_len(bytes, i, end, b);
                    if b == b'~' && n != 2 {
                        i += n;
                        continue;
                    }
                    flush(tokens, text_from, i);
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
                    let tok = tokens.len();
                    tokens.push(Token::new(Kind::Delim(runs.len()), i, i + n, ln));
                    runs.push(RunState::default());
                    delims.push(Delim::new(tok, b, n, can_open, can_close));
                    i += n;
                    text_from = i;
                }
                _ => match tag_at(bytes, i, end) {
                    Some((len, tag, spelling, closing)) => {
                        flush(tokens, text_from, i);
                        let kind = Kind::tag(tag, spelling, closing);
                        tokens.push(Token::new(kind, i, i + len, ln));
                        i += len;
                        text_from = i;
                    }
                    None => i += 1,
                },
            }
        }
        flush(tokens, text_from, end);
        if line.end > end {
            tokens.push(Token::new(Kind::Break, end, line.end, ln));
        }
    }
}

/// Reads `{name}`, `{/name}`, `<name>` or `</name>` at `i` (I3): its length, tag, spelling
/// and whether it closes.
fn tag_at(bytes: &[u8], i: usize, end: usize) -> Option<(usize, Tag, Spelling, bool)> {
    let spelling = Spelling::opened_by(*bytes.get(i)?)?;
    let closing = bytes.get(i + 1) == Some(&b'/');
    let name_start = i + 1 + usize::from(closing);
    // Look no further than the longest name and its bracket (linear).
    let window = bytes.get(name_start..end.min(name_start + Tag::LONGEST_NAME + 1))?;
    let len = window.iter().position(|&b| b == spelling.close_bracket())?;
    let tag = Tag::from_name(window.get(..len)?)?;
    Some((name_start + len + 1 - i, tag, spelling, closing))
}
