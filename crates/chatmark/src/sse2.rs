//! Sixteen bytes at a time in an SSE2 register (every x86-64 processor has SSE2): the
//! vector forms of [`crate::swar`]'s word tricks, for the searches and counts that run over
//! every byte of a message (the markdown scan's stop bytes, HTML's data state, UTF-16
//! lengths). No `unsafe` here: the `safe_arch` crate wraps each instruction in a safe
//! function, compiled in when the target has the feature.
#![cfg_attr(not(feature = "html"), allow(dead_code))]

pub(crate) use safe_arch::m128i;
use safe_arch::{
    bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i,
    pack_i16_to_u8_m128i, set_splat_i8_m128i,
};

/// Bytes per register.
pub(crate) const WIDTH: usize = 16;

/// The first sixteen bytes of `chunk` (callers pass sixteen; a shorter one reads as zeros).
#[inline(always)]
pub(crate) fn load(chunk: &[u8]) -> m128i {
    load_unaligned_m128i(chunk.first_chunk().unwrap_or(&[0; WIDTH]))
}

/// Sixteen UTF-16 units as sixteen bytes, packed with unsigned saturation (`packuswb`,
/// which reads each unit as signed): up to U+00FF itself, U+0100 to U+7FFF as `0xFF`, the
/// rest as 0. Neither is ASCII, so comparisons with ASCII bytes read them as non-ASCII.
#[inline(always)]
pub(crate) fn load_utf16(chunk: &[u16; WIDTH]) -> m128i {
    let half = |h: Option<&[u16; 8]>| m128i::from(h.copied().unwrap_or_default());
    pack_i16_to_u8_m128i(half(chunk.first_chunk()), half(chunk.last_chunk()))
}

/// `0xFF` in the bytes of `v` that are `b`, `0` in the others.
#[inline(always)]
pub(crate) fn eq(v: m128i, b: u8) -> m128i {
    cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b as i8))
}

/// `a | b`, bytewise.
#[inline(always)]
pub(crate) fn or(a: m128i, b: m128i) -> m128i {
    bitor_m128i(a, b)
}

/// Bit `k` set when byte `k` of `v` has its top bit set (`pmovmskb`): sixteen bits.
#[inline(always)]
pub(crate) fn bits(v: m128i) -> u32 {
    move_mask_i8_m128i(v) as u32
}
