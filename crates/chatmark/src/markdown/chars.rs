//! Character classes for emphasis flanking (I4, CommonMark 0.31.2 §6.2): Unicode
//! whitespace, Unicode punctuation (P and S categories), or other. ASCII is decided by a
//! match; the rest by binary search in the generated tables of `unicode.rs`.

use super::unicode::{PUNCTUATION, WHITESPACE};
use crate::source::Source;

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

/// Class of the character before `pos`, or whitespace at the start of the line content.
pub(super) fn before(src: Source<'_>, pos: usize, line_start: usize) -> Class {
    // ASCII (most neighbours of markup) without decoding
    match src.byte(pos.wrapping_sub(1)) {
        Some(b) if b < 0x80 && pos > line_start => class(char::from(b)),
        _ => src
            .char_before(pos, line_start)
            .map_or(Class::Whitespace, class),
    }
}

/// Class of the character at `pos`, or whitespace at the end of the line content.
pub(super) fn after(src: Source<'_>, pos: usize, line_end: usize) -> Class {
    match src.byte(pos) {
        Some(b) if b < 0x80 && pos < line_end => class(char::from(b)),
        _ => src
            .char_after(pos, line_end)
            .map_or(Class::Whitespace, class),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
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
