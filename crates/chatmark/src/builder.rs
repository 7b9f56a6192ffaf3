//! The one run builder every producer emits into (markdown, HTML, normalisation). It can
//! only yield canonical form: runs sorted and disjoint (C1), non-empty (C2), touching runs
//! with equal sets merged (C3), codes in table order by construction of [`StyleSet`] (C4).
//! Producers push whole characters, so no boundary splits a surrogate pair (C5), and every
//! run lies inside the text pushed (C6).

#[cfg(feature = "html")]
use crate::text::source::Source;
#[cfg(feature = "html")]
use crate::text::utf16::{push_utf16, utf16_len};
#[cfg(feature = "html")]
use crate::{Formatted, FormattedUtf16};
use crate::{StyleSet, TextStyle};

/// Builds canonical runs from consecutive spans of UTF-16 units, each with one style set.
#[derive(Debug, Default)]
pub(crate) struct RunBuilder {
    runs: Vec<TextStyle>,
    /// UTF-16 units emitted so far.
    pos: usize,
    /// Style of the open span, which started at `open_start`.
    open: StyleSet,
    open_start: usize,
}

impl RunBuilder {
    /// Appends `len` units carrying `set` (an empty set leaves them unstyled).
    #[inline]
    pub(crate) fn advance(&mut self, len: usize, set: StyleSet) {
        if len == 0 {
            return;
        }
        if set != self.open {
            self.close();
            self.open = set;
            self.open_start = self.pos;
        }
        self.pos += len;
    }

    /// Gives the last unit emitted the style `set` instead of the open span's (which holds
    /// it), splitting or merging spans so that the runs stay canonical (C1–C3).
    pub(crate) fn restyle_last(&mut self, set: StyleSet) {
        if self.pos == 0 || set == self.open {
            return;
        }
        self.pos -= 1;
        self.close();
        match self.runs.last() {
            // the unit now continues the run before it (C3)
            Some(prev) if prev.start + prev.len == self.pos && prev.st == set => {
                self.open_start = prev.start;
                self.runs.pop();
            }
            _ => self.open_start = self.pos,
        }
        self.open = set;
        self.pos += 1;
    }

    #[inline]
    fn close(&mut self) {
        if !self.open.is_empty() && self.pos > self.open_start {
            self.runs.push(TextStyle {
                start: self.open_start,
                len: self.pos - self.open_start,
                st: self.open,
            });
        }
    }

    /// A builder with no runs that writes into `runs` (emptied; its capacity is reused).
    pub(crate) fn reusing(mut runs: Vec<TextStyle>) -> Self {
        runs.clear();
        // every field spelled out: `..RunBuilder::default()` would make a vector only to
        // drop it, a call in the npm package's size-tuned wasm
        RunBuilder {
            runs,
            pos: 0,
            open: StyleSet::default(),
            open_start: 0,
        }
    }

    /// UTF-16 units emitted so far.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Makes room for `n` more runs. Into no allocation yet (a new message's), the vector is
    /// allocated at that size at once, not through the growth path.
    pub(crate) fn reserve(&mut self, n: usize) {
        if self.runs.capacity() == 0 {
            self.runs = Vec::with_capacity(n);
        } else {
            self.runs.reserve(n);
        }
    }

    /// Writes into `spare` (a reused buffer) instead of its own vector if it has none yet:
    /// [`RunBuilder::settle`] then gives the runs back in a vector of their own size, so
    /// that a new message's runs are allocated once, at the size they turn out to need.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn borrow_spare(&mut self, spare: &mut Vec<TextStyle>) -> bool {
        if self.runs.capacity() != 0 {
            return false;
        }
        spare.clear();
        core::mem::swap(&mut self.runs, spare);
        true
    }

    /// Moves the runs written into the buffer [`RunBuilder::borrow_spare`] took into a
    /// vector with room for them and the open span, and gives the buffer back.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline]
    pub(crate) fn settle(&mut self, spare: &mut Vec<TextStyle>) {
        let open = usize::from(!self.open.is_empty() && self.pos > self.open_start);
        let n = self.runs.len() + open;
        let own = if n == 0 {
            Vec::new()
        } else {
            let mut own = Vec::with_capacity(n);
            own.extend_from_slice(&self.runs);
            own
        };
        *spare = core::mem::replace(&mut self.runs, own);
    }

    /// Starts again with no runs, keeping the vector's capacity.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn clear(&mut self) {
        *self = Self::reusing(core::mem::take(&mut self.runs));
    }

    pub(crate) fn finish(mut self) -> Vec<TextStyle> {
        self.close();
        self.runs
    }

    /// [`RunBuilder::finish`] into `slot`, which the vector given to
    /// [`RunBuilder::reusing`] was taken from (so that what it holds now is empty): an
    /// empty vector owns no allocation and is forgotten, not dropped, which in the npm
    /// package's size-tuned wasm would be a call to free nothing.
    pub(crate) fn finish_into(self, slot: &mut Vec<TextStyle>) {
        let left = core::mem::replace(slot, self.finish());
        if left.capacity() == 0 {
            core::mem::forget(left);
        }
    }
}

/// The text being built, in the encoding its caller asked for: UTF-8 for the Rust API, or
/// UTF-16 units for hosts whose strings are UTF-16 (the npm package), written straight
/// from the source so that no second pass transcodes it.
#[cfg(feature = "html")]
#[derive(Debug)]
enum TextBuf {
    // the markdown-only wasm writes UTF-16 only
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Utf8(String),
    Utf16(Vec<u16>),
}

/// Text plus runs: what HTML mode writes into (markdown mode writes its text and a
/// [`RunBuilder`] itself).
#[cfg(feature = "html")]
#[derive(Debug)]
pub(crate) struct FormattedBuilder {
    text: TextBuf,
    runs: RunBuilder,
}

#[cfg(feature = "html")]
impl FormattedBuilder {
    /// A UTF-8 builder that holds `bytes` of text and `runs` runs before it reallocates.
    // (the markdown-only wasm builds UTF-16 text only)
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn with_capacity(bytes: usize, runs: usize) -> Self {
        FormattedBuilder {
            text: TextBuf::Utf8(String::with_capacity(bytes)),
            runs: RunBuilder {
                runs: Vec::with_capacity(runs),
                ..RunBuilder::default()
            },
        }
    }

    /// Runs `parse` with a UTF-16 builder over `out`'s buffers (emptied; their capacity is
    /// reused, with room for `units` more units) and leaves what it built in `out`: the one
    /// shape of every UTF-16 entry point.
    pub(crate) fn utf16_into(
        out: &mut FormattedUtf16,
        units: usize,
        parse: impl FnOnce(FormattedBuilder) -> FormattedBuilder,
    ) {
        let mut text = core::mem::take(&mut out.text);
        let mut runs = core::mem::take(&mut out.text_styles);
        text.clear();
        text.reserve(units);
        runs.clear();
        let b = parse(FormattedBuilder {
            text: TextBuf::Utf16(text),
            runs: RunBuilder {
                runs,
                ..RunBuilder::default()
            },
        });
        (out.text, out.text_styles) = b.finish_utf16();
    }

    /// Appends `s`, whose length in UTF-16 units the caller has counted (`units`), styled
    /// with `set`: for producers that scan the text anyway (HTML mode).
    #[inline]
    pub(crate) fn push_str_units(&mut self, s: &str, units: usize, set: StyleSet) {
        debug_assert_eq!(units, utf16_len(s));
        match &mut self.text {
            TextBuf::Utf8(t) => t.push_str(s),
            TextBuf::Utf16(t) => {
                push_utf16(t, s);
            }
        }
        self.runs.advance(units, set);
    }

    /// The whole of `src` as unstyled text, into an empty builder (markdown's fast path):
    /// no run can follow, so its UTF-16 length is not counted.
    pub(crate) fn plain(&mut self, src: Source<'_>) {
        match (src, &mut self.text) {
            (Source::Utf8(s), TextBuf::Utf8(t)) => t.push_str(s),
            (Source::Utf16(u), TextBuf::Utf16(t)) => t.extend_from_slice(u),
            (Source::Utf8(s), TextBuf::Utf16(t)) => {
                push_utf16(t, s);
            }
            (Source::Utf16(_), TextBuf::Utf8(_)) => {
                self.push_src(src, 0, src.len(), StyleSet::EMPTY)
            }
        }
    }

    /// Appends the units `from..to` of `src`, in the text's encoding (the parsers copy their
    /// text from the input).
    pub(crate) fn push_src(&mut self, src: Source<'_>, from: usize, to: usize, set: StyleSet) {
        if to <= from {
            return;
        }
        let units = match (src, &mut self.text) {
            (Source::Utf16(u), TextBuf::Utf16(t)) => {
                let piece = u.get(from..to).unwrap_or_default();
                t.extend_from_slice(piece);
                piece.len()
            }
            (Source::Utf8(s), TextBuf::Utf8(t)) => {
                let piece = s.get(from..to).unwrap_or_default();
                t.push_str(piece);
                utf16_len(piece)
            }
            // HTML mode's own pieces (references, held whitespace) into a UTF-16 text
            (Source::Utf8(s), TextBuf::Utf16(t)) => {
                push_utf16(t, s.get(from..to).unwrap_or_default())
            }
            // UTF-16 input into UTF-8 text: the wasm's HTML reading of UTF-8 input
            (Source::Utf16(u), TextBuf::Utf8(t)) => {
                let piece = u.get(from..to).unwrap_or_default();
                t.push_str(&String::from_utf16_lossy(piece));
                piece.len()
            }
        };
        self.runs.advance(units, set);
    }

    /// Appends one character styled with `set`.
    #[inline]
    pub(crate) fn push_char(&mut self, c: char, set: StyleSet) {
        match &mut self.text {
            TextBuf::Utf8(t) => t.push(c),
            TextBuf::Utf16(t) => {
                let mut buf = [0u16; 2];
                t.extend_from_slice(c.encode_utf16(&mut buf));
            }
        }
        self.runs.advance(c.len_utf16(), set);
    }

    /// Whether the text is written as UTF-16 (which counts its units as it goes).
    pub(crate) fn writes_utf16(&self) -> bool {
        matches!(self.text, TextBuf::Utf16(_))
    }

    /// Whether no text has been written.
    pub(crate) fn is_empty(&self) -> bool {
        self.runs.position() == 0
    }

    /// Whether the text written so far ends with `\n`.
    pub(crate) fn ends_with_newline(&self) -> bool {
        match &self.text {
            TextBuf::Utf8(t) => t.as_bytes().last() == Some(&b'\n'),
            TextBuf::Utf16(t) => t.last() == Some(&0x0a),
        }
    }

    /// Makes room for `n` more runs.
    pub(crate) fn reserve_runs(&mut self, n: usize) {
        self.runs.reserve(n);
    }

    /// The text and runs, with the text in UTF-8 (a UTF-16 builder's is decoded).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn finish(self) -> Formatted {
        let (text, text_styles) = (self.text, self.runs.finish());
        let text = match text {
            TextBuf::Utf8(t) => t,
            TextBuf::Utf16(t) => String::from_utf16_lossy(&t),
        };
        Formatted { text, text_styles }
    }

    /// The text and runs, with the text in UTF-16 (a UTF-8 builder's is encoded).
    pub(crate) fn finish_utf16(self) -> (Vec<u16>, Vec<TextStyle>) {
        let (text, text_styles) = (self.text, self.runs.finish());
        let text = match text {
            TextBuf::Utf16(t) => t,
            TextBuf::Utf8(t) => {
                let mut units = Vec::new();
                push_utf16(&mut units, &t);
                units
            }
        };
        (text, text_styles)
    }
}

/// Runs `f` with this thread's scratch buffers from `key`, the parsers' working memory kept
/// between calls; with fresh ones when they are in use (a re-entrant call) or the thread is
/// shutting down. `f` leaves its results in what it captures.
// Once per parse: inline, with its fallback (fresh buffers) out of line.
#[inline]
pub(crate) fn with_scratch<S: Default>(
    key: &'static std::thread::LocalKey<core::cell::RefCell<S>>,
    f: impl FnOnce(&mut S),
) {
    let mut f = Some(f);
    let _ = key.try_with(|cell| {
        if let Ok(mut scratch) = cell.try_borrow_mut() {
            if let Some(f) = f.take() {
                f(&mut scratch);
            }
        }
    });
    if let Some(f) = f {
        with_fresh(f);
    }
}

/// [`with_scratch`]'s fallback, out of line: the parse it runs is then inlined (if at
/// all) only where the thread's buffers are used.
#[cold]
#[inline(never)]
fn with_fresh<S: Default>(f: impl FnOnce(&mut S)) {
    f(&mut S::default());
}

#[cfg(all(test, feature = "html"))]
mod tests {
    use super::*;
    use crate::StyleCode;

    #[test]
    fn merges_touching_equal_sets_and_skips_unstyled_c3() {
        let b = StyleSet::of(StyleCode::Bold);
        let mut f = FormattedBuilder::with_capacity(0, 0);
        let src = Source::Utf8("abc 😀");
        f.push_src(src, 0, 2, b);
        f.push_src(src, 2, 3, b);
        f.push_src(src, 3, 4, StyleSet::EMPTY);
        f.push_src(src, 4, 8, b);
        f.push_src(src, 8, 8, StyleSet::of(StyleCode::Italic));
        let out = f.finish();
        assert_eq!(out.text, "abc 😀");
        assert_eq!(
            out.text_styles,
            [
                TextStyle {
                    start: 0,
                    len: 3,
                    st: b
                },
                TextStyle {
                    start: 4,
                    len: 2,
                    st: b
                }
            ]
        );
    }
}
