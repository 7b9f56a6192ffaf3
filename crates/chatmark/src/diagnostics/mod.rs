//! Diagnostics (L3): what the parsers note as they read ([`Note`], positions in the
//! input's own code units), capped and converted once to UTF-16 positions of the input
//! ([`to_diagnostics`]); and the human messages of diagnostics and errors (R7), built
//! without `core::fmt` ([`msg`]).

pub(crate) mod msg;

use crate::sort::{sat32, sort_by_key32, sort_u64};
use crate::text::source::Source;
use crate::text::utf16::Utf16Cursor;
use crate::{Diagnostic, DiagnosticCode};

/// A range `start..end` of a source's code units (bytes of UTF-8, units of UTF-16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Span {
    /// First unit.
    pub start: usize,
    /// One past the last unit.
    pub end: usize,
}

impl Span {
    pub(crate) const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// Length in units (0 for a reversed span).
    pub(crate) const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }
}

/// Most diagnostics one message reports (L3): the first ones by position. A composer
/// underlines a few; a hostile message with a million unclosed tags must not cost a
/// diagnostic each.
pub(crate) const MAX_DIAGNOSTICS: usize = 1000;

/// Keeps the first [`MAX_DIAGNOSTICS`] of `d` by start position, sorted so (stably: notes
/// that start together keep their order, so a client run's unknown code is still reported
/// before the run is dropped): the cap of client-run diagnostics (L3).
pub(crate) fn cap_diagnostics(d: &mut Vec<Diagnostic>) {
    sort_by_key32(d, |d| sat32(d.start));
    d.truncate(MAX_DIAGNOSTICS);
}

/// A diagnostic found in input positions (code units of the source), with its message.
#[derive(Clone, Debug)]
pub(crate) struct Note {
    pub span: Span,
    pub code: DiagnosticCode,
    pub message: String,
}

/// Converts `notes` to [`Diagnostic`]s in UTF-16 units of `input` (L3), sorted by position,
/// through one forward cursor (a UTF-16 source's positions are units already): one copy for
/// both dialects. A span from a faulty tokenizer that ends inside a character or past the
/// end is rounded down (L2), a reversed one is empty.
pub(crate) fn to_diagnostics(input: Source<'_>, mut notes: Vec<Note>) -> Vec<Diagnostic> {
    // By span, stably: by end, then by start (positions past 4 GiB tie).
    sort_by_key32(&mut notes, |n| sat32(n.span.end));
    sort_by_key32(&mut notes, |n| sat32(n.span.start));
    notes.truncate(MAX_DIAGNOSTICS);
    let boundary = |mut o: usize| {
        o = o.min(input.len());
        if let Source::Utf8(text) = input {
            while o > 0 && !text.is_char_boundary(o) {
                o -= 1;
            }
        }
        o
    };
    // Every offset asked for, in increasing order, through one forward cursor.
    let mut offsets: Vec<u64> = notes
        .iter()
        .flat_map(|n| [n.span.start, n.span.end.max(n.span.start)])
        .map(|o| o as u64)
        .collect();
    sort_u64(&mut offsets);
    offsets.dedup();
    let units: Vec<usize> = match input {
        Source::Utf8(text) => {
            let mut cursor = Utf16Cursor::new(text);
            offsets
                .iter()
                .map(|&o| cursor.unit_at(boundary(o as usize)))
                .collect()
        }
        Source::Utf16(_) => offsets.iter().map(|&o| boundary(o as usize)).collect(),
    };
    let unit_of = |byte: usize| {
        offsets
            .binary_search(&(byte as u64))
            .ok()
            .and_then(|k| units.get(k).copied())
            .unwrap_or(0)
    };
    notes
        .into_iter()
        .map(|n| {
            let (s, e) = (n.span.start, n.span.end.max(n.span.start));
            let start = unit_of(s);
            let len = unit_of(e).saturating_sub(start);
            Diagnostic {
                code: n.code,
                start,
                len,
                message: n.message,
            }
        })
        .collect()
}
