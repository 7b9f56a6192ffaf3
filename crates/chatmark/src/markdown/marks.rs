//! The marks of a message: what the scan ([`super::scan`]) found that is not plain text,
//! in source order, for the output walk ([`super::emit`]) of the messages the one pass
//! cannot write directly ([`super::direct`]) and of the npm package's wasm. One [`Mark`]
//! (8 bytes) per delimiter run (I4, I5) with its length and the pairs it takes part in, per
//! escaping backslash (I2), line prefix or blank line's spaces that go (P1–P3, 2.3); two
//! per tag (I3), the second holding its partner; and two per paragraph line that carries
//! line codes (P4), at its start (with its prefix's length) and where its content ends.
//! Everything between marks is the message's own text, copied as it is.

use super::emphasis::{DelimRun, Events, Outcome, Pairs, FIELD, OPEN_ONE_AT, OPEN_TWO_AT};
use super::sink::{Line, Sink, TagToken};
use crate::sort::sat32;
use crate::vocab::Tag;
use crate::StyleSet;

/// Units up to which a message is chat-sized for [`Marks::runs_bound`] (the allocation
/// figures' 4 KB).
pub(super) const CHAT_SIZE: usize = 4096;

/// One mark: where it is, and its kind with a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mark {
    /// First unit of the mark in the input (in a tag's second entry: its partner, [`NONE`]
    /// if it has none).
    pub at: u32,
    info: u32,
}

const KIND: u32 = 7 << 29;
const DELIM: u32 = 0;
const TAG: u32 = 1 << 29;
const REMOVE: u32 = 2 << 29;
const LINE: u32 = 3 << 29;
const LINE_END: u32 = 4 << 29;
/// A tag's second entry.
const LINK: u32 = 5 << 29;
/// A delimiter run whose length and counts live in the side table (at the payload's
/// index); a paired opening tag that the output walk saw closed while an inner tag of its
/// slot was open.
const FLAG: u32 = 1 << 28;
const PAYLOAD: u32 = FLAG - 1;
/// No mark (a tag with no partner, the end of a list of openers).
pub(super) const NONE: u32 = u32::MAX;

/// What a [`Mark`] is ([`Mark::kind`]); each kind's fields are read by the methods of
/// [`Mark`] or [`Marks`] named for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A `*`, `_` or `~~` run: its length and the pairs it takes part in are
    /// [`Marks::delim`] (I4, I5).
    Delim,
    /// An I3 tag of [`Mark::tag_len`] units, [`Mark::tag_index`], opening or [`Mark::closing`];
    /// the next entry holds its partner if paired ([`Marks::partner`]; whether the walk
    /// marked a paired opener closed is [`Marks::ended`]).
    Tag,
    /// [`Mark::len`] units that go: a line prefix (P1–P3), a blank line's spaces (2.3), or
    /// a backslash that escapes the next character (I2).
    Remove,
    /// A paragraph line with line codes (P4) starts here: its first [`Mark::prefix`] units
    /// go; its codes are the next entry of [`Marks::line_codes`].
    Line,
    /// The content of the line with codes begun by the last [`Kind::Line`] ends here
    /// (before its line break, 1.3).
    LineEnd,
}

impl Mark {
    /// Its kind, from its top bits in one step (the walk's one dispatch per mark).
    #[inline]
    pub(super) fn kind(self) -> Kind {
        match self.info & KIND {
            DELIM => Kind::Delim,
            TAG => Kind::Tag,
            REMOVE => Kind::Remove,
            LINE => Kind::Line,
            // (a tag's second entry is never read as a mark)
            _ => Kind::LineEnd,
        }
    }

    /// A removal's length.
    #[inline]
    pub(super) fn len(self) -> usize {
        (self.info & PAYLOAD) as usize
    }

    /// A tag's length (a tag is at most a few units long).
    #[inline]
    pub(super) fn tag_len(self) -> usize {
        (self.info & 0xff) as usize
    }

    /// The index of a tag's tag ([`Tag::index`]).
    #[inline]
    pub(super) fn tag_index(self) -> usize {
        (self.info >> 8 & 0xff) as usize
    }

    /// Whether a tag closes.
    #[inline]
    pub(super) fn closing(self) -> bool {
        self.info & 1 << 16 != 0
    }

    /// A line's prefix length.
    #[inline]
    pub(super) fn prefix(self) -> usize {
        (self.info & PAYLOAD) as usize
    }
}

/// A delimiter run too long for its mark's payload (its counts, at most its length, always
/// fit a packed run's fields; the move of a packed run here is only a safeguard).
#[derive(Clone, Copy, Debug, Default)]
struct Wide {
    len: u32,
    events: Events,
}

/// The marks of a message in source order, plus side tables.
#[derive(Debug, Default)]
pub(super) struct Marks {
    list: Vec<Mark>,
    /// Delimiter runs too long to pack.
    wide: Vec<Wide>,
    /// Line codes, one per [`Kind::Line`] mark, in order.
    codes: Vec<StyleSet>,
    /// Pairs matched (delimiter pairs and tag pairs): sizes the output's runs.
    pairs: usize,
}

impl Marks {
    /// No marks (const, so that the per-thread scratch needs no lazy initialisation).
    pub(super) const NEW: Self = Self {
        list: Vec::new(),
        wide: Vec::new(),
        codes: Vec::new(),
        pairs: 0,
    };

    /// Empties the marks (keeping their buffers).
    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.wide.clear();
        self.codes.clear();
        self.pairs = 0;
    }

    /// Gives back what any of the (emptied) buffers holds past `keep` entries.
    pub(super) fn shrink_to(&mut self, keep: usize) {
        self.list.shrink_to(keep);
        self.wide.shrink_to(keep);
        self.codes.shrink_to(keep);
    }

    /// The largest capacity of its buffers, in entries.
    #[cfg(test)]
    pub(super) fn largest(&self) -> usize {
        self.list
            .capacity()
            .max(self.wide.capacity())
            .max(self.codes.capacity())
    }

    /// How many runs to reserve for a message of `units` units. A run begins where the
    /// codes change, at either end of a pair or of a line with codes, so twice those (and
    /// one) is a true bound: a pair inside another splits the outer one's run in two. A
    /// chat-sized message reserves it and its walk never reallocates; a longer one
    /// reserves one per pair and line (its vector may then grow), since twice that would
    /// double its peak memory where pairs do not nest. A message with neither reserves
    /// nothing.
    pub(super) fn runs_bound(&self, units: usize) -> usize {
        let n = self.pairs + self.codes.len();
        if n == 0 {
            // no pair and no line codes: no run, and no allocation for one
            return 0;
        }
        let bound = if units <= CHAT_SIZE { 2 * n } else { n };
        (bound + 1).min(units)
    }

    #[inline]
    fn push(&mut self, at: u32, info: u32) -> u32 {
        self.list.push(Mark { at, info });
        sat32(self.list.len() - 1)
    }

    /// A delimiter run of `len` units at `at` that closes the pairs `closes` (I4, I5); the
    /// pairs it opens are counted later ([`Pairs::opens`]). Its length is packed beside its
    /// counts, each at most its length; a run too long for that goes to the side table.
    #[inline]
    fn push_delim(&mut self, at: usize, len: usize, closes: Events) -> u32 {
        self.pairs += (closes.close_two + closes.close_one) as usize;
        if len <= FIELD as usize && closes.fits() {
            return self.push(sat32(at), DELIM | len as u32 | closes.pack());
        }
        let wide = sat32(self.wide.len());
        self.wide.push(Wide {
            len: sat32(len),
            events: closes,
        });
        self.push(sat32(at), DELIM | FLAG | (wide & PAYLOAD))
    }

    /// `len` units at `at` that go (in several marks past the payload's width: hundreds of
    /// millions of spaces).
    #[inline]
    pub(super) fn push_remove(&mut self, at: usize, len: usize) {
        if len > PAYLOAD as usize {
            self.push_long_remove(at, len);
        } else {
            self.push(sat32(at), REMOVE | len as u32);
        }
    }

    #[cold]
    #[inline(never)]
    fn push_long_remove(&mut self, mut at: usize, mut len: usize) {
        while len > PAYLOAD as usize {
            self.push(sat32(at), REMOVE | PAYLOAD);
            (at, len) = (at + PAYLOAD as usize, len - PAYLOAD as usize);
        }
        self.push(sat32(at), REMOVE | len as u32);
    }

    /// A line with `codes` at `at`, whose first `prefix` units go; [`Marks::end_line`]
    /// says where its content ends. One mark at each end per line: a list of short lines
    /// stays small.
    #[inline]
    pub(super) fn push_line(&mut self, at: usize, prefix: usize, codes: StyleSet) {
        let (at, prefix) = if prefix > PAYLOAD as usize {
            // a prefix too long for the payload goes by marks of its own
            self.push_long_remove(at, prefix);
            (at + prefix, 0)
        } else {
            (at, prefix)
        };
        self.codes.push(codes);
        self.push(sat32(at), LINE | prefix as u32);
    }

    /// The content of the line with codes last pushed ends at `end`.
    #[inline]
    pub(super) fn end_line(&mut self, end: usize) {
        self.push(sat32(end), LINE_END);
    }

    /// The codes of the `k`-th line mark.
    pub(super) fn line_codes(&self, k: usize) -> StyleSet {
        self.codes.get(k).copied().unwrap_or_default()
    }

    /// A tag of `len` units at `at`, unpaired until [`Marks::pair`] pairs it. The payload
    /// holds the length (a tag is at most a few units long), the tag and whether it closes.
    pub(super) fn push_tag(&mut self, at: usize, len: usize, tag: Tag, closing: bool) -> u32 {
        let info = (len.min(0xff) as u32) | (tag.index() as u32) << 8 | u32::from(closing) << 16;
        self.list.extend([
            Mark {
                at: sat32(at),
                info: TAG | (info & PAYLOAD),
            },
            Mark {
                at: NONE,
                info: LINK,
            },
        ]);
        sat32(self.list.len() - 2)
    }

    /// Sets the second entry of tag `k` to `v`, its partner.
    fn set_partner(&mut self, k: u32, v: u32) {
        if let Some(m) = self.list.get_mut(k as usize + 1) {
            m.at = v;
        }
    }

    /// The partner of tag `k`, if it is paired.
    #[inline]
    pub(super) fn partner(&self, k: usize) -> Option<u32> {
        self.list.get(k + 1).map(|m| m.at).filter(|&p| p != NONE)
    }

    /// Pairs tags `a` and `b` (I3).
    pub(super) fn pair(&mut self, a: u32, b: u32) {
        self.set_partner(a, b);
        self.set_partner(b, a);
        self.pairs += 1;
    }

    /// Marks the paired opening tag `k` as closed (output walk: while an inner tag of its
    /// slot is open, so that it leaves the slot's stack when it reaches the top).
    pub(super) fn end_tag(&mut self, k: u32) {
        if let Some(m) = self.list.get_mut(k as usize) {
            m.info |= FLAG;
        }
    }

    /// Mark `k`.
    #[inline]
    pub(super) fn mark(&self, k: usize) -> Option<Mark> {
        self.list.get(k).copied()
    }

    /// The length of delimiter run `m` and the pairs it takes part in.
    #[inline]
    pub(super) fn delim(&self, m: Mark) -> (usize, Events) {
        let payload = m.info & PAYLOAD;
        if m.info & FLAG != 0 {
            let w = self.wide.get(payload as usize).copied().unwrap_or_default();
            (w.len as usize, w.events)
        } else {
            ((payload & FIELD) as usize, Events::unpack(payload))
        }
    }

    /// Whether mark `k` is an opening tag the output walk marked closed ([`Marks::end_tag`]).
    pub(super) fn ended(&self, k: u32) -> bool {
        self.list
            .get(k as usize)
            .is_some_and(|m| m.info & (KIND | FLAG) == TAG | FLAG)
    }

    /// Sets the counts of delimiter run `k` in the side table, moving the run there if it
    /// is not yet.
    #[cold]
    #[inline(never)]
    fn set_wide(&mut self, k: u32, e: Events) {
        let wide_len = sat32(self.wide.len());
        let Some(m) = self.list.get_mut(k as usize) else {
            return;
        };
        let payload = m.info & PAYLOAD;
        if m.info & FLAG != 0 {
            if let Some(w) = self.wide.get_mut(payload as usize) {
                w.events = e;
            }
        } else {
            m.info = DELIM | FLAG | (wide_len & PAYLOAD);
            self.wide.push(Wide {
                len: payload & FIELD,
                events: e,
            });
        }
    }
}

/// Delimiter run `k` opens one more pair, by two delimiters or by one (the matcher, I4).
impl Pairs for Marks {
    /// Its mark's index: the next mark's.
    #[inline]
    fn next_run(&self) -> u32 {
        sat32(self.list.len())
    }

    #[inline]
    fn opens(&mut self, k: u32, two: bool) {
        let Some(m) = self.list.get_mut(k as usize) else {
            return;
        };
        // the common case: a packed count with room, incremented in place (a run's counts
        // never pass its length, so one that packs has room; the test is for safety)
        let shift = if two { OPEN_TWO_AT } else { OPEN_ONE_AT };
        if m.info & FLAG == 0 && (m.info >> shift) & FIELD < FIELD {
            m.info += 1 << shift;
            return;
        }
        let Some(&m) = self.list.get(k as usize) else {
            return;
        };
        let (_, mut e) = self.delim(m);
        if two {
            e.open_two = e.open_two.saturating_add(1);
        } else {
            e.open_one = e.open_one.saturating_add(1);
        }
        self.set_wide(k, e);
    }
}

/// The scan's constructs, recorded for the walk.
impl Sink for Marks {
    #[inline]
    fn remove(&mut self, at: usize, len: usize) {
        self.push_remove(at, len);
    }

    #[inline]
    fn line(&mut self, line: Line) {
        self.push_line(line.at, line.prefix, line.codes.set());
    }

    #[inline]
    fn line_end(&mut self, end: usize) {
        self.end_line(end);
    }

    /// Its second entry holds `before` while it is unpaired.
    #[inline]
    fn open_tag(&mut self, t: TagToken, before: u32) -> u32 {
        let me = self.push_tag(t.at, t.len, t.tag, false);
        self.set_partner(me, before);
        me
    }

    #[inline]
    fn before(&self, id: u32) -> u32 {
        self.list.get(id as usize + 1).map_or(NONE, |m| m.at)
    }

    #[inline]
    fn close_tag(&mut self, t: TagToken, opener: u32) {
        let me = self.push_tag(t.at, t.len, t.tag, true);
        self.pair(opener, me);
    }

    #[inline]
    fn stray_close(&mut self, t: TagToken) {
        self.push_tag(t.at, t.len, t.tag, true);
    }

    /// Its second entry, which held the opener before it, says it has no partner.
    fn unpaired_open(&mut self, id: u32) {
        self.set_partner(id, NONE);
    }

    #[inline]
    fn delimiter(&mut self, run: DelimRun, o: Outcome) {
        self.push_delim(run.at, run.len, o.closes);
    }

    /// The walk counts what it writes: no excess.
    #[inline]
    fn excess(&mut self) -> Option<&mut usize> {
        None
    }
}

const _: () = assert!(core::mem::size_of::<Mark>() == 8);
