//! Line pass of markdown mode: splits the message into lines (a `\r` right before `\n` is
//! part of the break), finds fenced code blocks (F1, F2), blank lines (2.3), and reads each
//! other line's prefix into line codes (P1–P4).

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

/// One line of the message. Byte offsets into the input.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    /// First byte of the line.
    pub start: usize,
    /// Content after the prefix (P1–P3), before the line break.
    pub content: (usize, usize),
    /// One past the line break (or the end of the message).
    pub end: usize,
    pub kind: LineKind,
    /// Line codes of the prefix (P4), for `Text` lines.
    pub codes: StyleSet,
}

/// The lines of a message in order, classified (a fence's state carried along): cheap to
/// copy, so a pass can look ahead or a second pass can re-read a region from its start.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lines<'a> {
    input: &'a str,
    /// First byte of the next line.
    pos: usize,
    /// Backtick count of the open fence.
    fence: Option<usize>,
    /// The next line, once [`Lines::peek`] has read it.
    peeked: Option<Line>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(input: &'a str) -> Self {
        Lines {
            input,
            pos: 0,
            fence: None,
            peeked: None,
        }
    }

    /// The next line, without consuming it.
    pub(super) fn peek(&mut self) -> Option<Line> {
        if self.peeked.is_none() {
            self.peeked = self.read();
        }
        self.peeked
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        self.peeked.take().or_else(|| self.read())
    }
}

impl Lines<'_> {
    /// Reads the line at `pos`.
    fn read(&mut self) -> Option<Line> {
        let bytes = self.input.as_bytes();
        let start = self.pos;
        if start >= bytes.len() {
            return None;
        }
        let nl = self
            .input
            .get(start..)
            .and_then(|rest| find_newline(rest.as_bytes()))
            .map(|k| start + k);
        let (content_end, end) = match nl {
            Some(n) if n > start && bytes.get(n - 1) == Some(&b'\r') => (n - 1, n + 1),
            Some(n) => (n, n + 1),
            None => (bytes.len(), bytes.len()),
        };
        self.pos = end;
        let raw = bytes.get(start..content_end).unwrap_or_default();
        let mut line = Line {
            start,
            content: (start, content_end),
            end,
            kind: LineKind::Text,
            codes: StyleSet::EMPTY,
        };
        if let Some(open) = self.fence {
            line.kind = LineKind::Verbatim;
            if closes_fence(raw, open) {
                self.fence = None;
            }
        } else if let Some(n) = opens_fence(raw) {
            line.kind = LineKind::Verbatim;
            self.fence = Some(n);
        } else if raw.iter().all(|&b| b == b' ') {
            line.kind = LineKind::Blank;
            line.content = (content_end, content_end);
        } else {
            let (skip, codes) = prefix(raw);
            line.content.0 = start + skip;
            line.codes = codes;
        }
        Some(line)
    }
}

/// The first `\n`: memchr's vectorised search natively; core's (already in the wasm) in
/// the npm package, where memchr's code would cost more bytes than it saves time.
#[cfg(not(target_arch = "wasm32"))]
fn find_newline(s: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', s)
}

#[cfg(target_arch = "wasm32")]
fn find_newline(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

fn count(raw: &[u8], from: usize, b: u8) -> usize {
    raw.get(from..)
        .map_or(0, |r| r.iter().take_while(|&&x| x == b).count())
}

/// F1: optional spaces, three or more backticks, an info string with no backtick.
fn opens_fence(raw: &[u8]) -> Option<usize> {
    let sp = count(raw, 0, b' ');
    let n = count(raw, sp, b'`');
    let info = raw.get(sp + n..).unwrap_or_default();
    (n >= 3 && !info.contains(&b'`')).then_some(n)
}

/// F1: optional spaces, a backtick run at least as long as the opener, optional spaces.
fn closes_fence(raw: &[u8], open: usize) -> bool {
    let sp = count(raw, 0, b' ');
    let n = count(raw, sp, b'`');
    n >= open
        && raw
            .get(sp + n..)
            .unwrap_or_default()
            .iter()
            .all(|&b| b == b' ')
}

/// Reads the prefix of a non-blank line: returns the bytes it takes and its line codes.
fn prefix(raw: &[u8]) -> (usize, StyleSet) {
    let mut i = 0;
    let mut level = 0usize;
    // P1/P2: space runs and quote runs, alternating.
    loop {
        let sp = count(raw, i, b' ');
        if sp > 0 {
            level = level.saturating_add(sp / 2);
            i += sp;
            continue;
        }
        let gt = count(raw, i, b'>');
        if gt == 0 {
            break;
        }
        match raw.get(i + gt) {
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
    let marker = match raw.get(i) {
        Some(b'#') => {
            let n = count(raw, i, b'#');
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
            let d = raw
                .get(i..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            (d <= 3 && raw.get(i + d) == Some(&b'.')).then(|| {
                codes.insert(StyleCode::Ordered);
                d + 1
            })
        }
        _ => None,
    };
    match marker {
        Some(m) if raw.get(i + m) == Some(&b' ') => {
            i += m;
            i += count(raw, i, b' ');
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

    fn pre(s: &str) -> (usize, Vec<&'static str>) {
        let (n, c) = prefix(s.as_bytes());
        (n, c.iter().map(StyleCode::as_str).collect())
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
        assert_eq!(opens_fence(b"  ```rust"), Some(3));
        assert_eq!(opens_fence(b"```a`b"), None);
        assert_eq!(opens_fence(b"``"), None);
        assert!(closes_fence(b" ````  ", 3));
        assert!(!closes_fence(b"``", 3));
        assert!(!closes_fence(b"``` x", 3));
    }

    #[test]
    fn lines_keep_crlf_in_break() {
        let l: Vec<Line> = Lines::new("a\r\n\r\nb\rc").collect();
        assert_eq!(l.len(), 3);
        assert_eq!((l[0].content, l[0].end), ((0, 1), 3));
        assert_eq!(l[1].kind, LineKind::Blank);
        assert_eq!(l[2].content, (5, 8)); // a lone \r is content
    }
}
