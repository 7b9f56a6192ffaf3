//! The process-emphasis algorithm of CommonMark 0.31.2 §6.2 over one paragraph's delimiter
//! runs (I4), with GFM-style `~~` strike delimiters on the same stack (I5). Linear: the
//! delimiter stack is a linked list over a vector, and the per-kind `openers_bottom` bound
//! keeps every opener search from rescanning.

use crate::StyleCode;

const NONE: usize = usize::MAX;

/// One delimiter run of a paragraph, in source order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Delim {
    /// Index of the run's token.
    pub tok: usize,
    /// `*`, `_` or `~`.
    pub ch: u8,
    /// Length of the run as written (for the rule of 3).
    pub orig: usize,
    /// Delimiters not yet used.
    pub count: usize,
    pub can_open: bool,
    pub can_close: bool,
    prev: usize,
    next: usize,
}

impl Delim {
    pub(super) fn new(tok: usize, ch: u8, len: usize, can_open: bool, can_close: bool) -> Self {
        Delim {
            tok,
            ch,
            orig: len,
            count: len,
            can_open,
            can_close,
            prev: NONE,
            next: NONE,
        }
    }
}

/// A matched pair: `used` delimiters of the opener's run and of the closer's run make `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pair {
    pub opener: usize,
    pub closer: usize,
    pub code: StyleCode,
    pub used: usize,
}

fn kind(ch: u8) -> usize {
    match ch {
        b'*' => 0,
        b'_' => 1,
        _ => 2,
    }
}

/// Matches the delimiters of one paragraph, reporting each pair (token indices) to `on_pair`,
/// innermost first for a given closer.
pub(super) fn process(d: &mut [Delim], mut on_pair: impl FnMut(Pair)) {
    let n = d.len();
    for (k, x) in d.iter_mut().enumerate() {
        x.prev = if k == 0 { NONE } else { k - 1 };
        x.next = if k + 1 == n { NONE } else { k + 1 };
    }
    // openers_bottom: per (kind, closer can open, orig % 3), openers at or below this index
    // are known not to match; NONE means no bound.
    let mut bottom = [NONE; 18];
    let mut closer = if n == 0 { NONE } else { 0 };
    while let Some(c) = d.get(closer).copied() {
        let ci = closer;
        if !c.can_close {
            closer = c.next;
            continue;
        }
        let key = kind(c.ch) * 6 + usize::from(c.can_open) * 3 + c.orig % 3;
        let floor = bottom.get(key).copied().unwrap_or(NONE);
        let mut found = NONE;
        let mut o = c.prev;
        while let Some(op) = d.get(o) {
            if floor != NONE && o <= floor {
                break;
            }
            if op.ch == c.ch && op.can_open {
                let odd_match = c.ch != b'~'
                    && (c.can_open || op.can_close)
                    && c.orig % 3 != 0
                    && (op.orig + c.orig) % 3 == 0;
                if !odd_match {
                    found = o;
                    break;
                }
            }
            o = op.prev;
        }
        if found == NONE {
            if let Some(slot) = bottom.get_mut(key) {
                *slot = c.prev;
            }
            closer = c.next;
            if !c.can_open {
                unlink(d, ci);
            }
            continue;
        }
        let opener_count = d.get(found).map_or(0, |x| x.count);
        let (used, code) = match c.ch {
            b'~' => (2, StyleCode::Strike),
            _ if c.count >= 2 && opener_count >= 2 => (2, StyleCode::Bold),
            _ => (1, StyleCode::Italic),
        };
        on_pair(Pair {
            opener: d.get(found).map_or(0, |x| x.tok),
            closer: c.tok,
            code,
            used,
        });
        // Delimiters between opener and closer are removed from the stack.
        if let Some(x) = d.get_mut(found) {
            x.count -= used;
            x.next = ci;
        }
        let remaining = match d.get_mut(ci) {
            Some(x) => {
                x.count -= used;
                x.prev = found;
                x.count
            }
            None => 0,
        };
        if opener_count == used {
            unlink(d, found);
        }
        if remaining == 0 {
            closer = d.get(ci).map_or(NONE, |x| x.next);
            unlink(d, ci);
        }
    }
}

fn unlink(d: &mut [Delim], k: usize) {
    let Some(&x) = d.get(k) else { return };
    if let Some(p) = d.get_mut(x.prev) {
        p.next = x.next;
    }
    if let Some(nx) = d.get_mut(x.next) {
        nx.prev = x.prev;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_of_three_and_partial_close() {
        // *foo**bar**baz*: runs 1(open), 2(both), 2(both), 1(close)
        let mut d = [
            Delim::new(0, b'*', 1, true, false),
            Delim::new(1, b'*', 2, true, true),
            Delim::new(2, b'*', 2, true, true),
            Delim::new(3, b'*', 1, false, true),
        ];
        let mut pairs = Vec::new();
        process(&mut d, |p| pairs.push((p.opener, p.closer, p.code)));
        assert_eq!(pairs, [(1, 2, StyleCode::Bold), (0, 3, StyleCode::Italic)]);
    }

    #[test]
    fn strike_needs_its_own_kind() {
        let mut d = [
            Delim::new(0, b'~', 2, true, false),
            Delim::new(1, b'*', 2, false, true),
            Delim::new(2, b'~', 2, false, true),
        ];
        let mut pairs = Vec::new();
        process(&mut d, |p| pairs.push((p.opener, p.closer, p.code)));
        assert_eq!(pairs, [(0, 2, StyleCode::Strike)]);
    }
}
