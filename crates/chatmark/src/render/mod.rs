//! Rendering back (spec section 6): the shared line model both renderers walk — a
//! [`Formatted`] read once into lines of constant-style pieces, with the line codes of each
//! line (1.3) — and the inline-style stack that keeps tags and delimiters properly nested.
//! [`html`] implements W1, [`markdown`] W2. Everything here is one linear pass, no recursion.

pub(crate) mod html;
pub(crate) mod markdown;

use crate::builder::RunBuilder;
use crate::vocab::style::INLINE_SLOTS;
use crate::{Formatted, StyleCode, StyleSet, TextStyle};

/// A maximal piece of one line's content (or of its line break) with one style.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'a> {
    /// The text, a slice of the message.
    pub text: &'a str,
    /// Byte offset of `text` in the message.
    pub byte: usize,
    /// UTF-16 offset of `text` in the message.
    pub unit: usize,
    /// Its codes without line codes (those are the line's, [`Line::codes`]).
    pub style: StyleSet,
}

/// One line of the message: content pieces, then the break (`\n` or `\r\n`, absent on the
/// last line), each break character its own piece.
#[derive(Clone, Debug, Default)]
pub(crate) struct Line<'a> {
    pub content: Vec<Piece<'a>>,
    pub brk: Vec<Piece<'a>>,
    /// The line codes when every content unit carries the same ones (1.3, W1, W2).
    pub codes: StyleSet,
    /// Some content units carry line codes, but not all the same: `codes` is empty then.
    pub mixed: bool,
}

impl Line<'_> {
    /// Byte range of the content in the message.
    pub fn content_range(&self) -> (usize, usize) {
        match (self.content.first(), self.content.last()) {
            (Some(a), Some(b)) => (a.byte, b.byte + b.text.len()),
            _ => (0, 0),
        }
    }
}

/// Splits `f` into lines of constant-style pieces, in one walk over the text and the runs.
pub(crate) fn lines(f: &Formatted) -> Vec<Line<'_>> {
    let text = f.text.as_str();
    let bytes = text.as_bytes();
    let mut runs = f.text_styles.iter().peekable();
    let mut out: Vec<Line<'_>> = Vec::new();
    let mut line = Line::default();
    // Line codes seen on the current line's content: None = no unit yet.
    let mut line_codes: Option<StyleSet> = None;
    let mut unit = 0usize;
    for (byte, c) in text.char_indices() {
        while runs.peek().is_some_and(|r| r.end() <= unit) {
            runs.next();
        }
        let full = match runs.peek() {
            Some(r) if r.start <= unit => r.st,
            _ => StyleSet::EMPTY,
        };
        let style = full.without_line_codes();
        let is_break = c == '\n' || (c == '\r' && bytes.get(byte + 1).is_some_and(|&b| b == b'\n'));
        let len = c.len_utf8();
        let piece = Piece {
            text: text.get(byte..byte + len).unwrap_or(""),
            byte,
            unit,
            style,
        };
        if is_break {
            line.brk.push(piece);
        } else {
            let lc = line_codes_of(full);
            match line_codes {
                None => line_codes = Some(lc),
                Some(prev) if prev != lc => line.mixed = true,
                _ => {}
            }
            match line.content.last_mut() {
                Some(last) if last.style == style && last.byte + last.text.len() == byte => {
                    last.text = text.get(last.byte..byte + len).unwrap_or(last.text);
                }
                _ => line.content.push(piece),
            }
        }
        unit += c.len_utf16();
        if c == '\n' {
            line.codes = if line.mixed {
                StyleSet::EMPTY
            } else {
                line_codes.unwrap_or(StyleSet::EMPTY)
            };
            out.push(core::mem::take(&mut line));
            line_codes = None;
        }
    }
    line.codes = if line.mixed {
        StyleSet::EMPTY
    } else {
        line_codes.unwrap_or(StyleSet::EMPTY)
    };
    out.push(line);
    out
}

/// The line codes of a set (`lst_*`, `ind_*`).
pub(crate) fn line_codes_of(full: StyleSet) -> StyleSet {
    let mut s = StyleSet::EMPTY;
    if let Some(c) = full.get(crate::Family::List) {
        s.insert(c);
    }
    if let Some(c) = full.get(crate::Family::Indent) {
        s.insert(c);
    }
    s
}

/// One inline feature a renderer opens and closes as a unit: a flag or a family's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Feature(pub StyleCode);

/// The features of the inline part of `style`, in table order.
pub(crate) fn features(style: StyleSet) -> impl Iterator<Item = Feature> {
    let mut all = [None; INLINE_SLOTS];
    for (slot, code) in all.iter_mut().zip(style.without_line_codes().iter()) {
        *slot = Some(Feature(code));
    }
    all.into_iter().flatten()
}

/// Per inline slot ([`StyleCode::slot`]), the index of the last piece of a stretch.
pub(crate) type Ends = [usize; INLINE_SLOTS];

/// For every piece of a sequence, per inline slot, the index of the last piece of the
/// contiguous stretch over which that slot keeps its value: longer-lived features open
/// first (outermost), so fewer tags are closed and reopened. One backward pass.
pub(crate) fn stretch_ends(styles: &[StyleSet]) -> Vec<Ends> {
    let mut ends = vec![[0usize; INLINE_SLOTS]; styles.len()];
    for p in (0..styles.len()).rev() {
        for k in 0..INLINE_SLOTS {
            let here = styles.get(p).and_then(|s| s.in_slot(k));
            let next = styles.get(p + 1).and_then(|s| s.in_slot(k));
            let end = if p + 1 < styles.len() && here == next {
                ends.get(p + 1).and_then(|e| e.get(k)).copied().unwrap_or(p)
            } else {
                p
            };
            if let Some(e) = ends.get_mut(p).and_then(|e| e.get_mut(k)) {
                *e = end;
            }
        }
    }
    ends
}

/// A stack of open inline features that only ever nests properly.
#[derive(Debug, Default)]
pub(crate) struct InlineStack {
    pub open: Vec<Feature>,
}

impl InlineStack {
    /// Moves to `target` (restricted to the features `keep` accepts): closes the features
    /// above the longest still-wanted prefix, top first, through `close`; then opens the
    /// missing ones, longest-lived first (by `ends`), through `open`.
    pub fn transition(
        &mut self,
        target: StyleSet,
        ends: Option<&Ends>,
        mut close: impl FnMut(Feature),
        mut open: impl FnMut(Feature),
    ) {
        let wanted: Vec<Feature> = features(target).collect();
        let keep = self.open.iter().take_while(|f| wanted.contains(f)).count();
        while self.open.len() > keep {
            if let Some(f) = self.open.pop() {
                close(f);
            }
        }
        let mut missing: Vec<Feature> = wanted
            .into_iter()
            .filter(|f| !self.open.contains(f))
            .collect();
        if let Some(ends) = ends {
            // Latest end first; stable: ties keep table order.
            crate::sort::sort_by_key32(&mut missing, |f| {
                u32::MAX - crate::sort::sat32(ends.get(f.0.slot()).copied().unwrap_or(0))
            });
        }
        for f in missing {
            open(f);
            self.open.push(f);
        }
    }
}

/// Rebuilds canonical runs from per-piece styles: `(units, style)` in order.
pub(crate) fn runs_from(pieces: impl IntoIterator<Item = (usize, StyleSet)>) -> Vec<TextStyle> {
    let mut b = RunBuilder::default();
    for (len, st) in pieces {
        b.advance(len, st);
    }
    b.finish()
}

impl Formatted {
    /// The same message with line codes kept only on lines whose whole content carries the
    /// same ones (the precondition of W1 and W2); other lines lose their line codes.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{Formatted, StyleCode, StyleSet, TextStyle};
    /// let l = StyleSet::of(StyleCode::Bullet);
    /// let f = Formatted { text: "ab\ncd".into(), text_styles: vec![
    ///     TextStyle { start: 0, len: 1, st: l },        // half of line 1
    ///     TextStyle { start: 3, len: 2, st: l },        // all of line 2
    /// ]};
    /// assert_eq!(f.with_whole_line_codes().text_styles, vec![TextStyle { start: 3, len: 2, st: l }]);
    /// ```
    #[must_use]
    pub fn with_whole_line_codes(&self) -> Formatted {
        let lines = lines(self);
        let mut out = Vec::new();
        for line in &lines {
            for p in &line.content {
                out.push((crate::utf16_len(p.text), p.style.with(line.codes)));
            }
            for p in &line.brk {
                out.push((crate::utf16_len(p.text), p.style));
            }
        }
        Formatted {
            text: self.text.clone(),
            text_styles: runs_from(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_pieces_and_codes() {
        let f = crate::parse_markdown("- **a**b\r\n\nc");
        let ls = lines(&f);
        assert_eq!(ls.len(), 3);
        assert_eq!(ls[0].content.len(), 2);
        assert_eq!(ls[0].brk.len(), 2);
        assert!(ls[0].codes.contains(StyleCode::Bullet));
        assert!(ls[1].content.is_empty());
        assert_eq!(ls[2].content[0].text, "c");
        assert_eq!(ls[2].content[0].unit, 5);
    }
}
