//! Reading the input's units: the fast test of tag-name bytes, and a unit as a byte.

use crate::text::unit::Unit;

/// Bytes of a tag name on the fast paths: lower-case ASCII letters and digits.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
const NAME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_lowercase() || (b as u8).is_ascii_digit();
        b += 1;
    }
    t
};

/// Whether `b` may be part of a tag name on the fast paths ([`NAME_BYTE`]).
#[inline]
pub(super) fn name_byte(b: u8) -> bool {
    NAME_BYTE.get(usize::from(b)).copied().unwrap_or(false)
}

/// The unit at `i` as a byte ([`Unit::byte`]).
#[inline]
pub(super) fn byte_at<U: Unit>(units: &[U], i: usize) -> Option<u8> {
    units.get(i).map(|c| c.byte())
}
