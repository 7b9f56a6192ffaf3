//! The output walk of markdown mode: one walk over the marks the scan left
//! ([`super::marks`]), copying the message's own text between the units that go (prefixes,
//! blank lines' spaces, escapes' backslashes, matched delimiters, paired tags) in the
//! source's encoding, and giving the run builder one span per change of style: the inline
//! codes of the delimiter pairs and of the innermost open tag of each slot (1.3, I3–I5)
//! plus the line codes on a line's content (P4). Unpaired tags are text, with a diagnostic
//! when asked for (L3).

use super::marks::{Kind, Marks, NONE};
use crate::builder::RunBuilder;
use crate::msg::msg;
use crate::source::{TypedSource, Unit};
use crate::style::{Overlay, INLINE_SLOTS};
#[cfg(not(target_arch = "wasm32"))]
use crate::utf16::utf16_len_of_tail;
use crate::utf16::{Note, Span};
use crate::vocab::Tag;
use crate::{DiagnosticCode, StyleCode, StyleSet};

/// The text being written, in the source's encoding.
pub(super) trait Output {
    /// Appends the source's units `from..to`.
    fn push(&mut self, from: usize, to: usize);
    /// Units written so far, in the text's encoding.
    fn len(&self) -> usize;
    /// UTF-16 units of the text written since it was `from` units long.
    fn utf16_since(&self, from: usize) -> usize;
    /// Whether the text ends with `\r`.
    fn ends_with_cr(&self) -> bool;
}

/// UTF-8 text copied from a `&str` (natively: the npm package reads UTF-8 through the
/// UTF-16 parser).
#[cfg(not(target_arch = "wasm32"))]
pub(super) struct Utf8Out<'a, 'o> {
    pub src: &'a str,
    pub text: &'o mut String,
}

#[cfg(not(target_arch = "wasm32"))]
impl Output for Utf8Out<'_, '_> {
    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        if to > from {
            self.text
                .push_str(self.src.get(from..to).unwrap_or_default());
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.text.len()
    }

    #[inline(always)]
    fn utf16_since(&self, from: usize) -> usize {
        utf16_len_of_tail(self.text.as_bytes(), from)
    }

    fn ends_with_cr(&self) -> bool {
        self.text.as_bytes().last() == Some(&b'\r')
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
    fn len(&self) -> usize {
        self.text.len()
    }

    #[inline]
    fn utf16_since(&self, from: usize) -> usize {
        self.text.len().saturating_sub(from)
    }

    fn ends_with_cr(&self) -> bool {
        self.text.last() == Some(&0x0d)
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

/// The walk's state.
pub(super) struct Emit<'w, O> {
    pub out: O,
    pub runs: &'w mut RunBuilder,
    pub marks: &'w mut Marks,
    /// Open matched tags (mark, [`StyleSet::inline_bits`] of the code), per inline slot,
    /// by opening order, below the innermost open one (in the walk's state, whose code
    /// wins, 1.3): a slot holding one tag at a time never touches its vector.
    pub slots: &'w mut [Vec<(u32, u32)>; INLINE_SLOTS],
    pub want_notes: bool,
}

/// Where the walk is.
struct State {
    /// The first unit of the source not yet copied.
    kept: usize,
    /// The text's length when the last span was given to the run builder.
    seg: usize,
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
    /// Per inline slot, its innermost open matched tag (mark, [`StyleSet::inline_bits`] of
    /// the code), [`NONE`] if none; the ones it hides are in [`Emit::slots`].
    tops: [(u32, u32); INLINE_SLOTS],
}

impl<O: Output> Emit<'_, O> {
    /// Walks the marks over `src`, writing its text and runs; returns the diagnostics.
    pub(super) fn run<'a, T: TypedSource<'a>>(mut self, src: T) -> Vec<Note> {
        let s = src.units();
        let mut st = State {
            kept: 0,
            seg: 0,
            counts: [0; 4],
            pairs: StyleSet::EMPTY,
            tags: StyleSet::EMPTY,
            inline: StyleSet::EMPTY,
            codes: Overlay::NONE,
            style: StyleSet::EMPTY,
            last_inline: StyleSet::EMPTY,
            line_start: 0,
            tops: [(NONE, 0); INLINE_SLOTS],
        };
        let mut notes = Vec::new();
        let mut k = 0;
        // the next line mark's index among line marks
        let mut line = 0;
        while let Some(m) = self.marks.mark(k) {
            let at = m.at as usize;
            match m.kind() {
                Kind::Remove => {
                    self.out.push(st.kept, at);
                    st.kept = at + m.len();
                }
                // I2: the backslash goes, the character it escapes is text
                Kind::Escape => {
                    self.out.push(st.kept, at);
                    st.kept = at + 1;
                }
                Kind::Line => {
                    let prefix = m.prefix();
                    // the prefix goes, and the line's codes apply from its content on
                    self.out.push(st.kept, at);
                    st.kept = at + prefix;
                    self.flush(&mut st, at + prefix);
                    st.codes = self.marks.line_codes(line).overlay();
                    line += 1;
                    st.style = st.inline.under(st.codes);
                    st.line_start = self.runs.position();
                }
                Kind::LineEnd => self.end_line(&mut st, s, at),
                Kind::Delim => {
                    let (len, e) = self.marks.delim(m);
                    // [closing-used | literal | opening-used]
                    let (two, one) = match s.get(at).map(|c| c.byte()) {
                        Some(b'~') => (StyleCode::Strike, StyleCode::Strike),
                        _ => (StyleCode::Bold, StyleCode::Italic),
                    };
                    let (close, open) = (e.close_used(), e.open_used());
                    if close > 0 {
                        self.flush(&mut st, at);
                        add(&mut st, two, e.close_two, false);
                        add(&mut st, one, e.close_one, false);
                        restyle(&mut st);
                        st.kept = at + close;
                    }
                    if open > 0 {
                        self.flush(&mut st, at + len - open);
                        add(&mut st, two, e.open_two, true);
                        add(&mut st, one, e.open_one, true);
                        restyle(&mut st);
                        st.kept = at + len;
                    }
                }
                Kind::Tag => {
                    let (len, closing) = (m.tag_len(), m.closing());
                    let me = u32::try_from(k).unwrap_or(u32::MAX);
                    let partner = self.marks.partner(k);
                    // (the tag's second entry, its partner, is read)
                    k += 1;
                    match partner {
                        Some(p) => {
                            self.flush(&mut st, at);
                            st.kept = at + len;
                            let (slot, lane, bits) = TAG_SLOTS
                                .get(m.tag_index())
                                .map_or((usize::MAX, 0, 0), |&(s, l, b)| (usize::from(s), l, b));
                            // the slot's innermost open tag is in `tops`, the ones it
                            // hides below it in `slots` (most slots hold one tag at most)
                            if let (Some(top), Some(below)) =
                                (st.tops.get_mut(slot), self.slots.get_mut(slot))
                            {
                                let before = top.1;
                                if !closing {
                                    if top.0 != NONE {
                                        below.push(*top);
                                    }
                                    *top = (me, bits);
                                } else if top.0 == p {
                                    // the common case, the innermost open tag of its slot
                                    // closes: popped without a mark, then any opener below
                                    // it that closed earlier (tags need not nest, I3)
                                    *top = below.pop().unwrap_or((NONE, 0));
                                    let marks = &*self.marks;
                                    while top.0 != NONE && marks.ended(top.0) {
                                        *top = below.pop().unwrap_or((NONE, 0));
                                    }
                                } else {
                                    // an inner tag is still open: the opener is marked
                                    // closed, and leaves its stack when it reaches the top
                                    self.marks.end_tag(p);
                                }
                                // the slot's innermost open tag is the one whose code shows
                                if before != top.1 {
                                    st.tags = st.tags.with_slot_bits(lane, top.1);
                                    restyle(&mut st);
                                }
                            }
                        }
                        None if self.want_notes => unpaired(src, at, len, closing, &mut notes),
                        None => {}
                    }
                }
            }
            k += 1;
        }
        let end = s.len();
        if st.style.is_empty() {
            // unstyled to the end: no span follows, so its length is not counted
            self.out.push(st.kept, end);
        } else {
            self.flush(&mut st, end);
        }
        notes
    }

    /// The content of the line with codes ends at `at` (before its line break).
    // Once per line with codes: inline, its flush shares the walk's registers (−0.04 M
    // instructions over the bench corpus; markdown16 within noise).
    #[inline(always)]
    fn end_line<U: Unit>(&mut self, st: &mut State, s: &[U], at: usize) {
        self.flush(st, at);
        // a `\r` left right before the `\n` by markup that vanished is a line break: it
        // keeps only its inline codes (1.3)
        if s.get(at).is_some_and(|c| c.byte() == b'\n')
            && self.runs.position() > st.line_start
            && self.out.ends_with_cr()
        {
            self.runs.restyle_last(st.last_inline);
        }
        st.codes = Overlay::NONE;
        st.style = st.inline;
    }

    /// Copies the text up to `at` and gives what was written since the last span one span
    /// with the style in force.
    #[inline(always)]
    fn flush(&mut self, st: &mut State, at: usize) {
        self.out.push(st.kept, at);
        st.kept = at;
        let units = self.out.utf16_since(st.seg);
        st.seg = self.out.len();
        if units > 0 {
            self.runs.advance(units, st.style);
            st.last_inline = st.inline;
        }
    }
}

/// The inline codes: the delimiter pairs' and the open tags' (tags need not nest, I3).
fn restyle(st: &mut State) {
    st.inline = st.tags.with_flags_of(st.pairs);
    st.style = st.inline.under(st.codes);
}

/// Opens (`up`) or closes `n` delimiter pairs of `code` (I4, I5).
fn add(st: &mut State, code: StyleCode, n: u32, up: bool) {
    if n == 0 {
        return;
    }
    if let Some(c) = st.counts.get_mut(code.slot()) {
        *c = if up {
            c.saturating_add(n as usize)
        } else {
            c.saturating_sub(n as usize)
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
fn unpaired<'a, T: TypedSource<'a>>(
    src: T,
    at: usize,
    len: usize,
    closing: bool,
    notes: &mut Vec<Note>,
) {
    if notes.len() >= crate::utf16::MAX_DIAGNOSTICS {
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
