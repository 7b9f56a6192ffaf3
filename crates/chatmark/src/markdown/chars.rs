//! Character classes for emphasis flanking (I4, CommonMark 0.31.2 §6.2): Unicode
//! whitespace, Unicode punctuation (P and S categories), or other. ASCII is decided by a
//! match; the rest by binary search in the generated tables of `unicode.rs`.

use super::unicode::{PUNCTUATION, WHITESPACE};
use crate::text::source::TypedSource;
use crate::text::unit::Unit;

/// The class of the character next to a delimiter run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Whitespace,
    Punctuation,
    Other,
}

fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Classifies one character.
pub(crate) fn class(c: char) -> Class {
    if c.is_ascii() {
        return match c {
            '\t' | '\n' | '\x0C' | '\r' | ' ' => Class::Whitespace,
            c if c.is_ascii_punctuation() => Class::Punctuation,
            _ => Class::Other,
        };
    }
    if in_table(&WHITESPACE, c) {
        Class::Whitespace
    } else if in_table(&PUNCTUATION, c) {
        Class::Punctuation
    } else {
        Class::Other
    }
}

/// Class of the character before `pos`, or whitespace at the start of the message. (The
/// scan asks at delimiter runs only; what precedes a line's content is a space or a line
/// break, so the start of the content reads as whitespace too, as I4 wants.)
#[inline]
pub(super) fn before<'a, T: TypedSource<'a>>(src: T, pos: usize) -> Class {
    // ASCII (most neighbours of markup) without decoding
    match pos.checked_sub(1).and_then(|k| src.units().get(k)) {
        None => Class::Whitespace,
        Some(u) if u.byte() < 0x80 => ascii(u.byte()),
        Some(_) => src
            .source()
            .char_before(pos, 0)
            .map_or(Class::Whitespace, class),
    }
}

/// Class of the character at `pos`, or whitespace at the end of the message (a line break
/// is whitespace too, as I4 wants at the end of a line's content).
#[inline]
pub(super) fn after<'a, T: TypedSource<'a>>(src: T, pos: usize) -> Class {
    let units = src.units();
    match units.get(pos) {
        None => Class::Whitespace,
        Some(u) if u.byte() < 0x80 => ascii(u.byte()),
        Some(_) => src
            .source()
            .char_after(pos, units.len())
            .map_or(Class::Whitespace, class),
    }
}

/// The class of an ASCII byte, from a table.
#[inline]
fn ascii(b: u8) -> Class {
    ASCII.get(usize::from(b)).copied().unwrap_or(Class::Other)
}

/// [`class`] of every ASCII character.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static ASCII: [Class; 128] = {
    let mut t = [Class::Other; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if matches!(c, b'\t' | b'\n' | 0x0c | b'\r' | b' ') {
            Class::Whitespace
        } else if c.is_ascii_punctuation() {
            Class::Punctuation
        } else {
            Class::Other
        };
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        for b in 0..128u8 {
            assert_eq!(ascii(b), class(char::from(b)), "{b}");
        }
        assert_eq!(class(' '), Class::Whitespace);
        assert_eq!(class('\u{A0}'), Class::Whitespace);
        assert_eq!(class('\u{3000}'), Class::Whitespace);
        assert_eq!(class('*'), Class::Punctuation);
        assert_eq!(class('€'), Class::Punctuation); // Sc: symbols count since 0.31
        assert_eq!(class('😀'), Class::Punctuation); // So
        assert_eq!(class('。'), Class::Punctuation);
        assert_eq!(class('a'), Class::Other);
        assert_eq!(class('ạ'), Class::Other);
        assert_eq!(class('\u{200D}'), Class::Other); // ZWJ is Cf
    }
}
