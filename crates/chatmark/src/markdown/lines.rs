//! Line pass of markdown mode: splits the message into lines (a `\r` right before `\n` is
//! part of the break), finds fenced code blocks (F1, F2), blank lines (2.3), and reads each
//! other line's prefix into line codes (P1–P4). The lines are read once, into records that
//! both later passes walk.

use crate::sort::sat32;
use crate::source::Source;
use crate::{StyleCode, StyleSet};

/// What a line is, for grouping into regions and paragraphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineKind {
    /// Inside a fence (opening and closing lines included): copied verbatim (F2).
    Verbatim,
    /// Empty or spaces only on the raw line: ends a paragraph (2.3).
    Blank,
    /// A paragraph line: `content` is what follows the prefix.
    Text,
}

/// One line of the message, in 16 bytes (a message of short lines keeps one per line).
/// Positions are code units of the source, which the parser holds under 4 GiB.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    /// Content after the prefix (P1–P3), before the line break; a verbatim line's content
    /// is the whole line.
    content: (u32, u32),
    /// Units of the line break after the content: 0 (the end of the message), 1 or 2.
    brk: u8,
    pub kind: LineKind,
    /// Line codes of the prefix (P4), for `Text` lines.
    pub codes: StyleSet,
}

impl Line {
    /// The content `start..end`.
    pub(super) fn content(&self) -> (usize, usize) {
        (self.content.0 as usize, self.content.1 as usize)
    }

    /// One past the line break (or the end of the message).
    pub(super) fn end(&self) -> usize {
        self.content.1 as usize + usize::from(self.brk)
    }
}

/// Reads every line of `src` into `out` (cleared first), in order. One copy for both
/// encodings: only the newline search runs over every unit, and it is the source's.
pub(super) fn read_lines(src: Source<'_>, out: &mut Vec<Line>) {
    out.clear();
    let len = src.len();
    let mut start = 0;
    // backtick count of the open fence
    let mut fence: Option<usize> = None;
    while start < len {
        let (content_end, end) = match src.find(start, len, b'\n') {
            Some(n) if n > start && src.byte(n - 1) == Some(b'\r') => (n - 1, n + 1),
            Some(n) => (n, n + 1),
            None => (len, len),
        };
        let raw = Raw {
            src,
            start,
            end: content_end,
        };
        let mut line = Line {
            content: (sat32(start), sat32(content_end)),
            brk: (end - content_end).min(2) as u8,
            kind: LineKind::Text,
            codes: StyleSet::EMPTY,
        };
        if let Some(open) = fence {
            line.kind = LineKind::Verbatim;
            if closes_fence(raw, open) {
                fence = None;
            }
        } else if let Some(n) = opens_fence(raw) {
            line.kind = LineKind::Verbatim;
            fence = Some(n);
        } else if raw.count(0, b' ') == raw.len() {
            line.kind = LineKind::Blank;
            line.content.0 = line.content.1;
        } else {
            let (skip, codes) = prefix(raw);
            line.content.0 = sat32(start + skip);
            line.codes = codes;
        }
        out.push(line);
        start = end;
    }
}

/// The content of one raw line (before its break): positions relative to its start.
#[derive(Clone, Copy)]
struct Raw<'a> {
    src: Source<'a>,
    start: usize,
    end: usize,
}

impl Raw<'_> {
    fn len(self) -> usize {
        self.end - self.start
    }

    fn at(self, k: usize) -> Option<u8> {
        (self.start + k < self.end)
            .then(|| self.src.byte(self.start + k))
            .flatten()
    }

    /// How many units from `k` are the ASCII byte `b`.
    fn count(self, k: usize, b: u8) -> usize {
        self.src.run_len(self.start + k, self.end, b)
    }
}

/// F1: optional spaces, three or more backticks, an info string with no backtick.
fn opens_fence(raw: Raw<'_>) -> Option<usize> {
    let sp = raw.count(0, b' ');
    let n = raw.count(sp, b'`');
    let info = raw.start + sp + n;
    (n >= 3 && raw.src.find(info, raw.end, b'`').is_none()).then_some(n)
}

/// F1: optional spaces, a backtick run at least as long as the opener, optional spaces.
fn closes_fence(raw: Raw<'_>, open: usize) -> bool {
    let sp = raw.count(0, b' ');
    let n = raw.count(sp, b'`');
    n >= open && raw.count(sp + n, b' ') == raw.len() - (sp + n)
}

/// Reads the prefix of a non-blank line: returns the units it takes and its line codes.
fn prefix(raw: Raw<'_>) -> (usize, StyleSet) {
    let mut i = 0;
    let mut level = 0usize;
    // P1/P2: space runs and quote runs, alternating.
    loop {
        let sp = raw.count(i, b' ');
        if sp > 0 {
            level = level.saturating_add(sp / 2);
            i += sp;
            continue;
        }
        let gt = raw.count(i, b'>');
        if gt == 0 {
            break;
        }
        match raw.at(i + gt) {
            None => {
                level = level.saturating_add(gt);
                i += gt;
            }
            Some(b' ') => {
                level = level.saturating_add(gt);
                i += gt + 1;
            }
            Some(_) => break,
        }
    }
    let mut codes = StyleSet::EMPTY;
    // P3: at most one block marker, followed by at least one space.
    let marker = match raw.at(i) {
        Some(b'#') => {
            let n = raw.count(i, b'#');
            (n <= 4).then(|| {
                codes.insert(StyleCode::Bold);
                if n == 1 {
                    codes.insert(StyleCode::Large);
                }
                n
            })
        }
        Some(b'-' | b'*' | b'+') => {
            codes.insert(StyleCode::Bullet);
            Some(1)
        }
        Some(b'0'..=b'9') => {
            let mut d = 0;
            while raw.at(i + d).is_some_and(|b| b.is_ascii_digit()) {
                d += 1;
            }
            (d <= 3 && raw.at(i + d) == Some(b'.')).then(|| {
                codes.insert(StyleCode::Ordered);
                d + 1
            })
        }
        _ => None,
    };
    match marker {
        Some(m) if raw.at(i + m) == Some(b' ') => {
            i += m;
            i += raw.count(i, b' ');
        }
        _ => codes = StyleSet::EMPTY,
    }
    if let Some(ind) = StyleCode::indent(level) {
        codes.insert(ind);
    }
    (i, codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(src: Source<'_>) -> Raw<'_> {
        Raw {
            src,
            start: 0,
            end: src.len(),
        }
    }

    fn pre(s: &str) -> (usize, Vec<&'static str>) {
        let (n, c) = prefix(raw(Source::Utf8(s)));
        let units: Vec<u16> = s.encode_utf16().collect();
        assert_eq!(
            prefix(raw(Source::Utf16(&units))),
            (n, c),
            "UTF-16 reads {s:?} alike"
        );
        (n, c.iter().map(StyleCode::as_str).collect())
    }

    fn opens(s: &str) -> Option<usize> {
        opens_fence(raw(Source::Utf8(s)))
    }

    fn closes(s: &str, open: usize) -> bool {
        closes_fence(raw(Source::Utf8(s)), open)
    }

    #[test]
    fn prefixes_p1_p2_p3() {
        assert_eq!(pre("  > > x"), (6, vec!["ind_3"]));
        assert_eq!(pre(">  > x"), (5, vec!["ind_2"]));
        assert_eq!(pre(">.< x"), (0, vec![]));
        assert_eq!(pre(">"), (1, vec!["ind_1"]));
        assert_eq!(pre("#### h"), (5, vec!["b"]));
        assert_eq!(pre("# h"), (2, vec!["b", "f_18"]));
        assert_eq!(pre("##### h"), (0, vec![]));
        assert_eq!(pre("#tag"), (0, vec![]));
        assert_eq!(pre("-   x"), (4, vec!["lst_1"]));
        assert_eq!(pre("123. x"), (5, vec!["lst_2"]));
        assert_eq!(pre("1234. x"), (0, vec![]));
        assert_eq!(pre("1.5"), (0, vec![]));
        assert_eq!(pre(" > - x"), (5, vec!["lst_1", "ind_1"]));
        assert_eq!(pre("\\- x"), (0, vec![]));
        assert_eq!(pre("-\tx"), (0, vec![]));
    }

    #[test]
    fn fences_f1() {
        assert_eq!(opens("  ```rust"), Some(3));
        assert_eq!(opens("```a`b"), None);
        assert_eq!(opens("``"), None);
        assert!(closes(" ````  ", 3));
        assert!(!closes("``", 3));
        assert!(!closes("``` x", 3));
    }

    #[test]
    fn lines_keep_crlf_in_break() {
        let mut l = Vec::new();
        read_lines(Source::Utf8("a\r\n\r\nb\rc"), &mut l);
        assert_eq!(l.len(), 3);
        assert_eq!((l[0].content(), l[0].end()), ((0, 1), 3));
        assert_eq!(l[1].kind, LineKind::Blank);
        assert_eq!(l[2].content(), (5, 8)); // a lone \r is content
        assert_eq!(core::mem::size_of::<Line>(), 16);
    }
}
