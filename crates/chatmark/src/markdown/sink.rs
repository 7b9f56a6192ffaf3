//! What the scan ([`super::scan`]) reports, in source order: every construct that is not
//! plain text, as a call on a [`Sink`]. Two sinks take them: the [`Marks`] of the output
//! walk, which record them (`marks.rs`), and the one pass's writer, which writes the text
//! and runs as they come (`direct.rs`). The pairing is done by the scan, once for both:
//! tags by [`super::scan`] (I3), which keeps the links between a region's unpaired openers
//! in the sink's own record of them, and delimiter runs by the emphasis matcher (I4, I5).
//!
//! [`Marks`]: super::marks::Marks

use super::emphasis::{DelimRun, Outcome, Pairs};
use crate::vocab::style::Overlay;
use crate::vocab::{Spelling, Tag};

/// A paragraph line with line codes (P4): it starts at `at`, its first `prefix` units go,
/// and `codes` cover its content.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub at: usize,
    pub prefix: usize,
    pub codes: Overlay,
}

/// A tag as read (I3): `len` units at `at`, of `tag` in `spelling` (whether it opens or
/// closes is the [`Sink`] method it goes to).
#[derive(Clone, Copy, Debug)]
pub(super) struct TagToken {
    pub at: usize,
    pub len: usize,
    pub tag: Tag,
    pub spelling: Spelling,
}

/// Where the scan reports what it reads; the matcher reports the pairs earlier delimiter
/// runs open through [`Pairs`].
pub(super) trait Sink: Pairs {
    /// `len` units at `at` go: a line prefix (P1–P3), a blank line's spaces (2.3), or a
    /// backslash that escapes the next character (I2).
    fn remove(&mut self, at: usize, len: usize);
    /// A paragraph line with codes begins.
    fn line(&mut self, line: Line);
    /// The content of the line with codes last begun ends at `end`.
    fn line_end(&mut self, end: usize);
    /// An opening tag, recorded with `before`, the id of the unpaired opener of its tag and
    /// spelling before it in the region (or [`super::marks::NONE`]); returns its id.
    fn open_tag(&mut self, tag: TagToken, before: u32) -> u32;
    /// What [`Sink::open_tag`] recorded with the unpaired opener `id`.
    fn before(&self, id: u32) -> u32;
    /// A closing tag paired with the opening tag `opener` (its id from [`Sink::open_tag`]).
    fn close_tag(&mut self, tag: TagToken, opener: u32);
    /// A closing tag with no opening tag to pair with: text (I3, L3).
    fn stray_close(&mut self, tag: TagToken);
    /// The opening tag `id` is left unpaired at the end of its region: text (I3, F3).
    fn unpaired_open(&mut self, id: u32);
    /// A delimiter run that closes and leaves waiting what `o` says (I4, I5), with the id
    /// [`Pairs::next_run`] gave it.
    fn delimiter(&mut self, run: DelimRun, o: Outcome);
    /// Where the sink counts the excess of the UTF-8 text read so far (see
    /// [`crate::text::utf16`], "Lengths by excess"), if it writes by it (the one pass).
    fn excess(&mut self) -> Option<&mut usize>;
}
