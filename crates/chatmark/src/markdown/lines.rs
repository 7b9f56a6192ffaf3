//! The line-start constructs of markdown mode, read from one raw line (its units before
//! the line break; a `\r` right before `\n` is part of the break): fence lines (F1, F2),
//! blank lines (2.3) and the prefix of a paragraph line with its line codes (P1–P4). The
//! scan ([`super::scan`]) calls them only for a line whose first unit can begin one; it
//! tells blank and fence candidates ([`start`]) and reads a prefix ([`prefix`]) from the
//! line's start without first finding the line's end.

use crate::text::search::find_byte;
use crate::text::unit::Unit;
use crate::vocab::style::Overlay;
use crate::{StyleCode, StyleSet};

/// How many units from `k` are the ASCII byte `b`.
fn count<U: Unit>(raw: &[U], k: usize, b: u8) -> usize {
    raw.get(k..)
        .map_or(0, |s| s.iter().take_while(|c| c.byte() == b).count())
}

/// The byte at `k`, or `None` at the line's end: the end of `raw`, or its line break when
/// `raw` runs on past it (`\n`, or `\r` right before `\n`).
fn at<U: Unit>(raw: &[U], k: usize) -> Option<u8> {
    match raw.get(k)?.byte() {
        b'\n' => None,
        b'\r' if raw.get(k + 1).is_some_and(|c| c.byte() == b'\n') => None,
        b => Some(b),
    }
}

/// F1: optional spaces, three or more backticks, an info string with no backtick. Returns
/// the backtick count.
pub(super) fn opens_fence<U: Unit>(raw: &[U]) -> Option<usize> {
    let sp = count(raw, 0, b' ');
    let n = count(raw, sp, b'`');
    let info = raw.get(sp + n..).unwrap_or_default();
    (n >= 3 && find_byte(info, b'`').is_none()).then_some(n)
}

/// F1: optional spaces, a backtick run at least as long as the opener, optional spaces.
pub(super) fn closes_fence<U: Unit>(raw: &[U], open: usize) -> bool {
    let sp = count(raw, 0, b' ');
    let n = count(raw, sp, b'`');
    n >= open && count(raw, sp + n, b' ') == raw.len() - (sp + n)
}

/// 2.3: a line that is empty or spaces only ends a paragraph (its spaces go).
pub(super) fn is_blank<U: Unit>(raw: &[U]) -> bool {
    count(raw, 0, b' ') == raw.len()
}

/// What a line may be, by its first unit after its leading spaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Start {
    /// Spaces up to the line break or the end: blank (2.3).
    Blank,
    /// A backtick: maybe a fence (F1).
    Backtick,
    /// Neither: a paragraph line, which may have a prefix (P1–P3).
    Other,
}

/// [`Start`] of the line beginning at `line`'s first unit, `line` running on to the input's
/// end: a look at its first units, before its end is known.
pub(super) fn start<U: Unit>(line: &[U]) -> Start {
    match at(line, count(line, 0, b' ')) {
        None => Start::Blank,
        Some(b'`') => Start::Backtick,
        Some(_) => Start::Other,
    }
}

/// Reads the prefix of a non-blank line: returns the units it takes and its line codes,
/// ready to lay over the inline ones ([`StyleSet::overlay`]; for the commonest prefixes,
/// constants, which saves the work at each line with codes). `raw` is the raw line or the
/// input from the line's start on: the prefix ends at the line break either way, so the
/// scan need not find the line's end first.
#[inline]
pub(super) fn prefix<U: Unit>(raw: &[U]) -> (usize, Overlay) {
    // the commonest prefixes, a bullet, a one-digit number or a level-one heading at the
    // line's start (P3), read directly: what the general reading below gives them (no
    // level, the marker and the spaces after it)
    let byte = |k: usize| raw.get(k).map(|c| c.byte());
    let (marker, codes) = match (byte(0), byte(1)) {
        (Some(b'-' | b'*' | b'+'), Some(b' ')) => (1, BULLET),
        (Some(b'#'), Some(b' ')) => (1, HEADING.overlay()),
        (Some(b'0'..=b'9'), Some(b'.')) if byte(2) == Some(b' ') => (2, ORDERED),
        _ => {
            let (n, codes) = prefix_in_general(raw);
            return (n, codes.overlay());
        }
    };
    (marker + count(raw, marker, b' '), codes)
}

/// The overlays of a bullet's and a number's codes (P3).
const BULLET: Overlay = StyleSet::of(StyleCode::Bullet).overlay();
const ORDERED: Overlay = StyleSet::of(StyleCode::Ordered).overlay();

/// The codes of a level-one heading (P3).
const HEADING: StyleSet = {
    let mut codes = StyleSet::of(StyleCode::Bold);
    codes.insert(StyleCode::Large);
    codes
};

/// [`prefix`] by the general reading of P1–P3.
#[inline(never)]
fn prefix_in_general<U: Unit>(raw: &[U]) -> (usize, StyleSet) {
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
        match at(raw, i + gt) {
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
    let marker = match at(raw, i) {
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
            let mut d = 0;
            while at(raw, i + d).is_some_and(|b| b.is_ascii_digit()) {
                d += 1;
            }
            (d <= 3 && at(raw, i + d) == Some(b'.')).then(|| {
                codes.insert(StyleCode::Ordered);
                d + 1
            })
        }
        _ => None,
    };
    match marker {
        Some(m) if at(raw, i + m) == Some(b' ') => {
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

    /// [`super::prefix`] with its codes as a set.
    fn prefix<U: Unit>(raw: &[U]) -> (usize, StyleSet) {
        let (n, codes) = super::prefix(raw);
        (n, codes.set())
    }

    fn pre(s: &str) -> (usize, Vec<&'static str>) {
        let (n, c) = prefix(s.as_bytes());
        let units: Vec<u16> = s.encode_utf16().collect();
        assert_eq!(prefix(&units[..]), (n, c), "UTF-16 reads {s:?} alike");
        // the scan passes the input from the line's start on: what follows the line break
        // changes nothing
        for next in ["\n", "\r\n", "\n> - # 1. x", "\r\n  > y"] {
            let on = format!("{s}{next}");
            assert_eq!(prefix(on.as_bytes()), (n, c), "{on:?}");
            let units: Vec<u16> = on.encode_utf16().collect();
            assert_eq!(prefix(&units[..]), (n, c), "UTF-16 {on:?}");
        }
        (n, c.iter().map(StyleCode::as_str).collect())
    }

    fn opens(s: &str) -> Option<usize> {
        opens_fence(s.as_bytes())
    }

    fn closes(s: &str, open: usize) -> bool {
        closes_fence(s.as_bytes(), open)
    }

    /// P3: the bullets, one-digit numbers and level-one headings read directly are what
    /// the general reading gives, for every line of up to five units over the prefixes'
    /// bytes, in both encodings.
    #[test]
    fn the_direct_readings_agree_with_the_general_reading_p3() {
        let alphabet = ['-', '*', '+', ' ', '>', '#', '1', '.', 'x', '\n', '\r'];
        let mut line = Vec::new();
        let mut taken = 0;
        for n in 0..=5u32 {
            for mut k in 0..alphabet.len().pow(n) {
                line.clear();
                for _ in 0..n {
                    line.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                let s: String = line.iter().collect();
                let got = prefix(s.as_bytes());
                assert_eq!(got, prefix_in_general(s.as_bytes()), "{s:?}");
                let units: Vec<u16> = s.encode_utf16().collect();
                assert_eq!(prefix(&units[..]), got, "UTF-16 {s:?}");
                let b = s.as_bytes();
                let direct = match (b.first(), b.get(1)) {
                    (Some(b'-' | b'*' | b'+' | b'#'), Some(b' ')) => true,
                    (Some(b'1'), Some(b'.')) => b.get(2) == Some(&b' '),
                    _ => false,
                };
                taken += usize::from(direct);
            }
        }
        assert!(taken > 5_500, "{taken}");
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
    fn a_line_start_is_told_before_the_line_end_is_known() {
        for (line, want) in [
            ("", Start::Blank),
            ("   ", Start::Blank),
            ("  \n- x", Start::Blank),
            (" \r\nx", Start::Blank),
            // a `\r` not before `\n` is the line's content (1.3)
            (" \r", Start::Other),
            (" \rx\n", Start::Other),
            ("  ```rust\n", Start::Backtick),
            ("`x", Start::Backtick),
            ("- x", Start::Other),
            ("> ", Start::Other),
        ] {
            assert!(start(line.as_bytes()) == want, "{line:?}");
            let units: Vec<u16> = line.encode_utf16().collect();
            assert!(start(&units[..]) == want, "UTF-16 {line:?}");
            let raw = line.split('\n').next().unwrap_or_default();
            let raw = raw
                .strip_suffix('\r')
                .filter(|_| line.contains("\r\n"))
                .unwrap_or(raw);
            assert_eq!(want == Start::Blank, is_blank(raw.as_bytes()), "{line:?}");
        }
    }

    #[test]
    fn fences_f1_and_blank_lines() {
        assert_eq!(opens("  ```rust"), Some(3));
        assert_eq!(opens("```a`b"), None);
        assert_eq!(opens("``"), None);
        assert!(closes(" ````  ", 3));
        assert!(!closes("``", 3));
        assert!(!closes("``` x", 3));
        assert!(is_blank(b"   ".as_slice()) && is_blank(b"".as_slice()));
        assert!(!is_blank(b" x".as_slice()));
    }
}
