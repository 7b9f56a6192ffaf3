//! The markdown dialect's byte classes, in one place for the parser's scan
//! ([`super::scan`]), its fast path ([`super::plain`]) and the markdown renderer's escaping
//! (W2): the bytes that may begin an inline construct anywhere (I1–I5), which are the stop
//! bytes of the markdown search bar the line break ([`crate::text::search::Markdown`]), and those
//! that may begin a line prefix at the start of a line (P1–P3, and the blank lines of 2.3).

use crate::text::search::{Markdown, StopSet};

/// Bytes that may begin a line prefix, at a line's start: a space (P1, and blank lines),
/// `>` (P2), `#`, `-`, `+` or a digit (P3).
const PREFIX_BYTES: [u8; 15] = *b" >#-+0123456789";

/// Per byte, whether it is in [`PREFIX_BYTES`].
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static PREFIX: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    while k < PREFIX_BYTES.len() {
        t[PREFIX_BYTES[k] as usize] = true;
        k += 1;
    }
    t
};

/// Whether `b` may begin an inline construct anywhere: `` ` `` (I1, F1), `\` (I2), `{` and
/// `<` (I3), `*` and `_` (I4), `~` (I5). A renderer escapes it (W2).
#[inline]
pub(crate) fn is_inline(b: u8) -> bool {
    b != b'\n' && Markdown::STOPS.is_stop(b)
}

/// Whether `b` may begin a line prefix, at a line's start ([`PREFIX_BYTES`]).
#[inline]
pub(super) fn is_prefix(b: u8) -> bool {
    PREFIX.get(usize::from(b)).copied().unwrap_or(false)
}

/// Whether a line beginning with `b` needs its start read ([`super::lines`]): a byte of
/// [`PREFIX_BYTES`], `*` (a bullet, P3, which is an inline byte too), a backtick (F1), or
/// a line break (an empty line, 2.3).
#[inline]
pub(super) fn line_start_special(b: u8) -> bool {
    is_prefix(b) || matches!(b, b'*' | b'`' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::line_start_special;
    use crate::markdown::lines;

    /// The scan reads a line's start only when [`line_start_special`] says so: every byte
    /// that a prefix, a fence or a blank line can begin with must be on the list (P1–P3,
    /// F1, 2.3).
    #[test]
    fn every_line_start_construct_begins_with_a_listed_byte() {
        for b in 0..=255u8 {
            for rest in [&b" x"[..], b"`` x", b"", b"> y", b"2. z", b"\n"] {
                let mut line = vec![b];
                line.extend_from_slice(rest);
                let raw = &line[..line.iter().position(|&c| c == b'\n').unwrap_or(line.len())];
                let read = lines::prefix(raw).0 > 0
                    || lines::opens_fence(raw).is_some()
                    || lines::is_blank(raw);
                assert!(!read || line_start_special(b), "{:?}", line);
            }
        }
    }

    /// The inline bytes are exactly the ones the spec lists (I1–I5).
    #[test]
    fn the_inline_bytes_are_the_dialects() {
        for b in 0..=255u8 {
            assert_eq!(super::is_inline(b), b"\\`*_~{<".contains(&b), "{b:#x}");
        }
    }
}
