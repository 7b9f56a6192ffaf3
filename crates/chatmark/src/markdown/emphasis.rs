//! The process-emphasis algorithm of CommonMark 0.31.2 §6.2 (I4), with GFM-style `~~`
//! strike delimiters on the same stack (I5), run online as the paragraph is tokenized: a
//! closer only ever looks at delimiters before it, so each run is matched when it is read.
//! The stack holds only runs that can open (the others can never be an opener, and removing
//! them changes nothing); "remove the delimiters between opener and closer" truncates it,
//! and the per-kind `openers_bottom` bound keeps every search from rescanning (L1).
//!
//! What each run ends up doing is recorded as [`Events`], one `u32` per run, for the
//! emission pass.

use crate::sort::sat32;

/// One opener candidate on the stack.
#[derive(Clone, Copy, Debug)]
struct Opener {
    /// Index of its run's mark in the message's [`Marks`] (where its events are recorded).
    run: u32,
    /// Delimiters not yet used.
    count: u32,
    /// `*`, `_` or `~`.
    ch: u8,
    /// Length of the run as written, modulo 3 (the rule of 3).
    orig_mod3: u8,
    can_close: bool,
}

/// The pairs a delimiter run takes part in: how many it closes and opens of each of its
/// codes (`b` by two delimiters, `i` by one; a `~~` run counts its `s` as `b`). Packed in a
/// `u32` of four 7-bit counts; a count past 127 moves the run to a side table (`Marks::wide`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Events {
    pub close_two: u32,
    pub close_one: u32,
    pub open_two: u32,
    pub open_one: u32,
}

const FIELD: u32 = 0x7f;

impl Events {
    /// Delimiters the run uses closing, then opening (`[closing | literal | opening]`).
    pub(super) const fn close_used(self) -> usize {
        (2 * self.close_two + self.close_one) as usize
    }

    pub(super) const fn open_used(self) -> usize {
        (2 * self.open_two + self.open_one) as usize
    }

    #[cfg(test)]
    const fn is_empty(self) -> bool {
        self.close_two | self.close_one | self.open_two | self.open_one == 0
    }

    fn fits(self) -> bool {
        self.close_two
            .max(self.close_one)
            .max(self.open_two)
            .max(self.open_one)
            <= FIELD
    }

    fn pack(self) -> u32 {
        self.close_two | self.close_one << 7 | self.open_two << 14 | self.open_one << 21
    }

    fn unpack(p: u32) -> Events {
        Events {
            close_two: p & FIELD,
            close_one: p >> 7 & FIELD,
            open_two: p >> 14 & FIELD,
            open_one: p >> 21 & FIELD,
        }
    }
}

/// One markup token of the message, as the analysis pass leaves it for the emission pass:
/// its first byte and what it is, packed in a `u32` (two kind bits, a flag, a payload).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    /// First byte of the token in the input.
    pub at: u32,
    info: u32,
}

const KIND: u32 = 3 << 30;
const DELIM: u32 = 0;
const TAG: u32 = 1 << 30;
const ESCAPE: u32 = 2 << 30;
/// A delimiter run whose counts live in the side table (at the payload's index); a matched
/// opening tag that the emission pass has seen closed.
const FLAG: u32 = 1 << 29;
const PAYLOAD: u32 = FLAG - 1;
/// The payload of an unpaired tag.
const UNPAIRED: u32 = PAYLOAD;

/// What a [`Mark`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MarkKind {
    /// A `*`, `_` or `~~` run and the pairs it takes part in (I4, I5).
    Delim(Events),
    /// An I3 tag: the index of its partner, if paired; whether a paired opener has been
    /// closed already (emission).
    Tag { partner: Option<u32>, ended: bool },
    /// A backslash that escapes the next character (I2): dropped.
    Escape,
}

/// The marks of a message in source order, plus the side table of wide event counts.
#[derive(Debug, Default)]
pub(super) struct Marks {
    list: Vec<Mark>,
    wide: Vec<Events>,
}

impl Marks {
    /// No marks (const, so that the per-thread scratch needs no lazy initialisation).
    pub(super) const NEW: Self = Self {
        list: Vec::new(),
        wide: Vec::new(),
    };

    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.wide.clear();
    }

    pub(super) fn shrink_to(&mut self, n: usize) {
        self.list.shrink_to(n);
        self.wide.shrink_to(n);
    }

    pub(super) fn get(&self, k: usize) -> Option<Mark> {
        self.list.get(k).copied()
    }

    fn push(&mut self, at: usize, info: u32) -> u32 {
        self.list.push(Mark {
            at: sat32(at),
            info,
        });
        sat32(self.list.len() - 1)
    }

    pub(super) fn push_escape(&mut self, at: usize) {
        self.push(at, ESCAPE);
    }

    pub(super) fn push_tag(&mut self, at: usize) -> u32 {
        self.push(at, TAG | UNPAIRED)
    }

    /// Pairs tags `a` and `b` (I3).
    pub(super) fn pair(&mut self, a: u32, b: u32) {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(m) = self.list.get_mut(x as usize) {
                m.info = TAG | (y & PAYLOAD);
            }
        }
    }

    /// Marks the paired opening tag `k` as closed (emission).
    pub(super) fn end_tag(&mut self, k: u32) {
        if let Some(m) = self.list.get_mut(k as usize) {
            m.info |= FLAG;
        }
    }

    /// What mark `k` is.
    pub(super) fn kind(&self, k: usize) -> MarkKind {
        let Some(m) = self.list.get(k) else {
            return MarkKind::Escape;
        };
        match m.info & KIND {
            DELIM if m.info & FLAG != 0 => MarkKind::Delim(
                self.wide
                    .get((m.info & PAYLOAD) as usize)
                    .copied()
                    .unwrap_or_default(),
            ),
            DELIM => MarkKind::Delim(Events::unpack(m.info)),
            TAG => MarkKind::Tag {
                partner: Some(m.info & PAYLOAD).filter(|&p| p != UNPAIRED),
                ended: m.info & FLAG != 0,
            },
            _ => MarkKind::Escape,
        }
    }

    /// The number of pairs matched (each counted at its closer).
    pub(super) fn pairs(&self) -> usize {
        (0..self.list.len())
            .map(|k| match self.kind(k) {
                MarkKind::Delim(e) => (e.close_two + e.close_one) as usize,
                MarkKind::Tag {
                    partner: Some(p), ..
                } if (p as usize) < k => 1,
                _ => 0,
            })
            .sum()
    }

    fn update(&mut self, k: u32, f: impl FnOnce(&mut Events)) {
        let MarkKind::Delim(mut e) = self.kind(k as usize) else {
            return;
        };
        f(&mut e);
        let wide_len = sat32(self.wide.len());
        let Some(m) = self.list.get_mut(k as usize) else {
            return;
        };
        if m.info & FLAG != 0 {
            if let Some(w) = self.wide.get_mut((m.info & PAYLOAD) as usize) {
                *w = e;
            }
        } else if e.fits() {
            m.info = DELIM | e.pack();
        } else {
            m.info = DELIM | FLAG | (wide_len & PAYLOAD);
            self.wide.push(e);
        }
    }
}

/// The online matcher of one paragraph's delimiter runs.
#[derive(Debug, Default)]
pub(super) struct Matcher {
    stack: Vec<Opener>,
    /// openers_bottom per (kind, closer can open, orig % 3): stack entries below this index
    /// are known not to match such a closer.
    bottom: [usize; 18],
}

fn kind(ch: u8) -> usize {
    match ch {
        b'*' => 0,
        b'_' => 1,
        _ => 2,
    }
}

impl Matcher {
    /// An empty matcher (const, as [`Marks::NEW`]).
    pub(super) const NEW: Self = Self {
        stack: Vec::new(),
        bottom: [0; 18],
    };

    /// Starts a paragraph: delimiters pair only within one (I6).
    pub(super) fn reset(&mut self) {
        self.stack.clear();
        self.bottom = [0; 18];
    }

    pub(super) fn shrink_to(&mut self, n: usize) {
        self.stack.shrink_to(n);
    }

    /// Matches the next run of the paragraph (read in source order, starting at byte `at`),
    /// recording it and its events, and those of the openers it closes, in `marks`.
    pub(super) fn run(
        &mut self,
        at: usize,
        ch: u8,
        len: usize,
        can_open: bool,
        can_close: bool,
        marks: &mut Marks,
    ) {
        let me = marks.push(at, DELIM);
        let mut count = len;
        let orig_mod3 = (len % 3) as u8;
        if can_close {
            let key = kind(ch) * 6 + usize::from(can_open) * 3 + len % 3;
            while count > 0 {
                let floor = self.bottom.get(key).copied().unwrap_or(0);
                let found = self
                    .stack
                    .get(floor..)
                    .unwrap_or_default()
                    .iter()
                    .rposition(|o| {
                        o.ch == ch
                            && !(ch != b'~'
                                && (can_open || o.can_close)
                                && len % 3 != 0
                                && (usize::from(o.orig_mod3) + len) % 3 == 0)
                    })
                    .map(|k| k + floor);
                let Some(at) = found else {
                    if let Some(b) = self.bottom.get_mut(key) {
                        *b = self.stack.len();
                    }
                    break;
                };
                // delimiters between opener and closer leave the stack
                self.truncate(at + 1);
                let Some(opener) = self.stack.last_mut() else {
                    break;
                };
                let two = ch == b'~' || (count >= 2 && opener.count >= 2);
                let used = if two { 2 } else { 1 };
                opener.count = opener.count.saturating_sub(used as u32);
                let (run, done) = (opener.run, opener.count == 0);
                marks.update(run, |e| {
                    if two {
                        e.open_two += 1;
                    } else {
                        e.open_one += 1;
                    }
                });
                marks.update(me, |e| {
                    if two {
                        e.close_two += 1;
                    } else {
                        e.close_one += 1;
                    }
                });
                if done {
                    self.truncate(at);
                }
                count -= used;
            }
        }
        if can_open && count > 0 {
            self.stack.push(Opener {
                run: me,
                count: sat32(count),
                ch,
                orig_mod3,
                can_close,
            });
        }
    }

    fn truncate(&mut self, len: usize) {
        self.stack.truncate(len);
        for b in &mut self.bottom {
            *b = (*b).min(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(runs: &[(u8, usize, bool, bool)]) -> Vec<Events> {
        let mut m = Matcher::default();
        let mut marks = Marks::default();
        for (k, &(ch, len, o, c)) in runs.iter().enumerate() {
            m.run(k, ch, len, o, c, &mut marks);
        }
        (0..runs.len())
            .map(|k| match marks.kind(k) {
                MarkKind::Delim(e) => e,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn rule_of_three_and_partial_close() {
        // *foo**bar**baz*: runs 1(open), 2(both), 2(both), 1(close)
        let e = events(&[
            (b'*', 1, true, false),
            (b'*', 2, true, true),
            (b'*', 2, true, true),
            (b'*', 1, false, true),
        ]);
        assert_eq!(e[1].open_two, 1);
        assert_eq!(e[2].close_two, 1);
        assert_eq!((e[0].open_one, e[3].close_one), (1, 1));
    }

    #[test]
    fn strike_needs_its_own_kind() {
        let e = events(&[
            (b'~', 2, true, false),
            (b'*', 2, false, true),
            (b'~', 2, false, true),
        ]);
        assert_eq!((e[0].open_two, e[2].close_two), (1, 1));
        assert!(e[1].is_empty());
    }

    #[test]
    fn counts_past_the_packed_width_move_to_the_side_table() {
        // one opener of 400 `*` closed by 200 runs of `**`
        let mut runs = vec![(b'*', 400, true, false)];
        runs.extend(std::iter::repeat_n((b'*', 2, false, true), 200));
        let e = events(&runs);
        assert_eq!(e[0].open_two, 200);
        assert!(e[1..].iter().all(|x| x.close_two == 1));
    }
}
