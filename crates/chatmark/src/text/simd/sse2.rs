//! Sixteen bytes at a time in an SSE2 register (every x86-64 processor has SSE2): the
//! vector forms of [`super::swar`]'s word tricks, for the searches and counts that run over
//! every byte of a message (the markdown scan's stop bytes, HTML's data state, UTF-16
//! lengths). No `unsafe` here: the `safe_arch` crate wraps each instruction in a safe
//! function, compiled in when the target has the feature.

pub(crate) use safe_arch::m128i;
use safe_arch::{
    add_i64_m128i, add_i8_m128i, bitand_m128i, bitandnot_m128i, bitor_m128i,
    byte_shr_imm_u128_m128i, cmp_eq_mask_i16_m128i, cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i,
    get_i64_from_m128i_s, load_unaligned_m128i, move_mask_i8_m128i, pack_i16_to_i8_m128i,
    pack_i16_to_u8_m128i, set_splat_i16_m128i, set_splat_i8_m128i, shl_imm_u16_m128i, sub_i8_m128i,
    sum_of_u8_abs_diff_m128i, zeroed_m128i,
};

/// Bytes per register.
pub(crate) const WIDTH: usize = 16;

/// The first sixteen bytes of `chunk` (callers pass sixteen; a shorter one reads as zeros).
#[inline]
pub(crate) fn load(chunk: &[u8]) -> m128i {
    load_unaligned_m128i(chunk.first_chunk().unwrap_or(&[0; WIDTH]))
}

/// Sixteen UTF-16 units as sixteen bytes, packed with unsigned saturation (`packuswb`,
/// which reads each unit as signed): up to U+00FF itself, U+0100 to U+7FFF as `0xFF`, the
/// rest as 0. Neither is ASCII, so comparisons with ASCII bytes read them as non-ASCII.
#[inline]
pub(crate) fn load_utf16(chunk: &[u16; WIDTH]) -> m128i {
    let half = |h: Option<&[u16; 8]>| m128i::from(h.copied().unwrap_or_default());
    pack_i16_to_u8_m128i(half(chunk.first_chunk()), half(chunk.last_chunk()))
}

/// `0xFF` in the bytes of `v` that are `b`, `0` in the others.
#[inline]
pub(crate) fn eq(v: m128i, b: u8) -> m128i {
    cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b as i8))
}

/// `0xFF` in the bytes of `v` greater than `b`, both read as signed (so never a byte from
/// `0x80` up), `0` in the others.
#[inline]
pub(crate) fn gt(v: m128i, b: i8) -> m128i {
    cmp_gt_mask_i8_m128i(v, set_splat_i8_m128i(b))
}

/// The bytes of `v` with the bits of `m` set.
#[inline]
pub(crate) fn set(v: m128i, m: u8) -> m128i {
    bitor_m128i(v, set_splat_i8_m128i(m as i8))
}

/// Sixteen zero bytes.
#[inline]
pub(crate) fn zero() -> m128i {
    zeroed_m128i()
}

/// `a | b`, bytewise.
#[inline]
pub(crate) fn or(a: m128i, b: m128i) -> m128i {
    bitor_m128i(a, b)
}

/// The sixteen bytes of `v` as one little-endian number.
#[inline]
pub(crate) fn to_u128(v: m128i) -> u128 {
    u128::from(v)
}

/// Of sixteen UTF-16 units, bit `k` set when unit `k` is a surrogate (U+D800 to U+DFFF):
/// each unit's top five bits compared, eight units a register, the results packed to bytes
/// and their top bits taken.
#[inline]
pub(crate) fn surrogates(chunk: &[u16; WIDTH]) -> u32 {
    let (a, b) = halves(chunk);
    let top = set_splat_i16_m128i(0xf800_u16 as i16);
    let is = |v: m128i| {
        cmp_eq_mask_i16_m128i(bitand_m128i(v, top), set_splat_i16_m128i(0xd800_u16 as i16))
    };
    bits(pack_i16_to_i8_m128i(is(a), is(b)))
}

/// Of sixteen UTF-16 units, bit `k` set when unit `k` has bit 10 set (the bit that makes a
/// surrogate low): each unit shifted left by five and packed with signed saturation, so
/// that its sign is that bit.
#[inline]
pub(crate) fn bit10s(chunk: &[u16; WIDTH]) -> u32 {
    let (a, b) = halves(chunk);
    bits(pack_i16_to_i8_m128i(
        shl_imm_u16_m128i::<5>(a),
        shl_imm_u16_m128i::<5>(b),
    ))
}

/// Sixteen UTF-16 units in two registers of eight.
#[inline]
fn halves(chunk: &[u16; WIDTH]) -> (m128i, m128i) {
    let half = |h: Option<&[u16; 8]>| m128i::from(h.copied().unwrap_or_default());
    (half(chunk.first_chunk()), half(chunk.last_chunk()))
}

/// Bit `k` set when byte `k` of `v` has its top bit set (`pmovmskb`): sixteen bits.
#[inline]
pub(crate) fn bits(v: m128i) -> u32 {
    move_mask_i8_m128i(v) as u32
}

/// The UTF-16 units each byte of `v` stands for, as bytes: 1 for a byte that starts a
/// character, 2 for a four-byte lead (a character outside the BMP), 0 for a continuation.
#[inline]
pub(crate) fn units(v: m128i) -> m128i {
    // signed, continuation bytes are -128 to -65 and four-byte leads -16 to -9
    let start = cmp_gt_mask_i8_m128i(v, set_splat_i8_m128i(-65));
    let four = bitandnot_m128i(
        cmp_gt_mask_i8_m128i(v, set_splat_i8_m128i(-1)),
        cmp_gt_mask_i8_m128i(v, set_splat_i8_m128i(-17)),
    );
    // each is -1 where it holds
    sub_i8_m128i(zeroed_m128i(), add_i8_m128i(start, four))
}

/// The excess of bytes `a..b` of `v` (UTF-8: their continuation bytes less their four-byte
/// leads), modulo 2^64 ([`crate::text::utf16`], "Lengths by excess").
#[inline]
pub(crate) fn excess_in(v: m128i, a: usize, b: usize) -> usize {
    (b - a).wrapping_sub(Sums::new().add(keep(units(v), a, b)).total())
}

/// A running total of byte values: [`Sums::add`] folds sixteen bytes into two 64-bit lanes
/// (`psadbw`), [`Sums::total`] adds the lanes.
#[derive(Clone, Copy)]
pub(crate) struct Sums(m128i);

impl Sums {
    /// Nothing added yet.
    #[inline]
    pub(crate) fn new() -> Self {
        Sums(zeroed_m128i())
    }

    /// Adds the sixteen bytes of `v`, read as unsigned.
    #[inline]
    pub(crate) fn add(self, v: m128i) -> Self {
        Sums(add_i64_m128i(
            self.0,
            sum_of_u8_abs_diff_m128i(v, zeroed_m128i()),
        ))
    }

    /// The sum of every byte added.
    #[inline]
    pub(crate) fn total(self) -> usize {
        let lanes = get_i64_from_m128i_s(self.0)
            + get_i64_from_m128i_s(byte_shr_imm_u128_m128i::<8>(self.0));
        lanes as usize
    }
}

/// `v` with only its bytes `a..b` kept (the others zero), for a chunk that holds bytes
/// read before or after the ones that count: `a <= b <= 16`.
#[inline]
pub(crate) fn keep(v: m128i, a: usize, b: usize) -> m128i {
    // KEEP[16 - a..] is 0xFF from byte a on, KEEP[32 - b..] up to byte b
    let from = KEEP
        .get(WIDTH.saturating_sub(a)..)
        .map_or(v, |m| bitand_m128i(v, load(m)));
    KEEP.get((2 * WIDTH).saturating_sub(b)..)
        .map_or(from, |m| bitand_m128i(from, load(m)))
}

/// `v` with only its last `n` bytes kept (`n` up to 16): [`keep`] of `16 - n..16`.
#[inline]
pub(crate) fn keep_last(v: m128i, n: usize) -> m128i {
    keep(v, WIDTH.saturating_sub(n), WIDTH)
}

/// Sixteen zeros, sixteen `0xFF`s, sixteen zeros: the masks of [`keep`].
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static KEEP: [u8; 3 * WIDTH] = {
    let mut t = [0u8; 3 * WIDTH];
    let mut k = WIDTH;
    while k < 2 * WIDTH {
        t[k] = 0xFF;
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_per_byte_are_utf8_starts_and_four_byte_leads() {
        for b in 0..=255u8 {
            let want = match b {
                0x80..=0xBF => 0,
                0xF0..=0xFF => 2,
                _ => 1,
            };
            let got: [u8; WIDTH] = units(load(&[b; WIDTH])).into();
            assert_eq!(got, [want; WIDTH], "{b:#x}");
        }
    }

    #[test]
    fn keep_keeps_the_bytes_of_its_range() {
        let v = load(&core::array::from_fn::<u8, WIDTH, _>(|k| k as u8 + 1));
        for a in 0..=WIDTH {
            for b in a..=WIDTH {
                let got: [u8; WIDTH] = keep(v, a, b).into();
                let want: [u8; WIDTH] =
                    core::array::from_fn(|k| if (a..b).contains(&k) { k as u8 + 1 } else { 0 });
                assert_eq!(got, want, "{a}..{b}");
            }
        }
    }

    #[test]
    fn keep_last_keeps_the_last_n_bytes() {
        let v = load(&[7; WIDTH]);
        for n in 0..=WIDTH {
            let got: [u8; WIDTH] = keep_last(v, n).into();
            let kept = got.iter().filter(|&&b| b == 7).count();
            assert_eq!(kept, n);
            assert!(got[WIDTH - n..].iter().all(|&b| b == 7));
        }
        assert_eq!(Sums::new().add(v).add(v).total(), 7 * 32);
    }
}
