//! The marks of a message: what the scan ([`super::scan`]) found that is not plain text,
//! in source order, for the output walk ([`super::emit`]). One [`Mark`] (12 bytes) per
//! delimiter run (I4, I5) with the pairs it takes part in, per tag (I3) with its partner,
//! per escape (I2), per line prefix or blank line's spaces that go (P1–P3, 2.3), and one
//! per paragraph line that carries line codes (P4: where its prefix and content begin and
//! end). Everything between marks is the message's own text, copied as it is.

use super::emphasis::{Events, FIELD, OPEN_ONE_AT, OPEN_TWO_AT};
use crate::sort::sat32;
use crate::vocab::Tag;
use crate::StyleSet;

/// Units up to which a message is chat-sized for [`Marks::runs_bound`] (the allocation
/// figures' 4 KB).
const CHAT_SIZE: usize = 4096;

/// One mark: where it is, a kind-specific argument, and its kind with a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mark {
    /// First unit of the mark in the input.
    pub at: u32,
    /// A delimiter run's or a removal's length; a tag's partner ([`NONE`] if it has none)
    /// or, while it is an unpaired opener, the previous opener of its kind.
    arg: u32,
    info: u32,
}

const KIND: u32 = 7 << 29;
const DELIM: u32 = 0;
const TAG: u32 = 1 << 29;
const ESCAPE: u32 = 2 << 29;
const REMOVE: u32 = 3 << 29;
const LINE: u32 = 4 << 29;
/// A delimiter run whose counts live in the side table (at the payload's index); a paired
/// opening tag that the output walk saw closed while an inner tag of its slot was open.
const FLAG: u32 = 1 << 28;
const PAYLOAD: u32 = FLAG - 1;
/// No mark (a tag with no partner, the end of a list of openers).
pub(super) const NONE: u32 = u32::MAX;

/// What a [`Mark`] is ([`Mark::kind`]); each kind's fields are read by the methods of
/// [`Mark`] named for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A `*`, `_` or `~~` run of [`Mark::len`] units and the pairs it takes part in
    /// ([`Marks::events`]; I4, I5).
    Delim,
    /// An I3 tag of [`Mark::tag_len`] units, [`Mark::tag`], opening or [`Mark::closing`],
    /// with its [`Mark::partner`] if paired (whether the walk marked a paired opener closed
    /// is [`Marks::ended`]).
    Tag,
    /// A backslash that escapes the next character (I2): it goes.
    Escape,
    /// [`Mark::len`] units that go: a line prefix (P1–P3) or a blank line's spaces (2.3).
    Remove,
    /// A paragraph line with line codes (P4) starts here: its first [`Mark::prefix`] units
    /// go, its content ends at [`Mark::line_end`] (before its line break, 1.3); its codes
    /// are the next entry of [`Marks::line_codes`].
    Line,
}

impl Mark {
    /// Its kind, from its top bits in one step (the walk's one dispatch per mark).
    #[inline(always)]
    pub(super) fn kind(self) -> Kind {
        match self.info & KIND {
            DELIM => Kind::Delim,
            TAG => Kind::Tag,
            ESCAPE => Kind::Escape,
            REMOVE => Kind::Remove,
            _ => Kind::Line,
        }
    }

    /// A delimiter run's or a removal's length.
    #[inline(always)]
    pub(super) fn len(self) -> usize {
        self.arg as usize
    }

    /// A tag's length (a tag is at most a few units long).
    #[inline(always)]
    pub(super) fn tag_len(self) -> usize {
        (self.info & 0xff) as usize
    }

    /// A tag's tag.
    #[inline(always)]
    pub(super) fn tag(self) -> Tag {
        Tag::ALL
            .get((self.info >> 8 & 0xff) as usize)
            .copied()
            .unwrap_or(Tag::ALL[0])
    }

    /// Whether a tag closes.
    #[inline(always)]
    pub(super) fn closing(self) -> bool {
        self.info & 1 << 16 != 0
    }

    /// A tag's partner, if it is paired.
    #[inline(always)]
    pub(super) fn partner(self) -> Option<u32> {
        Some(self.arg).filter(|&p| p != NONE)
    }

    /// A line's prefix length.
    #[inline(always)]
    pub(super) fn prefix(self) -> usize {
        (self.info & PAYLOAD) as usize
    }

    /// Where a line's content ends.
    #[inline(always)]
    pub(super) fn line_end(self) -> usize {
        self.arg as usize
    }
}

/// The marks of a message in source order, plus side tables.
#[derive(Debug, Default)]
pub(super) struct Marks {
    list: Vec<Mark>,
    /// Event counts too wide to pack.
    wide: Vec<Events>,
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

    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.wide.clear();
        self.codes.clear();
        self.pairs = 0;
    }

    pub(super) fn shrink_to(&mut self, n: usize) {
        self.list.shrink_to(n);
        self.wide.shrink_to(n);
        self.codes.shrink_to(n);
    }

    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// How many runs to reserve for a message of `units` units. A run begins where the
    /// codes change, at either end of a pair or of a line with codes, so twice those (and
    /// one) is a true bound: a pair inside another splits the outer one's run in two. A
    /// chat-sized message reserves it and its walk never reallocates; a longer one
    /// reserves one per pair and line (its vector may then grow), since twice that would
    /// double its peak memory where pairs do not nest.
    pub(super) fn runs_bound(&self, units: usize) -> usize {
        let n = self.pairs + self.codes.len();
        let bound = if units <= CHAT_SIZE { 2 * n } else { n };
        (bound + 1).min(units)
    }

    #[inline]
    fn push(&mut self, at: usize, arg: u32, info: u32) -> u32 {
        self.list.push(Mark {
            at: sat32(at),
            arg,
            info,
        });
        sat32(self.list.len() - 1)
    }

    /// A delimiter run of `len` units at `at`, with no pairs yet.
    pub(super) fn push_delim(&mut self, at: usize, len: usize) -> u32 {
        self.push(at, sat32(len), DELIM)
    }

    pub(super) fn push_escape(&mut self, at: usize) {
        self.push(at, 0, ESCAPE);
    }

    /// `len` units at `at` that go.
    pub(super) fn push_remove(&mut self, at: usize, len: usize) {
        self.push(at, sat32(len), REMOVE);
    }

    /// A line with `codes` at `at`, whose first `prefix` units go; its end is set by
    /// [`Marks::end_line`]. One mark per line: a list of short lines stays small.
    pub(super) fn push_line(&mut self, at: usize, prefix: usize, codes: StyleSet) -> u32 {
        let (at, prefix) = if prefix > PAYLOAD as usize {
            // a prefix too long for the payload (hundreds of millions of spaces) goes by a
            // mark of its own
            self.push_remove(at, prefix);
            (at + prefix, 0)
        } else {
            (at, prefix)
        };
        self.codes.push(codes);
        self.push(at, sat32(at), LINE | (prefix as u32 & PAYLOAD))
    }

    /// Sets where the content of line mark `k` ends.
    pub(super) fn end_line(&mut self, k: u32, end: usize) {
        if let Some(m) = self.list.get_mut(k as usize) {
            m.arg = sat32(end);
        }
    }

    /// The codes of the `k`-th line mark.
    pub(super) fn line_codes(&self, k: usize) -> StyleSet {
        self.codes.get(k).copied().unwrap_or_default()
    }

    /// An unpaired tag of `len` units at `at`; `prev` is what its `arg` holds (the previous
    /// opener of its kind, for an opener; [`NONE`] for a closer). The payload holds the
    /// length (a tag is at most a few units long), the tag and whether it closes.
    pub(super) fn push_tag(
        &mut self,
        at: usize,
        len: usize,
        tag: Tag,
        closing: bool,
        prev: u32,
    ) -> u32 {
        let info = (len.min(0xff) as u32) | (tag.index() as u32) << 8 | u32::from(closing) << 16;
        self.push(at, prev, TAG | (info & PAYLOAD))
    }

    /// The `arg` of tag `k`: while it is an unpaired opener, the previous opener of its kind.
    pub(super) fn tag_link(&self, k: u32) -> u32 {
        self.list.get(k as usize).map_or(NONE, |m| m.arg)
    }

    /// Sets the `arg` of tag `k` to `v` (its partner, or [`NONE`]).
    pub(super) fn set_tag_link(&mut self, k: u32, v: u32) {
        if let Some(m) = self.list.get_mut(k as usize) {
            m.arg = v;
        }
    }

    /// Pairs tags `a` and `b` (I3).
    pub(super) fn pair(&mut self, a: u32, b: u32) {
        self.set_tag_link(a, b);
        self.set_tag_link(b, a);
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
    #[inline(always)]
    pub(super) fn mark(&self, k: usize) -> Option<Mark> {
        self.list.get(k).copied()
    }

    /// The pairs delimiter run `m` takes part in.
    #[inline(always)]
    pub(super) fn events(&self, m: Mark) -> Events {
        let payload = m.info & PAYLOAD;
        if m.info & FLAG != 0 {
            self.wide.get(payload as usize).copied().unwrap_or_default()
        } else {
            Events::unpack(payload)
        }
    }

    /// Whether mark `k` is an opening tag the output walk marked closed ([`Marks::end_tag`]).
    pub(super) fn ended(&self, k: u32) -> bool {
        self.list
            .get(k as usize)
            .is_some_and(|m| m.info & (KIND | FLAG) == TAG | FLAG)
    }

    /// Records the closes of delimiter run `k`, which has no events yet (the matcher, I4).
    pub(super) fn set_closes(&mut self, k: u32, e: Events) {
        self.pairs += (e.close_two + e.close_one) as usize;
        let wide_len = sat32(self.wide.len());
        let Some(m) = self.list.get_mut(k as usize) else {
            return;
        };
        if e.fits() {
            m.info = DELIM | e.pack();
        } else {
            m.info = DELIM | FLAG | (wide_len & PAYLOAD);
            self.wide.push(e);
        }
    }

    /// Adds one to the opens of delimiter run `k`, by two delimiters or by one (the
    /// matcher, I4).
    #[inline]
    pub(super) fn add_open(&mut self, k: u32, two: bool) {
        let Some(m) = self.list.get_mut(k as usize) else {
            return;
        };
        // the common case: a packed count with room, incremented in place
        let shift = if two { OPEN_TWO_AT } else { OPEN_ONE_AT };
        if m.info & FLAG == 0 && (m.info >> shift) & FIELD < FIELD {
            m.info += 1 << shift;
            return;
        }
        self.add_open_wide(k, two);
    }

    /// [`Marks::add_open`] past the packed count's width, or into the side table.
    #[inline(never)]
    fn add_open_wide(&mut self, k: u32, two: bool) {
        let Some(&m) = self.list.get(k as usize) else {
            return;
        };
        let mut e = if m.info & FLAG != 0 {
            self.wide
                .get((m.info & PAYLOAD) as usize)
                .copied()
                .unwrap_or_default()
        } else {
            Events::unpack(m.info & PAYLOAD)
        };
        if two {
            e.open_two = e.open_two.saturating_add(1);
        } else {
            e.open_one = e.open_one.saturating_add(1);
        }
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

const _: () = assert!(core::mem::size_of::<Mark>() == 12);
