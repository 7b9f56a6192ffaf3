//! The one run builder every producer emits into (markdown, HTML, normalisation). It can
//! only yield canonical form: runs sorted and disjoint (C1), non-empty (C2), touching runs
//! with equal sets merged (C3), codes in table order by construction of [`StyleSet`] (C4).
//! Producers push whole characters, so no boundary splits a surrogate pair (C5), and every
//! run lies inside the text pushed (C6).

use crate::utf16::utf16_len;
use crate::{Formatted, StyleSet, TextStyle};

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

    fn close(&mut self) {
        if !self.open.is_empty() && self.pos > self.open_start {
            self.runs.push(TextStyle {
                start: self.open_start,
                len: self.pos - self.open_start,
                st: self.open,
            });
        }
    }

    /// UTF-16 units emitted so far.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    pub(crate) fn finish(mut self) -> Vec<TextStyle> {
        self.close();
        self.runs
    }
}

/// Text plus runs: what the markup parsers write into.
#[derive(Debug, Default)]
pub(crate) struct FormattedBuilder {
    text: String,
    runs: RunBuilder,
}

impl FormattedBuilder {
    /// A builder that holds `bytes` of text and `runs` runs before it reallocates.
    pub(crate) fn with_capacity(bytes: usize, runs: usize) -> Self {
        FormattedBuilder {
            text: String::with_capacity(bytes),
            runs: RunBuilder {
                runs: Vec::with_capacity(runs),
                ..RunBuilder::default()
            },
        }
    }

    /// Appends `s` styled with `set`. Always inlined: it is the parsers' hot path, and
    /// whether the compiler inlined it or not flipped with unrelated edits (±7% of
    /// instructions per message).
    #[inline(always)]
    pub(crate) fn push_str(&mut self, s: &str, set: StyleSet) {
        if s.is_empty() {
            return;
        }
        self.text.push_str(s);
        self.runs.advance(utf16_len(s), set);
    }

    /// Appends `s`, whose length in UTF-16 units the caller has counted (`units`), styled
    /// with `set`: for producers that scan the text anyway (HTML mode).
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn push_str_units(&mut self, s: &str, units: usize, set: StyleSet) {
        debug_assert_eq!(units, utf16_len(s));
        self.text.push_str(s);
        self.runs.advance(units, set);
    }

    // used by HTML mode only
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    /// Appends one character styled with `set`.
    #[inline]
    pub(crate) fn push_char(&mut self, c: char, set: StyleSet) {
        self.text.push(c);
        self.runs.advance(c.len_utf16(), set);
    }

    // used by HTML mode only
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    /// The text emitted so far.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn finish(self) -> Formatted {
        Formatted {
            text: self.text,
            text_styles: self.runs.finish(),
        }
    }
}

/// Runs `f` with this thread's scratch buffers from `key`, the parsers' working memory kept
/// between calls; with fresh ones when they are in use (a re-entrant call) or the thread is
/// shutting down.
pub(crate) fn with_scratch<S: Default, R>(
    key: &'static std::thread::LocalKey<core::cell::RefCell<S>>,
    f: impl Fn(&mut S) -> R,
) -> R {
    key.try_with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut S::default()),
    })
    .unwrap_or_else(|_| f(&mut S::default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StyleCode;

    #[test]
    fn merges_touching_equal_sets_and_skips_unstyled_c3() {
        let b = StyleSet::of(StyleCode::Bold);
        let mut f = FormattedBuilder::default();
        f.push_str("ab", b);
        f.push_str("c", b);
        f.push_str(" ", StyleSet::EMPTY);
        f.push_str("😀", b);
        f.push_str("", StyleSet::of(StyleCode::Italic));
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
