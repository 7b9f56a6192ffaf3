//! Eight bytes at a time in a `u64` (SWAR): the word tricks the scans share, so that a
//! stretch of plain text costs a few instructions per word rather than per byte. No
//! `unsafe`: words are loaded from slices as arrays. (The searches over texts shorter than
//! a chunk, HTML mode's output and [`crate::utf16_len`] for short texts use them.)
#![cfg_attr(not(feature = "html"), allow(dead_code))]

/// `0x01` in every byte of a word.
pub(crate) const LO: u64 = u64::from_ne_bytes([1; 8]);
/// `0x80` in every byte of a word.
pub(crate) const HI: u64 = LO << 7;

/// The lowest set `0x80` bit marks the first zero byte of `v` (bits above it may be
/// false positives, from the borrow): non-zero exactly when `v` has a zero byte.
#[inline]
pub(crate) const fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(LO) & !v & HI
}

/// Eight bytes as an array for `u64::from_le_bytes`: a plain load in the wasm, where
/// `copy_from_slice` is a call per word (`chunk` always holds eight bytes).
#[inline]
pub(crate) fn load8(chunk: &[u8]) -> [u8; 8] {
    chunk.first_chunk::<8>().copied().unwrap_or([0; 8])
}

/// UTF-16 units of the eight bytes of `w` (whole characters): one per byte that is not a
/// continuation byte, plus one per four-byte lead.
#[inline]
pub(crate) fn word_units(w: u64) -> u32 {
    if w & HI == 0 {
        return 8;
    }
    // Each mask has at most the top bit of a byte set; shifted down to ones, a multiply by
    // LO sums them into the top byte (a popcount without the instruction).
    let ones = |mask: u64| ((mask >> 7).wrapping_mul(LO) >> 56) as u32;
    let continuation = ones(w & !(w << 1) & HI);
    let four = ones(w & (w << 1) & (w << 2) & (w << 3) & HI);
    8 - continuation + four
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_units_count_utf16_units_of_whole_characters() {
        for s in ["abcdefgh", "chàoabc", "😀😀", "ab😀cd", "é€abc"] {
            let b = s.as_bytes();
            assert_eq!(b.len(), 8, "{s:?}");
            let w = u64::from_le_bytes(load8(b));
            assert_eq!(word_units(w) as usize, s.encode_utf16().count(), "{s:?}");
        }
    }
}
