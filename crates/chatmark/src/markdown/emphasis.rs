//! The process-emphasis algorithm of CommonMark 0.31.2 §6.2 (I4), with GFM-style `~~`
//! strike delimiters on the same stack (I5), run online as the paragraph is tokenized: a
//! closer only ever looks at delimiters before it, so each run is matched when it is read.
//! The stack holds only runs that can open (the others can never be an opener, and removing
//! them changes nothing); "remove the delimiters between opener and closer" truncates it,
//! and the per-kind `openers_bottom` bound keeps every search from rescanning (L1). The
//! commonest closer, one the top opener takes whole, skips the search.
//!
//! [`Matcher::close`] pairs a run with the openers before it and puts what is left of it
//! on the stack; it tells each opener it uses through [`Pairs`], and returns what the run
//! does ([`Outcome`]) for the caller to record.

use crate::sort::pos32;

/// Where the matcher reports that an earlier delimiter run opens one more pair: the marks
/// of the output walk, or the one pass's writer.
pub(super) trait Pairs {
    /// The id the run being matched will have in the caller's record.
    fn next_run(&self) -> u32;
    /// Delimiter run `run` (an id from the caller's record) opens one more pair, by two
    /// delimiters or by one.
    fn opens(&mut self, run: u32, two: bool);
}

/// A delimiter run as read: `len` units of `ch` (`*`, `_` or `~`) at `at`, and whether
/// its flanking lets it open and close (I4).
#[derive(Clone, Copy, Debug)]
pub(super) struct DelimRun {
    pub at: usize,
    pub len: usize,
    pub ch: u8,
    pub can_open: bool,
    pub can_close: bool,
}

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

    /// Pairs the next run of the paragraph (read in source order) with the openers before
    /// it, reporting each opener it uses to `pairs`, and puts the delimiters it leaves
    /// waiting on the stack (under [`Pairs::next_run`]); returns the pairs it closes and how
    /// many delimiters wait.
    #[inline]
    pub(super) fn close<P: Pairs>(&mut self, run: DelimRun, pairs: &mut P) -> Outcome {
        if !run.can_close {
            // a run that cannot close only waits, whole, if it can open
            if run.can_open {
                self.wait(pairs.next_run(), run, run.len);
                return Outcome {
                    closes: Events::default(),
                    waits: run.len,
                };
            }
            return Outcome::default();
        }
        if run.len <= 3 {
            if let Some(closes) = self.closes_top(run, pairs) {
                return Outcome { closes, waits: 0 };
            }
        }
        self.match_run(run, pairs)
    }

    /// Puts the `waits` delimiters left of `run` on the stack as opener `id`.
    #[inline]
    fn wait(&mut self, id: u32, run: DelimRun, waits: usize) {
        if waits > 0 {
            self.stack.push(Opener {
                run: id,
                count: pos32(waits),
                ch: run.ch,
                orig_mod3: (run.len % 3) as u8,
                can_close: run.can_close,
            });
        }
    }

    /// [`Matcher::close`] of a run that can close, by the general algorithm.
    #[inline(never)]
    fn match_run<P: Pairs>(&mut self, run: DelimRun, pairs: &mut P) -> Outcome {
        let DelimRun {
            ch, len, can_open, ..
        } = run;
        // what this run closes
        let mut mine = Events::default();
        let mut count = len;
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
            let (id, done) = (opener.run, opener.count == 0);
            pairs.opens(id, two);
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
        let waits = if can_open { count } else { 0 };
        self.wait(pairs.next_run(), run, waits);
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
    /// rounds would. Returns the pairs it closes if it was that case.
    #[inline]
    fn closes_top<P: Pairs>(&mut self, run: DelimRun, pairs: &mut P) -> Option<Events> {
        let DelimRun {
            ch, len, can_open, ..
        } = run;
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
            pairs.opens(o.run, true);
        }
        if one {
            pairs.opens(o.run, false);
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
    use super::*;

    /// What a paragraph's runs do: per run, what it closes and what it opens (the opens
    /// reported through [`Pairs`], counted per run id).
    #[derive(Default)]
    struct Record(Vec<Events>);

    impl Pairs for Record {
        fn next_run(&self) -> u32 {
            self.0.len() as u32
        }

        fn opens(&mut self, run: u32, two: bool) {
            let e = &mut self.0[run as usize];
            if two {
                e.open_two += 1;
            } else {
                e.open_one += 1;
            }
        }
    }

    /// Runs `(ch, len, can_open, can_close)` through `m` in order, each recorded under its
    /// index.
    fn record(m: &mut Matcher, rec: &mut Record, runs: &[(u8, usize, bool, bool)]) {
        for &(ch, len, can_open, can_close) in runs {
            let run = DelimRun {
                at: rec.0.len(),
                len,
                ch,
                can_open,
                can_close,
            };
            let o = m.close(run, rec);
            rec.0.push(o.closes);
        }
    }

    fn events(runs: &[(u8, usize, bool, bool)]) -> Vec<Events> {
        let mut rec = Record::default();
        record(&mut Matcher::default(), &mut rec, runs);
        rec.0
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
        let (mut fast_rec, mut general_rec) = (Record::default(), Record::default());
        let (mut taken, mut threes) = (0, 0);
        for k in 0..200_000 {
            if rng.below(40) == 0 {
                fast.reset();
                general.reset();
            }
            let ch = rng.pick(b"**__~");
            let len = if ch == b'~' { 2 } else { 1 + rng.below(6) };
            let (can_open, can_close) = (rng.below(3) != 0, rng.below(3) != 0);
            let run = DelimRun {
                at: k,
                len,
                ch,
                can_open,
                can_close,
            };
            let depth = fast.stack.len();
            let o = fast.close(run, &mut fast_rec);
            fast_rec.0.push(o.closes);
            let g = if can_close {
                general.match_run(run, &mut general_rec)
            } else {
                general.close(run, &mut general_rec)
            };
            general_rec.0.push(g.closes);
            assert_eq!(o, g, "run {k}");
            let took = can_close && fast.stack.len() < depth && len <= 3;
            taken += usize::from(took);
            threes += usize::from(took && len == 3);
        }
        assert_eq!(fast_rec.0, general_rec.0);
        assert!(taken > 10_000 && threes > 1_000, "{taken} {threes}");
    }

    /// Counts past the marks' packed width (31) are counted like any other.
    #[test]
    fn long_runs_count_every_pair() {
        // one opener of 400 `*` closed by 200 runs of `**`
        let mut runs = vec![(b'*', 400, true, false)];
        runs.extend(std::iter::repeat_n((b'*', 2, false, true), 200));
        let e = events(&runs);
        assert_eq!(e[0].open_two, 200);
        assert!(e[1..].iter().all(|x| x.close_two == 1));
        for len in [30, 31, 32, 33] {
            let mut runs = vec![(b'*', len, true, false)];
            runs.extend(std::iter::repeat_n((b'*', 2, false, true), len / 2));
            runs.extend(std::iter::repeat_n((b'*', 1, false, true), len % 2));
            let e = events(&runs);
            assert_eq!(
                (e[0].open_two, e[0].open_one),
                ((len / 2) as u32, (len % 2) as u32)
            );
        }
    }
}
