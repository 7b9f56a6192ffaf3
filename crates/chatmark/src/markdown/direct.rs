//! The one pass proper of markdown mode: the scan ([`super::scan`]) writes the text and
//! runs as it reads each construct (P1–P4, I1–I5), with no marks and no second walk. What
//! the scan cannot know yet is guessed as what a chat message almost always holds: that
//! every opening tag finds its closer in its region (I3), and that every delimiter run left
//! waiting on the emphasis stack is used up whole, by pairs of two and at most one of one
//! (I4, I5: `**a**`, `***a***`, `***a* b**`). Two sums and the regions' ends check the
//! guess when the message ends; a message for which it was wrong (`*a`, `**a*`, an unclosed
//! `{red}`) is parsed again by the scan into marks and the walk ([`super::emit`]), so the
//! result is the same either way. Its UTF-16 lengths come from the scan's count of the
//! excess of the UTF-8 it passes ([`crate::text::utf16`], "Lengths by excess").

use super::emit::{unpaired, Emit, Ends, Output};
use super::emphasis::{DelimRun, Outcome, Pairs};
use super::marks::NONE;
use super::sink::{Line, Sink, TagToken};
use crate::builder::RunBuilder;
use crate::diagnostics::Note;
use crate::sort::sat32;
use crate::text::source::TypedSource;
use crate::vocab::style::INLINE_SLOTS;

/// An opening tag that the writer saw closed under an inner tag of its slot.
const ENDED: u32 = NONE - 1;

/// Per opening tag read in the message (by id, in order), the opener of its tag and
/// spelling before it while it is unpaired ([`NONE`] if none, [`Sink::open_tag`]), then
/// [`ENDED`] once the writer saw it closed under an inner tag of its slot.
pub(super) struct Openers<'w>(pub &'w mut Vec<u32>);

impl Ends for Openers<'_> {
    #[inline]
    fn ended(&self, k: u32) -> bool {
        self.0.get(k as usize) == Some(&ENDED)
    }

    #[inline]
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
    /// Whether an opening tag was left unpaired (the guess was wrong).
    unpaired: bool,
}

impl<'a, 'w, T: TypedSource<'a>, O: Output> Direct<'w, T, O> {
    /// The sink of a message's one pass, writing into `out` and `runs`.
    #[inline]
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
            unpaired: false,
        }
    }

    /// Ends the message: its last text is written. Returns the diagnostics, or `None` if
    /// the guess was wrong (what was written must then be thrown away).
    #[inline]
    pub(super) fn finish(&mut self) -> Option<Vec<Note>> {
        let right =
            !self.unpaired && self.opened == self.guessed && self.opened_ones == self.guessed_ones;
        if !right {
            return None;
        }
        self.emit.finish(self.src.units().len());
        Some(core::mem::take(&mut self.notes))
    }
}

impl<'a, T: TypedSource<'a>, O: Output> Pairs for Direct<'_, T, O> {
    /// The writer needs no ids for delimiter runs: every one is 0.
    #[inline]
    fn next_run(&self) -> u32 {
        0
    }

    #[inline]
    fn opens(&mut self, _: u32, two: bool) {
        self.opened += if two { 2 } else { 1 };
        self.opened_ones += usize::from(!two);
    }
}

impl<'a, T: TypedSource<'a>, O: Output> Sink for Direct<'_, T, O> {
    #[inline]
    fn remove(&mut self, at: usize, len: usize) {
        self.emit.remove(at, len);
    }

    #[inline]
    fn line(&mut self, line: Line) {
        self.emit.line(line.at, line.prefix, line.codes);
    }

    #[inline(always)]
    fn line_end(&mut self, end: usize) {
        self.emit.line_end(self.src.units(), end);
    }

    /// Guessed to pair (checked as the region ends, [`Sink::unpaired_open`]).
    #[inline]
    fn open_tag(&mut self, t: TagToken, before: u32) -> u32 {
        let me = sat32(self.openers.0.len());
        self.openers.0.push(before);
        self.emit.open_tag(t.at, t.len, t.tag.index(), me);
        me
    }

    #[inline]
    fn before(&self, id: u32) -> u32 {
        self.openers.0.get(id as usize).copied().unwrap_or(NONE)
    }

    #[inline]
    fn close_tag(&mut self, t: TagToken, opener: u32) {
        self.emit
            .close_tag(t.at, t.len, t.tag.index(), opener, &mut self.openers);
    }

    #[inline]
    fn stray_close(&mut self, t: TagToken) {
        if self.emit.want_notes {
            unpaired(self.src, t.at, t.len, true, &mut self.notes);
        }
    }

    /// The guess was wrong.
    fn unpaired_open(&mut self, _: u32) {
        self.unpaired = true;
    }

    /// Written at once: the pairs the run closes end, and those it leaves waiting are
    /// guessed to be used up whole, by pairs of two and at most one pair of one (a `~~`
    /// run is one pair).
    #[inline]
    fn delimiter(&mut self, run: DelimRun, o: Outcome) {
        let DelimRun { at, len, ch, .. } = run;
        self.emit
            .close_delim(at, ch, o.closes.close_two, o.closes.close_one);
        let waits = o.waits;
        if waits > 0 {
            let (two, one) = (waits / 2, waits % 2);
            self.guessed += waits;
            self.guessed_ones += one;
            self.emit.open_delim(at, len, ch, sat32(two), sat32(one));
        }
    }

    #[inline]
    fn excess(&mut self) -> Option<&mut usize> {
        Some(self.emit.excess_mut())
    }
}
