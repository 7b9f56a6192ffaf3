//! The one pass proper of markdown mode: the scan ([`super::scan`]) writes the text and
//! runs as it reads each construct (P1–P4, I1–I5), with no marks and no second walk. What
//! the scan cannot know yet is guessed as what a chat message almost always holds: that
//! every opening tag finds its closer in its region (I3), and that every delimiter run left
//! waiting on the emphasis stack is used up whole, by pairs of two and at most one of one
//! (I4, I5: `**a**`, `***a***`, `***a* b**`). Two sums and the regions' ends check the
//! guess when the message ends; a message for which it was wrong (`*a`, `**a*`, an unclosed
//! `{red}`) is parsed again by the scan into marks and the walk ([`super::emit`]), so the
//! result is the same either way.

use super::emit::{unpaired, Emit, Ends, Output};
use super::emphasis::{Events, Outcome};
use super::marks::NONE;
use super::scan::{Heads, Sink, NO_HEADS};
use crate::builder::RunBuilder;
use crate::sort::sat32;
use crate::source::TypedSource;
use crate::style::{Overlay, INLINE_SLOTS};
use crate::utf16::Note;
use crate::vocab::{Spelling, Tag};

/// An opening tag that the writer saw closed under an inner tag of its slot.
const ENDED: u32 = NONE - 1;

/// Per opening tag read in the message (by id, in order), the previous unpaired opener of
/// its tag and spelling while it is unpaired ([`NONE`] if none), [`ENDED`] once the writer
/// saw it closed under an inner tag of its slot.
pub(super) struct Openers<'w>(pub &'w mut Vec<u32>);

impl Ends for Openers<'_> {
    #[inline(always)]
    fn ended(&self, k: u32) -> bool {
        self.0.get(k as usize) == Some(&ENDED)
    }

    #[inline(always)]
    fn end_tag(&mut self, k: u32) {
        if let Some(e) = self.0.get_mut(k as usize) {
            *e = ENDED;
        }
    }
}

/// The one pass's sink: the writer, and what checks its guess.
pub(super) struct Direct<'w, T, O> {
    pub src: T,
    pub emit: Emit<'w, O, true>,
    pub openers: Openers<'w>,
    pub notes: Vec<Note>,
    /// Delimiters guessed to open, and the runs left waiting with an odd count (each opens
    /// one pair of one); the delimiters the matcher saw open, and its pairs of one. Equal
    /// sums prove the guess run by run: a run opens at most the delimiters it left
    /// waiting, so equal totals mean each was used up, and a run used up opened at least
    /// one pair of one if its count was odd, so equal totals of those mean none opened
    /// more (`**` closed by `*` and `*` opens two, and is caught).
    guessed: usize,
    guessed_ones: usize,
    opened: usize,
    opened_ones: usize,
    /// Opening tags of the region not yet paired; whether one was left so at a region's
    /// end.
    open_tags: usize,
    unpaired_opener: bool,
}

impl<'a, 'w, T: TypedSource<'a>, O: Output> Direct<'w, T, O> {
    /// The sink of a message's one pass, writing into `out` and `runs`.
    #[inline(always)]
    pub(super) fn new(
        src: T,
        out: O,
        runs: &'w mut RunBuilder,
        slots: &'w mut [Vec<(u32, u32)>; INLINE_SLOTS],
        want_notes: bool,
        openers: &'w mut Vec<u32>,
    ) -> Self {
        Direct {
            src,
            emit: Emit::new(out, runs, slots, want_notes),
            openers: Openers(openers),
            notes: Vec::new(),
            guessed: 0,
            guessed_ones: 0,
            opened: 0,
            opened_ones: 0,
            open_tags: 0,
            unpaired_opener: false,
        }
    }

    /// Ends the message: its last text is written. Returns the diagnostics, or `None` if
    /// the guess was wrong (what was written must then be thrown away).
    #[inline(always)]
    pub(super) fn finish(&mut self) -> Option<Vec<Note>> {
        let right = !self.unpaired_opener
            && self.opened == self.guessed
            && self.opened_ones == self.guessed_ones;
        if !right {
            return None;
        }
        self.emit.finish(self.src.units().len());
        Some(core::mem::take(&mut self.notes))
    }
}

impl<'a, T: TypedSource<'a>, O: Output> Sink for Direct<'_, T, O> {
    #[inline(always)]
    fn remove(&mut self, at: usize, len: usize) {
        self.emit.remove(at, len);
    }

    #[inline(always)]
    fn escape(&mut self, at: usize) {
        self.emit.remove(at, 1);
    }

    #[inline(always)]
    fn line(&mut self, at: usize, prefix: usize, codes: Overlay) {
        self.emit.line(at, prefix, codes);
    }

    #[inline(always)]
    fn line_end(&mut self, end: usize) {
        self.emit.line_end(self.src.units(), end);
    }

    #[inline(always)]
    fn tag(
        &mut self,
        heads: &mut Heads,
        at: usize,
        len: usize,
        tag: Tag,
        spelling: Spelling,
        closing: bool,
    ) {
        let Some(head) = heads.get_mut(tag.index() * 2 + spelling.index()) else {
            return;
        };
        if !closing {
            // guessed to pair (checked at the region's end)
            let me = sat32(self.openers.0.len());
            self.openers.0.push(*head);
            *head = me;
            self.open_tags += 1;
            self.emit.open_tag(at, len, tag.index(), me);
        } else if *head != NONE {
            let p = *head;
            *head = self.openers.0.get(p as usize).copied().unwrap_or(NONE);
            // an opener was on its list, so at least one is counted open
            self.open_tags = self.open_tags.wrapping_sub(1);
            self.emit
                .close_tag(at, len, tag.index(), p, &mut self.openers);
        } else if self.emit.want_notes {
            unpaired(self.src, at, len, true, &mut self.notes);
        }
    }

    #[inline(always)]
    fn close_region(&mut self, heads: &mut Heads) {
        if self.open_tags > 0 {
            // the guess was wrong; the scan goes on with the next region's tags
            self.unpaired_opener = true;
            self.open_tags = 0;
            *heads = NO_HEADS;
        }
    }

    #[inline(always)]
    fn delim(&mut self, _: usize, _: usize, _: u8) -> u32 {
        0
    }

    // (what the run being read closes comes back from the matcher, to `delim_end`)
    #[inline(always)]
    fn set_closes(&mut self, _: u32, _: Events) {}

    #[inline(always)]
    fn set_close(&mut self, _: u32, _: bool) {}

    #[inline(always)]
    fn add_open(&mut self, _: u32, two: bool) {
        self.opened += if two { 2 } else { 1 };
        self.opened_ones += usize::from(!two);
    }

    #[inline(always)]
    fn excess(&mut self) -> Option<&mut usize> {
        Some(self.emit.excess_mut())
    }

    #[inline(always)]
    fn delim_end(&mut self, at: usize, len: usize, ch: u8, o: Outcome) {
        self.emit
            .close_delim(at, ch, o.closes.close_two, o.closes.close_one);
        let waits = o.waits;
        if waits > 0 {
            // guessed to be used up whole, by pairs of two and at most one pair of one (a
            // `~~` run is one pair)
            let (two, one) = (waits / 2, waits % 2);
            self.guessed += waits;
            self.guessed_ones += one;
            self.emit.open_delim(at, len, ch, sat32(two), sat32(one));
        }
    }
}
