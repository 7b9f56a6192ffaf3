//! The process-emphasis algorithm of CommonMark 0.31.2 §6.2 (I4), with GFM-style `~~`
//! strike delimiters on the same stack (I5), run online as the paragraph is tokenized: a
//! closer only ever looks at delimiters before it, so each run is matched when it is read.
//! The stack holds only runs that can open (the others can never be an opener, and removing
//! them changes nothing); "remove the delimiters between opener and closer" truncates it,
//! and the per-kind `openers_bottom` bound keeps every search from rescanning (L1). The
//! commonest closer, one the top opener takes whole, skips the search.
//!
//! What each run ends up doing is reported to the scan's sink ([`Sink`]) as it is decided:
//! kept as [`Events`] in its mark for the output walk, or written at once by the one pass.

use super::scan::Sink;
use crate::sort::{pos32, sat32};

/// One opener candidate on the stack.
#[derive(Clone, Copy, Debug)]
struct Opener {
    /// Its run's id in the sink (in [`Marks`](super::marks::Marks): its mark's index, where
    /// its events are recorded).
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
/// codes (`b` by two delimiters, `i` by one; a `~~` run counts its `s` as `b`). Packed as
/// four 5-bit counts above the run's 5-bit length in its mark; a run past 31 delimiters is
/// in a side table of [`Marks`](super::marks::Marks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Events {
    pub close_two: u32,
    pub close_one: u32,
    pub open_two: u32,
    pub open_one: u32,
}

/// The largest count (or run length) a packed field holds.
pub(super) const FIELD: u32 = 0x1f;
/// Where the packed counts begin (the run's length is the field below them).
pub(super) const CLOSE_TWO_AT: u32 = 5;
pub(super) const CLOSE_ONE_AT: u32 = 10;
pub(super) const OPEN_TWO_AT: u32 = 15;
pub(super) const OPEN_ONE_AT: u32 = 20;

impl Events {
    #[cfg(test)]
    const fn is_empty(self) -> bool {
        self.close_two | self.close_one | self.open_two | self.open_one == 0
    }

    pub(super) fn fits(self) -> bool {
        self.close_two
            .max(self.close_one)
            .max(self.open_two)
            .max(self.open_one)
            <= FIELD
    }

    /// The counts in their packed fields (the length's field left zero).
    pub(super) fn pack(self) -> u32 {
        self.close_two << CLOSE_TWO_AT
            | self.close_one << CLOSE_ONE_AT
            | self.open_two << OPEN_TWO_AT
            | self.open_one << OPEN_ONE_AT
    }

    /// The counts of a packed payload.
    pub(super) fn unpack(p: u32) -> Events {
        Events {
            close_two: p >> CLOSE_TWO_AT & FIELD,
            close_one: p >> CLOSE_ONE_AT & FIELD,
            open_two: p >> OPEN_TWO_AT & FIELD,
            open_one: p >> OPEN_ONE_AT & FIELD,
        }
    }
}

/// What a delimiter run does as it is read: the pairs it closes, and how many of its
/// delimiters it leaves waiting on the stack (those may open pairs later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Outcome {
    pub closes: Events,
    pub waits: usize,
}

/// The online matcher of one paragraph's delimiter runs.
#[derive(Debug, Default)]
pub(super) struct Matcher {
    stack: Vec<Opener>,
    /// openers_bottom per (kind, closer can open, orig % 3): stack entries below this index
    /// are known not to match such a closer.
    bottom: [usize; 18],
    /// At least the highest of `bottom` (so that most truncations need not look at it).
    high: usize,
}

fn kind(ch: u8) -> usize {
    match ch {
        b'*' => 0,
        b'_' => 1,
        _ => 2,
    }
}

impl Matcher {
    /// An empty matcher (const, as [`Marks::NEW`](super::marks::Marks::NEW)).
    pub(super) const NEW: Self = Self {
        stack: Vec::new(),
        bottom: [0; 18],
        high: 0,
    };

    /// Starts a paragraph: delimiters pair only within one (I6).
    pub(super) fn reset(&mut self) {
        self.stack.clear();
        if self.high > 0 {
            self.bottom = [0; 18];
            self.high = 0;
        }
    }

    pub(super) fn shrink_to(&mut self, n: usize) {
        self.stack.shrink_to(n);
    }

    /// The capacity of its stack, in entries.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.stack.capacity()
    }

    /// Matches the next run of the paragraph (read in source order, starting at byte `at`),
    /// recording it and its events, and those of the openers it closes, in `marks`; returns
    /// what it does now.
    // Once per delimiter run in the scan's loop: inline, with the general path out of line
    // (−0.1 M instructions over the bench corpus).
    #[inline(always)]
    pub(super) fn run<S: Sink>(
        &mut self,
        at: usize,
        ch: u8,
        len: usize,
        can_open: bool,
        can_close: bool,
        marks: &mut S,
    ) -> Outcome {
        let me = marks.delim(at, len, ch);
        if can_close {
            if len <= 3 {
                if let Some(closes) = self.closes_top(ch, len, can_open, me, marks) {
                    return Outcome { closes, waits: 0 };
                }
            }
            return self.match_run(me, ch, len, can_open, can_close, marks);
        }
        if can_open {
            // a run that cannot close only waits on the stack, whole
            self.stack.push(Opener {
                run: me,
                count: pos32(len),
                ch,
                orig_mod3: (len % 3) as u8,
                can_close: false,
            });
            return Outcome {
                closes: Events::default(),
                waits: len,
            };
        }
        Outcome::default()
    }

    /// [`Matcher::run`] for run `me`, already in `marks`, by the general algorithm.
    #[inline(never)]
    fn match_run<S: Sink>(
        &mut self,
        me: u32,
        ch: u8,
        len: usize,
        can_open: bool,
        can_close: bool,
        marks: &mut S,
    ) -> Outcome {
        // what this run closes, recorded once at the end
        let mut mine = Events::default();
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
                        self.high = self.high.max(*b);
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
                marks.add_open(run, two);
                if two {
                    mine.close_two += 1;
                } else {
                    mine.close_one += 1;
                }
                if done {
                    self.truncate(at);
                }
                count -= used;
            }
            if mine.close_two | mine.close_one != 0 {
                marks.set_closes(me, mine);
            }
        }
        let mut waits = 0;
        if can_open && count > 0 {
            waits = count;
            self.stack.push(Opener {
                run: me,
                count: sat32(count),
                ch,
                orig_mod3,
                can_close,
            });
        }
        Outcome {
            closes: mine,
            waits,
        }
    }

    /// The common closer, fast: a run of one to three delimiters that the opener on top of
    /// the stack, of its kind and with as many delimiters left, takes whole. That opener is
    /// the one the search below would find (no `openers_bottom` is above it, and it is the
    /// nearest), and both are used up, so the opener leaves the stack and the closer is
    /// not pushed: one or two delimiters make one pair; three (`***a***`) make a pair of
    /// two and then, of the one left on each side, a pair of one, as the search's two
    /// rounds would. Returns the pairs it closes if it was that case (and recorded them).
    #[inline(always)]
    fn closes_top<S: Sink>(
        &mut self,
        ch: u8,
        len: usize,
        can_open: bool,
        me: u32,
        marks: &mut S,
    ) -> Option<Events> {
        let depth = self.stack.len();
        let o = self.stack.last()?;
        if self.high >= depth
            || o.ch != ch
            || o.count as usize != len
            || (ch != b'~'
                && (can_open || o.can_close)
                && len % 3 != 0
                && (usize::from(o.orig_mod3) + len) % 3 == 0)
        {
            return None;
        }
        // (a run of `~` here is two long, I5)
        let (two, one) = (len >= 2, len != 2);
        if two {
            marks.add_open(o.run, true);
            marks.set_close(me, true);
        }
        if one {
            marks.add_open(o.run, false);
            marks.set_close(me, false);
        }
        self.stack.pop();
        Some(Events {
            close_two: u32::from(two),
            close_one: u32::from(one),
            ..Events::default()
        })
    }

    #[inline]
    fn truncate(&mut self, len: usize) {
        self.stack.truncate(len);
        if len < self.high {
            for b in &mut self.bottom {
                *b = (*b).min(len);
            }
            self.high = len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::marks::{Kind, Mark, Marks};
    use super::*;

    fn events(runs: &[(u8, usize, bool, bool)]) -> Vec<Events> {
        let mut m = Matcher::default();
        let mut marks = Marks::default();
        for (k, &(ch, len, o, c)) in runs.iter().enumerate() {
            m.run(k, ch, len, o, c, &mut marks);
        }
        (0..runs.len())
            .map(|k| match marks.mark(k) {
                Some(m) if m.kind() == Kind::Delim => marks.delim(m).1,
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

    /// I4, I5: the fast path for a closer that the top opener takes whole (one, two or three
    /// delimiters) records what the general algorithm records, over random paragraphs of
    /// runs of every kind, length and flanking.
    #[test]
    fn the_top_opener_fast_path_agrees_with_the_general_algorithm_i4() {
        let mut rng = crate::rng::Rng(0xD1B5_4A32_D192_ED03);
        let (mut fast, mut general) = (Matcher::default(), Matcher::default());
        let (mut fast_marks, mut general_marks) = (Marks::default(), Marks::default());
        let (mut taken, mut threes) = (0, 0);
        for k in 0..200_000 {
            if rng.below(40) == 0 {
                fast.reset();
                general.reset();
            }
            let ch = rng.pick(b"**__~");
            let len = if ch == b'~' { 2 } else { 1 + rng.below(6) };
            let (open, close) = (rng.below(3) != 0, rng.below(3) != 0);
            let depth = fast.stack.len();
            fast.run(k, ch, len, open, close, &mut fast_marks);
            let me = general_marks.push_delim(k, len);
            general.match_run(me, ch, len, open, close, &mut general_marks);
            let took = close && fast.stack.len() < depth && len <= 3;
            taken += usize::from(took);
            threes += usize::from(took && len == 3);
        }
        for k in 0..fast_marks.len() {
            let (a, b) = (fast_marks.mark(k), general_marks.mark(k));
            assert_eq!(a, b, "run {k}");
            let events = |marks: &Marks, m: Option<Mark>| m.map(|m| marks.delim(m));
            assert_eq!(events(&fast_marks, a), events(&general_marks, b), "run {k}");
        }
        assert!(taken > 10_000 && threes > 1_000, "{taken} {threes}");
    }

    #[test]
    fn counts_past_the_packed_width_move_to_the_side_table() {
        // one opener of 400 `*` closed by 200 runs of `**`
        let mut runs = vec![(b'*', 400, true, false)];
        runs.extend(std::iter::repeat_n((b'*', 2, false, true), 200));
        let e = events(&runs);
        assert_eq!(e[0].open_two, 200);
        assert!(e[1..].iter().all(|x| x.close_two == 1));
        // either side of the packed length's width (31): an opener used up by `**` closers
        // and a last `*`
        for len in [30, 31, 32, 33] {
            let mut runs = vec![(b'*', len, true, false)];
            runs.extend(std::iter::repeat_n((b'*', 2, false, true), len / 2));
            runs.extend(std::iter::repeat_n((b'*', 1, false, true), len % 2));
            let mut m = Matcher::default();
            let mut marks = Marks::default();
            for (k, &(ch, len, o, c)) in runs.iter().enumerate() {
                m.run(k, ch, len, o, c, &mut marks);
            }
            let (run_len, e) = marks.mark(0).map(|m| marks.delim(m)).unwrap_or_default();
            assert_eq!(run_len, len);
            assert_eq!(
                (e.open_two, e.open_one),
                ((len / 2) as u32, (len % 2) as u32)
            );
        }
    }
}
