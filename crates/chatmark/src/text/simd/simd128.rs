//! Sixteen bytes at a time in a wasm SIMD register, for the npm package (built with
//! `simd128`, which every browser engine has had since 2023): the operations of
//! [`crate::text::simd::sse2`] that the markdown scan's stop-byte search and its tag names (I3) use,
//! under the same names, so that their code is one for both targets (through
//! [`crate::text::simd::vector`]), and the UTF-16 input's surrogate pairing (L2). No `unsafe` here: the
//! intrinsics are safe functions where the feature is enabled, and loads go through arrays.

pub(crate) use core::arch::wasm32::v128 as m128i;
use core::arch::wasm32::{
    i16x8_eq, i16x8_shl, i8x16_bitmask, i8x16_eq, i8x16_gt, i8x16_narrow_i16x8, i8x16_splat, u16x8,
    u16x8_splat, u64x2_extract_lane, u8x16, u8x16_narrow_i16x8, u8x16_splat, v128_and, v128_or,
};

/// Bytes per register.
pub(crate) const WIDTH: usize = 16;

/// The first sixteen bytes of `chunk` (callers pass sixteen; a shorter one reads as zeros).
#[inline]
pub(crate) fn load(chunk: &[u8]) -> m128i {
    let [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] =
        *chunk.first_chunk().unwrap_or(&[0; WIDTH]);
    u8x16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
}

/// Sixteen UTF-16 units as sixteen bytes, narrowed with unsigned saturation (each unit read
/// as signed, as SSE2's `packuswb`): up to U+00FF itself, U+0100 to U+7FFF as `0xFF`, the
/// rest as 0. Neither is ASCII, so comparisons with ASCII bytes read them as non-ASCII.
#[inline]
pub(crate) fn load_utf16(chunk: &[u16; WIDTH]) -> m128i {
    let (a, b) = halves(chunk);
    u8x16_narrow_i16x8(a, b)
}

/// `0xFF` in the bytes of `v` that are `b`, `0` in the others.
#[inline]
pub(crate) fn eq(v: m128i, b: u8) -> m128i {
    i8x16_eq(v, u8x16_splat(b))
}

/// `0xFF` in the bytes of `v` greater than `b`, both read as signed (so never a byte from
/// `0x80` up), `0` in the others.
#[inline]
pub(crate) fn gt(v: m128i, b: i8) -> m128i {
    i8x16_gt(v, i8x16_splat(b))
}

/// The bytes of `v` with the bits of `m` set.
#[inline]
pub(crate) fn set(v: m128i, m: u8) -> m128i {
    v128_or(v, u8x16_splat(m))
}

/// Sixteen zero bytes.
#[inline]
pub(crate) fn zero() -> m128i {
    u8x16_splat(0)
}

/// `a | b`, bytewise.
#[inline]
pub(crate) fn or(a: m128i, b: m128i) -> m128i {
    v128_or(a, b)
}

/// The sixteen bytes of `v` as one little-endian number.
#[inline]
pub(crate) fn to_u128(v: m128i) -> u128 {
    u128::from(u64x2_extract_lane::<0>(v)) | u128::from(u64x2_extract_lane::<1>(v)) << 64
}

/// Bit `k` set when byte `k` of `v` has its top bit set (`i8x16.bitmask`): sixteen bits.
#[inline]
pub(crate) fn bits(v: m128i) -> u32 {
    u32::from(i8x16_bitmask(v))
}

/// Of sixteen UTF-16 units, bit `k` set when unit `k` is a surrogate (U+D800 to U+DFFF):
/// each unit's top five bits compared, eight units a register, the results narrowed to
/// bytes and their top bits taken.
#[inline]
pub(crate) fn surrogates(chunk: &[u16; WIDTH]) -> u32 {
    let (a, b) = halves(chunk);
    let is = |v: m128i| i16x8_eq(v128_and(v, u16x8_splat(0xf800)), u16x8_splat(0xd800));
    bits(i8x16_narrow_i16x8(is(a), is(b)))
}

/// Of sixteen UTF-16 units, bit `k` set when unit `k` has bit 10 set (the bit that makes a
/// surrogate low): each unit shifted left by five and narrowed with signed saturation, so
/// that its sign is that bit.
#[inline]
pub(crate) fn bit10s(chunk: &[u16; WIDTH]) -> u32 {
    let (a, b) = halves(chunk);
    bits(i8x16_narrow_i16x8(i16x8_shl(a, 5), i16x8_shl(b, 5)))
}

/// Sixteen UTF-16 units in two registers of eight, each copied out of an eight-unit array
/// reference: the sixteen destructured at once compiled to a `v128.load16_lane` per unit
/// (`bindings/wasm/test/wasm-code.test.mjs` checks that no lane load is left).
#[inline]
fn halves(chunk: &[u16; WIDTH]) -> (m128i, m128i) {
    let half = |h: Option<&[u16; 8]>| {
        let [a, b, c, d, e, f, g, h] = *h.unwrap_or(&[0; 8]);
        u16x8(a, b, c, d, e, f, g, h)
    };
    (half(chunk.first_chunk()), half(chunk.last_chunk()))
}
