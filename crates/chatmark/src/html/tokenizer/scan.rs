//! Reading the input: the data state's search for `<`, `&` and `\r` sixteen bytes at a time
//! (SSE2) or a word at a time (SWAR), the fast test of tag-name bytes, and the copying of
//! names and values out of either encoding (UTF-16 units decoded on demand) for
//! [`TypedSource`](crate::source::TypedSource).

use crate::source::Unit;
use crate::swar::{load8, zero_bytes, LO};

/// The `0x80` bits of the bytes of `w` that are `<`, `&` or `\r` (exact up to the first).
#[inline(always)]
pub(super) const fn special_bytes(w: u64) -> u64 {
    zero_bytes(w ^ (LO * b'<' as u64))
        | zero_bytes(w ^ (LO * b'&' as u64))
        | zero_bytes(w ^ (LO * b'\r' as u64))
}

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
#[inline(always)]
pub(super) fn name_byte(b: u8) -> bool {
    NAME_BYTE.get(usize::from(b)).copied().unwrap_or(false)
}

/// Index of the first `<`, `&` or `\r` in `hay`: the bytes the data state stops at. With
/// SSE2, sixteen bytes at a time when there are that many (the rest of the message); else
/// eight at a time (SWAR).
#[inline]
pub(crate) fn find_special(hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if hay.len() >= crate::sse2::WIDTH {
        return find_special_sse2(hay);
    }
    let mut chunks = hay.chunks_exact(8);
    let mut off = 0;
    for chunk in &mut chunks {
        let word = load8(chunk);
        let m = special_bytes(u64::from_le_bytes(word));
        if m != 0 {
            return Some(off + (m.trailing_zeros() / 8) as usize);
        }
        off += 8;
    }
    let rest = chunks.remainder();
    match hay.len().checked_sub(8).and_then(|k| hay.get(k..)) {
        Some(last) if !rest.is_empty() => {
            // The last eight bytes again: the ones already read hold no match, hence no
            // zero byte to borrow from, so shifting them out leaves exact bits.
            let word = load8(last);
            let m = special_bytes(u64::from_le_bytes(word)) >> (8 * (8 - rest.len()));
            (m != 0).then(|| off + (m.trailing_zeros() / 8) as usize)
        }
        _ => rest
            .iter()
            .position(|&b| matches!(b, b'<' | b'&' | b'\r'))
            .map(|p| off + p),
    }
}

/// [`find_special`] in at least sixteen bytes, sixteen at a time in an SSE2 register (the
/// last sixteen overlapping what came before).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn find_special_sse2(hay: &[u8]) -> Option<usize> {
    use crate::sse2::{bits, eq, load, or, WIDTH};
    let special = |chunk: &[u8]| {
        let v = load(chunk);
        bits(or(or(eq(v, b'<'), eq(v, b'&')), eq(v, b'\r')))
    };
    let mut chunks = hay.chunks_exact(WIDTH);
    let mut off = 0;
    for chunk in &mut chunks {
        let m = special(chunk);
        if m != 0 {
            return Some(off + m.trailing_zeros() as usize);
        }
        off += WIDTH;
    }
    let rest = chunks.remainder().len();
    let last = hay.get(hay.len() - WIDTH..).filter(|_| rest > 0)?;
    let m = special(last) >> (WIDTH - rest);
    (m != 0).then(|| off + m.trailing_zeros() as usize)
}

/// Appends the characters of units `a..b` to `out`, ASCII-lowercased when `lower` (names),
/// NUL read as U+FFFD when `nul` (names and values); a lone surrogate, which well-formed
/// input has none of, reads as U+FFFD. Runs of other ASCII (names and most values) go
/// through a byte buffer, a `push_str` per run: pushing character by character was a sixth
/// of `parseHtml` in the npm package.
pub(crate) fn decode_into(
    units: &[u16],
    a: usize,
    b: usize,
    out: &mut String,
    lower: bool,
    nul: bool,
) {
    let mut rest = units.get(a..b).unwrap_or_default();
    let mut buf = [0u8; 32];
    while !rest.is_empty() {
        let mut n = 0;
        for (slot, &u) in buf.iter_mut().zip(rest) {
            if u == 0 || u >= 0x80 {
                break;
            }
            let b = u as u8;
            *slot = if lower { b.to_ascii_lowercase() } else { b };
            n += 1;
        }
        if n > 0 {
            out.push_str(core::str::from_utf8(buf.get(..n).unwrap_or_default()).unwrap_or(""));
            rest = rest.get(n..).unwrap_or_default();
            continue;
        }
        let c = char::decode_utf16(rest.iter().copied())
            .next()
            .map_or(char::REPLACEMENT_CHARACTER, |c| {
                c.unwrap_or(char::REPLACEMENT_CHARACTER)
            });
        out.push(match c {
            '\0' if nul => char::REPLACEMENT_CHARACTER,
            c => c,
        });
        rest = rest.get(c.len_utf16()..).unwrap_or_default();
    }
}

/// Appends `s` to `out` ASCII-lowercased, NUL becoming U+FFFD (tag and attribute names).
pub(crate) fn push_name(out: &mut String, s: &str) {
    if !s.bytes().any(|b| b == 0 || b.is_ascii_uppercase()) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        out.push(match c {
            '\0' => '\u{FFFD}',
            c => c.to_ascii_lowercase(),
        });
    }
}

/// Appends `s` to `out` with NUL becoming U+FFFD (attribute values; `s` holds no `\r`).
pub(crate) fn push_value(out: &mut String, s: &str) {
    let mut parts = s.split('\0');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for part in parts {
        out.push('\u{FFFD}');
        out.push_str(part);
    }
}

/// The unit at `i` as a byte ([`Unit::byte`]).
#[inline(always)]
pub(super) fn byte_at<U: Unit>(units: &[U], i: usize) -> Option<u8> {
    units.get(i).map(|c| c.byte())
}
