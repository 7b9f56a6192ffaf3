//! The writer of markdown mode: one action per construct, called in source order by the one
//! pass ([`super::direct`]) or by the walk over the marks the scan left ([`super::marks`]).
//! It copies the message's own text between the units that go (prefixes, blank lines'
//! spaces, escapes' backslashes, matched delimiters, paired tags) in the source's encoding,
//! and gives the run builder one span per change of style: the inline codes of the
//! delimiter pairs and of the innermost open tag of each slot (1.3, I3–I5) plus the line
//! codes on a line's content (P4), measured in UTF-16 units (C5). Unpaired tags are text,
//! with a diagnostic when asked for (L3).

use super::marks::{Kind, Marks, NONE};
use crate::builder::RunBuilder;
use crate::diagnostics::msg::msg;
use crate::diagnostics::{Note, Span};
use crate::text::source::TypedSource;
use crate::text::unit::Unit;
#[cfg(not(target_arch = "wasm32"))]
use crate::text::utf16::utf16_len_of_tail;
use crate::vocab::style::{Overlay, INLINE_SLOTS};
use crate::vocab::Tag;
use crate::{DiagnosticCode, StyleCode, StyleSet};

/// The text being written, in the source's encoding.
pub(super) trait Output {
    /// Appends the source's units `from..to`.
    fn push(&mut self, from: usize, to: usize);
    /// Appends the source's units from `from` to its end (the last piece of a message, for
    /// which no window of [`Utf8Out::push`] would fit).
    fn push_rest(&mut self, from: usize);
    /// Units written so far, in the text's encoding.
    fn len(&self) -> usize;
    /// UTF-16 units of the text written since it was `from` units long.
    fn utf16_since(&self, from: usize) -> usize;
    /// Whether the text ends with `\r`.
    fn ends_with_cr(&self) -> bool;
    /// Empties the text.
    #[cfg(not(target_arch = "wasm32"))]
    fn clear(&mut self);
}

/// UTF-8 text copied from a `&str` (natively: the npm package reads UTF-8 through the
/// UTF-16 parser).
#[cfg(not(target_arch = "wasm32"))]
pub(super) struct Utf8Out<'a, 'o> {
    pub src: &'a str,
    pub text: &'o mut String,
}

/// A short piece of text is copied as the whole window of [`WINDOW`] (or twice as many)
/// bytes from its start, and the bytes past it are cut off again ([`cut_back`]): a
/// move of a length known at build time, where a copy of the piece's own length calls
/// `memcpy`. Most pieces are short: the words between markup. The text's capacity, the
/// source's length, always holds the window: the text only drops bytes of the source, so
/// it is never longer than the position it reads from.
#[cfg(not(target_arch = "wasm32"))]
const WINDOW: usize = 16;

/// Cuts `text` back to `end` bytes, where a piece copied through a window ends. It cannot
/// panic: the cut is made only at a character boundary, which `end` always is (a piece is
/// whole characters: it ends where markup, which is ASCII, or the message begins), checked
/// first (debug builds, the tests and the fuzzers, also assert it).
#[cfg(not(target_arch = "wasm32"))]
#[inline]
fn cut_back(text: &mut String, end: usize) {
    let whole = text.is_char_boundary(end);
    debug_assert!(whole, "a piece copied through a window cut a character");
    if whole {
        #[allow(clippy::disallowed_methods)] // a character boundary: checked above
        text.truncate(end);
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Output for Utf8Out<'_, '_> {
    #[inline(always)]
    fn push(&mut self, from: usize, to: usize) {
        if to > from {
            let len = to - from;
            if len <= WINDOW {
                if let Some(window) = self.src.get(from..from + WINDOW) {
                    let end = self.text.len() + len;
                    self.text.push_str(window);
                    cut_back(self.text, end);
                    return;
                }
            } else if len <= 2 * WINDOW {
                if let Some(window) = self.src.get(from..from + 2 * WINDOW) {
                    let end = self.text.len() + len;
                    self.text.push_str(window);
                    cut_back(self.text, end);
                    return;
                }
            }
            self.text
                .push_str(self.src.get(from..to).unwrap_or_default());
        }
    }

    #[inline]
    fn push_rest(&mut self, from: usize) {
        self.text.push_str(self.src.get(from..).unwrap_or_default());
    }

    #[inline]
    fn len(&self) -> usize {
        self.text.len()
    }

    #[inline]
    fn utf16_since(&self, from: usize) -> usize {
        utf16_len_of_tail(self.text.as_bytes(), from)
    }

    #[inline]
    fn ends_with_cr(&self) -> bool {
        self.text.as_bytes().last() == Some(&b'\r')
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn clear(&mut self) {
        self.text.clear();
    }
}

/// UTF-16 text copied from UTF-16 units.
pub(super) struct Utf16Out<'a, 'o> {
    pub src: &'a [u16],
    pub text: &'o mut Vec<u16>,
}

impl Output for Utf16Out<'_, '_> {
    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        if to > from {
            self.text
                .extend_from_slice(self.src.get(from..to).unwrap_or_default());
        }
    }

    #[inline]
    fn push_rest(&mut self, from: usize) {
        self.text
            .extend_from_slice(self.src.get(from..).unwrap_or_default());
    }

    #[inline]
    fn len(&self) -> usize {
        self.text.len()
    }

    #[inline]
    fn utf16_since(&self, from: usize) -> usize {
        self.text.len().saturating_sub(from)
    }

    #[inline]
    fn ends_with_cr(&self) -> bool {
        self.text.last() == Some(&0x0d)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn clear(&mut self) {
        self.text.clear();
    }
}

/// Per tag (I3), by index: the inline slot of its code, that slot's bits in a set
/// ([`StyleSet::inline_slot_bits`]) and the code's ([`StyleSet::inline_bits`]), so that
/// the walk updates the open tags' codes with two word operations.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static TAG_SLOTS: [(u8, u32, u32); Tag::COUNT] = {
    let mut t = [(0, 0, 0); Tag::COUNT];
    let mut k = 0;
    while k < Tag::COUNT {
        let code = Tag::ALL[k].code();
        let slot = code.slot();
        assert!(slot < INLINE_SLOTS, "a tag's code is an inline code");
        t[k] = (
            slot as u8,
            StyleSet::inline_slot_bits(slot),
            StyleSet::of(code).inline_bits(),
        );
        k += 1;
    }
    t
};

/// Where the opening tags the writer sees closed under an inner tag of their slot are
/// kept: in the marks for the walk ([`Marks`]), in the one pass's own list otherwise.
pub(super) trait Ends {
    /// Whether opening tag `k` was seen closed ([`Ends::end_tag`]).
    fn ended(&self, k: u32) -> bool;
    /// Opening tag `k` closed while an inner tag of its slot is open: it leaves its slot's
    /// stack when it reaches the top.
    fn end_tag(&mut self, k: u32);
}

impl Ends for Marks {
    #[inline]
    fn ended(&self, k: u32) -> bool {
        Marks::ended(self, k)
    }

    #[inline]
    fn end_tag(&mut self, k: u32) {
        Marks::end_tag(self, k);
    }
}

/// The writer of a message's text and runs: one action per construct, called in source
/// order, by the walk over the marks ([`Emit::walk`]) or as the one pass reads them
/// ([`super::direct`]). It copies the source's text between the units that go and gives
/// the run builder one span per change of style. In the one pass (`ONE_PASS`), it knows the
/// UTF-16 lengths of its text by the excess the scan counts ([`crate::text::utf16`], "Lengths by
/// excess"); in the walk, it counts what it copies.
pub(super) struct Emit<'w, O, const ONE_PASS: bool> {
    pub out: O,
    pub runs: &'w mut RunBuilder,
    /// Open matched tags (id, [`StyleSet::inline_bits`] of the code), per inline slot,
    /// by opening order, below the innermost open one (in [`State::tops`], whose code
    /// wins, 1.3): a slot holding one tag at a time never touches its vector.
    pub slots: &'w mut [Vec<(u32, u32)>; INLINE_SLOTS],
    pub want_notes: bool,
    st: State,
}

/// Where the writer is.
struct State {
    /// The first unit of the source not yet copied.
    kept: usize,
    /// The text's length when the last span was given to the run builder (in UTF-16 units
    /// in the one pass, in its own units otherwise).
    seg: usize,
    /// The excess of the source up to the scan (in the one pass).
    excess: usize,
    /// Open delimiter pairs per flag slot (`b i u s`).
    counts: [usize; 4],
    /// The codes of the delimiter pairs and of the innermost open tag of each slot; the
    /// inline codes in force (both), and the current line's codes as laid over them (none
    /// outside the content of a line with codes).
    pairs: StyleSet,
    tags: StyleSet,
    inline: StyleSet,
    codes: Overlay,
    /// The inline codes with the line's (the style of the text being written).
    style: StyleSet,
    /// The inline codes of the last text given a span.
    last_inline: StyleSet,
    /// The UTF-16 position where the content of the last line with codes began.
    line_start: usize,
    /// Per inline slot, its innermost open matched tag (id, [`StyleSet::inline_bits`] of
    /// the code), [`NONE`] if none; the ones it hides are in [`Emit::slots`].
    tops: [(u32, u32); INLINE_SLOTS],
}

impl<'w, O: Output, const ONE_PASS: bool> Emit<'w, O, ONE_PASS> {
    /// A writer at the start of a message.
    #[inline]
    pub(super) fn new(
        out: O,
        runs: &'w mut RunBuilder,
        slots: &'w mut [Vec<(u32, u32)>; INLINE_SLOTS],
        want_notes: bool,
    ) -> Self {
        Emit {
            out,
            runs,
            slots,
            want_notes,
            st: State {
                kept: 0,
                seg: 0,
                excess: 0,
                counts: [0; 4],
                pairs: StyleSet::EMPTY,
                tags: StyleSet::EMPTY,
                inline: StyleSet::EMPTY,
                codes: Overlay::NONE,
                style: StyleSet::EMPTY,
                last_inline: StyleSet::EMPTY,
                line_start: 0,
                tops: [(NONE, 0); INLINE_SLOTS],
            },
        }
    }

    /// The excess that the scan counts (in the one pass).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline]
    pub(super) fn excess_mut(&mut self) -> &mut usize {
        &mut self.st.excess
    }

    /// Walks the marks over `src`, writing its text and runs; returns the diagnostics.
    pub(super) fn walk<'a, T: TypedSource<'a>>(mut self, src: T, marks: &mut Marks) -> Vec<Note> {
        let s = src.units();
        let mut notes = Vec::new();
        let mut k = 0;
        // the next line mark's index among line marks
        let mut line = 0;
        while let Some(m) = marks.mark(k) {
            let at = m.at as usize;
            match m.kind() {
                Kind::Remove => self.remove(at, m.len()),
                Kind::Line => {
                    self.line(at, m.prefix(), marks.line_codes(line).overlay());
                    line += 1;
                }
                Kind::LineEnd => self.line_end(s, at),
                Kind::Delim => {
                    let (len, e) = marks.delim(m);
                    let ch = s.get(at).map_or(0, |c| c.byte());
                    self.close_delim(at, ch, e.close_two, e.close_one);
                    self.open_delim(at, len, ch, e.open_two, e.open_one);
                }
                Kind::Tag => {
                    let (len, closing) = (m.tag_len(), m.closing());
                    let me = u32::try_from(k).unwrap_or(u32::MAX);
                    let partner = marks.partner(k);
                    // (the tag's second entry, its partner, is read)
                    k += 1;
                    match partner {
                        Some(p) if closing => self.close_tag(at, len, m.tag_index(), p, marks),
                        Some(_) => self.open_tag(at, len, m.tag_index(), me),
                        None if self.want_notes => unpaired(src, at, len, closing, &mut notes),
                        None => {}
                    }
                }
            }
            k += 1;
        }
        self.finish(s.len());
        notes
    }

    /// `len` units at `at` go: a line prefix (P1–P3), a blank line's spaces (2.3), an
    /// escaping backslash (I2; the character it escapes is text).
    #[inline(always)]
    pub(super) fn remove(&mut self, at: usize, len: usize) {
        self.out.push(self.st.kept, at);
        self.st.kept = at + len;
    }

    /// A paragraph line with `codes` (P4) begins at `at`: its first `prefix` units go, and
    /// its codes apply from its content on.
    #[inline(always)]
    pub(super) fn line(&mut self, at: usize, prefix: usize, codes: Overlay) {
        self.remove(at, prefix);
        self.flush(at + prefix);
        let st = &mut self.st;
        st.codes = codes;
        st.style = st.inline.under(st.codes);
        st.line_start = self.runs.position();
    }

    /// The content of the line with codes ends at `at` (before its line break).
    // Once per line with codes: inline, its flush shares the caller's registers.
    #[inline(always)]
    pub(super) fn line_end<U: Unit>(&mut self, s: &[U], at: usize) {
        self.flush(at);
        // a `\r` left right before the `\n` by markup that vanished is a line break: it
        // keeps only its inline codes (1.3)
        // (the rarest condition first: a `\r` at the text's end)
        if self.out.ends_with_cr()
            && s.get(at).is_some_and(|c| c.byte() == b'\n')
            && self.runs.position() > self.st.line_start
        {
            self.runs.restyle_last(self.st.last_inline);
        }
        self.st.codes = Overlay::NONE;
        self.st.style = self.st.inline;
    }

    /// The delimiter run `ch` at `at` closes `two` pairs of two delimiters and `one` of one
    /// (I4, I5), its first delimiters: they go, and the pairs' codes end.
    #[inline(always)]
    pub(super) fn close_delim(&mut self, at: usize, ch: u8, two: u32, one: u32) {
        let used = (2 * two + one) as usize;
        if used > 0 {
            self.flush(at);
            add_pairs(&mut self.st, ch, two, one, false);
            restyle(&mut self.st);
            self.st.kept = at + used;
        }
    }

    /// The delimiter run `ch` of `len` units at `at` opens `two` pairs of two delimiters
    /// and `one` of one, its last delimiters (`[closing | literal | opening]`).
    #[inline(always)]
    pub(super) fn open_delim(&mut self, at: usize, len: usize, ch: u8, two: u32, one: u32) {
        let used = (2 * two + one) as usize;
        if used > 0 {
            self.flush(at + len - used.min(len));
            add_pairs(&mut self.st, ch, two, one, true);
            restyle(&mut self.st);
            self.st.kept = at + len;
        }
    }

    /// The paired opening tag `me` ([`Tag::index`] `tag`, `len` units at `at`) opens: it
    /// goes, and its code shows in its slot until an inner one opens (I3, 1.3).
    #[inline]
    pub(super) fn open_tag(&mut self, at: usize, len: usize, tag: usize, me: u32) {
        self.flush(at);
        self.st.kept = at + len;
        let (slot, lane, bits) = tag_slot(tag);
        if let (Some(top), Some(below)) = (self.st.tops.get_mut(slot), self.slots.get_mut(slot)) {
            let before = top.1;
            if top.0 != NONE {
                below.push(*top);
            }
            *top = (me, bits);
            if before != bits {
                self.st.tags = self.st.tags.with_slot_bits(lane, bits);
                restyle(&mut self.st);
            }
        }
    }

    /// The closing tag at `at` of opening tag `p` closes (I3): it goes, and the innermost
    /// open tag of its slot shows (tags need not nest).
    #[inline]
    pub(super) fn close_tag<E: Ends>(
        &mut self,
        at: usize,
        len: usize,
        tag: usize,
        p: u32,
        ends: &mut E,
    ) {
        self.flush(at);
        self.st.kept = at + len;
        let (slot, lane, _) = tag_slot(tag);
        if let (Some(top), Some(below)) = (self.st.tops.get_mut(slot), self.slots.get_mut(slot)) {
            let before = top.1;
            if top.0 == p {
                // the common case, the innermost open tag of its slot closes: popped
                // without a mark, then any opener below it that closed earlier
                *top = below.pop().unwrap_or((NONE, 0));
                while top.0 != NONE && ends.ended(top.0) {
                    *top = below.pop().unwrap_or((NONE, 0));
                }
            } else {
                // an inner tag is still open: the opener is marked closed, and leaves its
                // stack when it reaches the top
                ends.end_tag(p);
            }
            // the slot's innermost open tag is the one whose code shows
            if before != top.1 {
                self.st.tags = self.st.tags.with_slot_bits(lane, top.1);
                restyle(&mut self.st);
            }
        }
    }

    /// The message ends at `end`, the source's end: the text left is copied.
    #[inline(always)]
    pub(super) fn finish(&mut self, end: usize) {
        if self.st.style.is_empty() {
            // unstyled to the end: no span follows, so its length is not counted
            self.out.push_rest(self.st.kept);
        } else {
            self.flush(end);
        }
    }

    /// Copies the text up to `at` and gives what was written since the last span one span
    /// with the style in force.
    #[inline(always)]
    fn flush(&mut self, at: usize) {
        let st = &mut self.st;
        self.out.push(st.kept, at);
        st.kept = at;
        let (units, seg) = if ONE_PASS {
            // wrapping, not saturating: the text holds every byte the excess counts (the
            // writer drops only ASCII), and its UTF-16 length only grows, so neither
            // difference can go below zero
            let now = self.out.len().wrapping_sub(st.excess);
            // the scan's count against the text's own, in debug builds (tests, fuzzing) and
            // for texts up to 64 KiB (each check reads the whole text)
            debug_assert!(
                self.out.len() > 1 << 16 || now == self.out.utf16_since(0),
                "the scan's excess count drifted from the text's UTF-16 length"
            );
            (now.wrapping_sub(st.seg), now)
        } else {
            (self.out.utf16_since(st.seg), self.out.len())
        };
        st.seg = seg;
        if units > 0 {
            self.runs.advance(units, st.style);
            st.last_inline = st.inline;
        }
    }
}

/// Opens (`up`) or closes the pairs of delimiter run `ch`: `two` of two delimiters and
/// `one` of one (`b` and `i`; a `~~` run's one pair is `s`, I4, I5).
#[inline]
fn add_pairs(st: &mut State, ch: u8, two: u32, one: u32, up: bool) {
    if ch == b'~' {
        add(st, StyleCode::Strike, two + one, up);
    } else {
        add(st, StyleCode::Bold, two, up);
        add(st, StyleCode::Italic, one, up);
    }
}

/// A tag's slot, that slot's bits and its code's ([`TAG_SLOTS`]; no slot for an index
/// out of range).
#[inline]
fn tag_slot(tag: usize) -> (usize, u32, u32) {
    TAG_SLOTS
        .get(tag)
        .map_or((usize::MAX, 0, 0), |&(s, l, b)| (usize::from(s), l, b))
}

/// The inline codes: the delimiter pairs' and the open tags' (tags need not nest, I3).
#[inline]
fn restyle(st: &mut State) {
    st.inline = st.tags.with_flags_of(st.pairs);
    st.style = st.inline.under(st.codes);
}

/// Opens (`up`) or closes `n` delimiter pairs of `code` (I4, I5).
#[inline]
fn add(st: &mut State, code: StyleCode, n: u32, up: bool) {
    if n == 0 {
        return;
    }
    if let Some(c) = st.counts.get_mut(code.slot()) {
        // pairs close only once opened (the matcher pairs each closer with an opener), so
        // a count never goes below zero, nor past the message's length
        *c = if up {
            c.wrapping_add(n as usize)
        } else {
            c.wrapping_sub(n as usize)
        };
        if *c > 0 {
            st.pairs.insert(code);
        } else {
            st.pairs.remove(code);
        }
    }
}

/// L3: an unmatched tag is kept as text, and said so.
#[cold]
#[inline(never)]
pub(super) fn unpaired<'a, T: TypedSource<'a>>(
    src: T,
    at: usize,
    len: usize,
    closing: bool,
    notes: &mut Vec<Note>,
) {
    if notes.len() >= crate::diagnostics::MAX_DIAGNOSTICS {
        return;
    }
    let text = src.source().text(at, at + len);
    let (code, message) = if closing {
        let m = msg!("closing tag ", &*text, " has no opening tag; kept as text");
        (DiagnosticCode::UnmatchedClosingTag, m)
    } else {
        let m = msg!("tag ", &*text, " is never closed; kept as text");
        (DiagnosticCode::UnclosedTag, m)
    };
    notes.push(Note {
        span: Span::new(at, at + len),
        code,
        message,
    });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{Output, Utf8Out, WINDOW};
    use crate::rng::Rng;

    /// The windowed copy writes exactly the pieces asked for: random texts of one- to
    /// four-byte characters, cut into pieces of every length around the windows' (so that
    /// windows end inside a character, past the source's end, or on its last byte), with
    /// gaps between them as the dropped markup leaves.
    #[test]
    fn pieces_copied_through_windows_are_the_source_pieces_c5() {
        let mut rng = Rng(0x5eed_c0de);
        for _ in 0..2_000 {
            let src = rng.text(90, &["a", " ", "*", "é", "€", "😀"], &["\r\n"], 8);
            let bounds: Vec<usize> = (0..=src.len())
                .filter(|&k| src.is_char_boundary(k))
                .collect();
            let (mut text, mut want) = (String::with_capacity(src.len()), String::new());
            let mut out = Utf8Out {
                src: &src,
                text: &mut text,
            };
            let mut k = 0;
            while k + 1 < bounds.len() {
                // a gap (markup that goes), then a piece of up to three windows' length
                let from = bounds[(k + rng.below(2)).min(bounds.len() - 1)];
                let longest = from + rng.below(3 * WINDOW + 2);
                let to = bounds
                    .iter()
                    .copied()
                    .filter(|&b| b <= longest)
                    .max()
                    .unwrap_or(from)
                    .max(from);
                out.push(from, to);
                want.push_str(&src[from..to]);
                k = bounds.iter().position(|&b| b == to).unwrap_or(bounds.len()) + 1;
            }
            assert_eq!(out.len(), want.len());
            assert_eq!(text, want, "source {src:?}");
        }
    }
}
