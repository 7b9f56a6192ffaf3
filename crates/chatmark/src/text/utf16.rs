//! UTF-16 arithmetic on UTF-8 text: lengths and byte→unit conversion, done once at the
//! boundary (spec 1: offsets count UTF-16 code units; C5), including the one conversion of
//! both dialects' diagnostics from input bytes to UTF-16 units (L3).
//!
//! # Lengths by excess
//!
//! Markdown's one pass ([`crate::markdown`]) writes its UTF-8 text as it scans, and at each
//! change of style gives the run builder the UTF-16 length of what it wrote since the last.
//! Counting that text would read it a second time. Instead the scan's search
//! ([`crate::text::search::find_counting`]) adds up, over the bytes it passes, how many more bytes
//! than UTF-16 units they hold: their *excess* ([`excess_of`]), one per continuation byte,
//! less one per four-byte lead (a character outside the BMP is two units). Everything the
//! writer drops (prefixes, delimiters, tags, escaping backslashes) is ASCII, a byte and a
//! unit each, so the text written up to a point holds its byte length less the excess read
//! up to that point in UTF-16 units. The sums wrap (modulo 2^64): a four-byte character cut
//! by the end of a chunk counts −1 in that chunk and +1 in the next, so a sum up to a
//! character boundary is exact. Where the text is written from UTF-16 units, or by the
//! walk over marks, it is counted as written instead.

use super::simd::swar::{load8, word_units};

/// The number of UTF-16 code units `s` takes (JavaScript's `String.length`).
///
/// One pass over the bytes: every byte that starts a character counts one unit, and every
/// 4-byte lead (a character outside the BMP) counts one more. On x86-64, sixteen bytes at a
/// time in an SSE2 register; elsewhere 64 bytes at a time in vector lanes the compiler
/// makes. A text shorter than sixteen bytes, a `u64` word at a time.
///
/// # Examples
///
/// ```
/// assert_eq!(chatmark::utf16_len("a😀"), 3);
/// assert_eq!(chatmark::utf16_len("chào"), 4);
/// ```
pub fn utf16_len(s: &str) -> usize {
    utf16_len_of_bytes(s.as_bytes())
}

/// [`utf16_len`] of UTF-8 bytes (for a writer that knows its own text is whole characters:
/// no char-boundary check to make a `str` of it).
#[inline]
pub(crate) fn utf16_len_of_bytes(b: &[u8]) -> usize {
    #[cfg(sse2)]
    if b.len() >= 16 {
        return sse2_units(b);
    }
    if b.len() < 64 {
        return short_units(b);
    }
    let mut chunks = b.chunks_exact(64);
    let mut total = 0;
    for chunk in &mut chunks {
        total += units(chunk);
    }
    total + units(chunks.remainder())
}

/// The farthest character boundary of the UTF-8 bytes `b` that lies at most `n` UTF-16
/// units after the boundary `from`, and how many units that is (split's windows, S3).
///
/// One pass, counted as [`utf16_len`] counts. With SSE2: as many chunks of sixteen bytes as
/// must fit whatever they hold (a byte is at most a unit) are counted together; then chunk
/// by chunk, the text's last sixteen bytes read as one chunk of which only the bytes not
/// yet counted count. In the chunk that does not fit, the first character that does not is
/// read off the chunk's mask of character starts: the one after as many others as units
/// are left, or, when the chunk holds characters outside the BMP (two units each), found
/// start by start. Elsewhere eight bytes a word, then byte by byte (a chunk may end inside
/// a character: its bytes after the lead count nothing).
pub(crate) fn advance(b: &[u8], from: usize, n: usize) -> (usize, usize) {
    let (mut k, mut units) = (from, 0);
    #[cfg(sse2)]
    {
        use crate::text::simd::sse2::{bits, gt, keep_last, load, units as of, Sums, WIDTH};
        // (one unit less: a four-byte lead that ends the chunks counts its second unit)
        let fit = (n.saturating_sub(1) / WIDTH).min(b.len().saturating_sub(k) / WIDTH);
        if let Some(chunks) = b.get(k..k + fit * WIDTH) {
            let mut sums = Sums::new();
            for chunk in chunks.chunks_exact(WIDTH) {
                sums = sums.add(of(load(chunk)));
            }
            units += sums.total();
            k += fit * WIDTH;
        }
        // then chunk by chunk: the one that does not fit holds the answer
        let mut v = None;
        while let Some(chunk) = b.get(k..).and_then(<[u8]>::first_chunk::<WIDTH>) {
            let c = load(chunk);
            let u = Sums::new().add(of(c)).total();
            if units + u > n {
                v = Some((c, 0));
                break;
            }
            units += u;
            k += WIDTH;
        }
        // or the text's last sixteen bytes, of which `seen` were counted
        if v.is_none() && k < b.len() {
            if let Some(last) = b.len().checked_sub(WIDTH).and_then(|last| b.get(last..)) {
                let (c, seen) = (load(last), k + WIDTH - b.len());
                let u = Sums::new().add(keep_last(of(c), WIDTH - seen)).total();
                if units + u <= n {
                    return (b.len(), units + u);
                }
                v = Some((c, seen));
            }
        }
        if let Some((v, seen)) = v {
            // starts of characters, and four-byte leads (signed: -16 to -9), not yet counted
            let mut starts = bits(gt(v, -65)) >> seen;
            let fours = (bits(gt(v, -17)) & !bits(gt(v, -1))) >> seen;
            if fours == 0 {
                // as many characters of one unit as fit, then the next one's start
                for _ in units..n {
                    starts &= starts.wrapping_sub(1);
                }
                return (k + starts.trailing_zeros() as usize, n);
            }
            // the characters one by one, a four-byte lead starting two units
            let mut left = n - units;
            while starts != 0 {
                let at = starts.trailing_zeros();
                let u = 1 + (fours >> at & 1) as usize;
                if u > left {
                    return (k + at as usize, n - left);
                }
                left -= u;
                starts &= starts - 1;
            }
        }
    }
    #[cfg(not(sse2))]
    while let Some(word) = b.get(k..).and_then(<[u8]>::first_chunk::<8>) {
        let u = word_units(u64::from_le_bytes(*word)) as usize;
        if units + u > n {
            break;
        }
        units += u;
        k += 8;
    }
    while let Some(&c) = b.get(k) {
        let u = usize::from((c as i8) >= -0x40) + usize::from(c >= 0xf0);
        if units + u > n {
            break;
        }
        units += u;
        k += 1;
    }
    (k, units)
}

/// How many more bytes than UTF-16 units the UTF-8 `text` holds (its excess, see the
/// module docs).
#[inline]
pub(crate) fn excess_of(text: &[u8]) -> usize {
    if text.is_ascii() {
        return 0;
    }
    text.len() - utf16_len_of_bytes(text)
}

/// [`utf16_len`] of the bytes of `b` from `from` on (whole characters), for a writer that
/// counts what it has just appended: a short tail is read with the bytes before it, as one
/// chunk of sixteen of which only the tail's bytes count.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
pub(crate) fn utf16_len_of_tail(b: &[u8], from: usize) -> usize {
    #[cfg(sse2)]
    {
        use crate::text::simd::sse2::{bits, keep_last, load, units, Sums, WIDTH};
        let n = b.len().saturating_sub(from);
        if n < WIDTH {
            if let Some(last) = b.len().checked_sub(WIDTH).and_then(|k| b.get(k..)) {
                let v = load(last);
                // an ASCII tail (most short pieces of chat text) is a unit per byte
                if bits(v) >> (WIDTH - n) == 0 {
                    return n;
                }
                return Sums::new().add(keep_last(units(v), n)).total();
            }
        }
    }
    long_tail(b.get(from..).unwrap_or_default())
}

/// [`utf16_len_of_bytes`] out of line, for the tails [`utf16_len_of_tail`] does not read
/// as one chunk (sixteen bytes or more, or all of a text shorter than a chunk): inlined into
/// the markdown walk, its loop cost the walk registers.
#[cfg(not(target_arch = "wasm32"))]
#[inline(never)]
fn long_tail(b: &[u8]) -> usize {
    utf16_len_of_bytes(b)
}

/// [`utf16_len`] of at least sixteen bytes, sixteen at a time in an SSE2 register: the
/// last sixteen overlap what came before, and only their new bytes count.
#[cfg(sse2)]
fn sse2_units(b: &[u8]) -> usize {
    use crate::text::simd::sse2::{keep_last, load, units, Sums, WIDTH};
    let mut chunks = b.chunks_exact(WIDTH);
    let mut sums = Sums::new();
    for chunk in &mut chunks {
        sums = sums.add(units(load(chunk)));
    }
    let rest = chunks.remainder().len();
    if rest > 0 {
        if let Some(last) = b.get(b.len() - WIDTH..) {
            sums = sums.add(keep_last(units(load(last)), rest));
        }
    }
    sums.total()
}

/// [`utf16_len`] of at most 64 bytes. Fixed-size chunks with byte-wide counters let the
/// compiler vectorise the loop (at most 64 starts plus 16 four-byte leads: no overflow).
fn units(chunk: &[u8]) -> usize {
    let n = chunk.iter().fold(0u8, |acc, &b| {
        acc.wrapping_add(u8::from((b as i8) >= -0x40))
            .wrapping_add(u8::from(b >= 0xF0))
    });
    usize::from(n)
}

/// [`utf16_len`] of a short text (the pieces of most messages): a word of eight bytes at a
/// time, and the last few bytes within the last eight, shifted (no byte loop past eight).
#[inline]
fn short_units(b: &[u8]) -> usize {
    let Some(last) = b.len().checked_sub(8).and_then(|k| b.get(k..)) else {
        return units(b);
    };
    let mut words = b.chunks_exact(8);
    let mut total = 0;
    for word in &mut words {
        total += word_units(u64::from_le_bytes(load8(word))) as usize;
    }
    let rest = words.remainder().len();
    if rest > 0 {
        // the bytes already counted are shifted out, and the zeros shifted in count one each
        let w = u64::from_le_bytes(load8(last)) >> (8 * (8 - rest));
        total += word_units(w) as usize - (8 - rest);
    }
    total
}

/// Appends `s` to `out` as UTF-16 and returns the number of units written: for hosts whose
/// strings are UTF-16 (the npm package writes every string it returns with it).
///
/// One pass over the bytes after one reservation: `extend(s.encode_utf16())` pushes unit by
/// unit through two iterator calls each, which the size-tuned wasm leaves out of line. (A
/// loop over eight ASCII bytes at a time gains nothing on text with a non-ASCII byte every
/// few, as Vietnamese has.)
///
/// # Examples
///
/// ```
/// let mut out = vec![0x61];
/// assert_eq!(chatmark::push_utf16(&mut out, "é😀"), 3);
/// assert_eq!(out, [0x61, 0xe9, 0xd83d, 0xde00]);
/// ```
pub fn push_utf16(out: &mut Vec<u16>, s: &str) -> usize {
    let before = out.len();
    out.reserve(s.len()); // never more units than bytes
    let mut bytes = s.as_bytes().iter();
    let more = |b: Option<&u8>| u32::from(b.copied().unwrap_or(0x80) & 0x3f);
    while let Some(&b) = bytes.next() {
        let c = match b {
            0..0x80 => u32::from(b),
            0x80..0xe0 => (u32::from(b & 0x1f) << 6) | more(bytes.next()),
            0xe0..0xf0 => {
                let hi = (u32::from(b & 0x0f) << 12) | (more(bytes.next()) << 6);
                hi | more(bytes.next())
            }
            _ => {
                let hi = (u32::from(b & 0x07) << 18) | (more(bytes.next()) << 12);
                let c = (hi | (more(bytes.next()) << 6) | more(bytes.next())) - 0x1_0000;
                out.push(0xd800 | (c >> 10) as u16);
                0xdc00 | (c & 0x3ff)
            }
        };
        out.push(c as u16);
    }
    out.len() - before
}

/// Converts increasing byte offsets of one text into UTF-16 offsets in a single forward walk.
///
/// Offsets must be asked for in non-decreasing order and lie on character boundaries; an
/// offset past the end gives the text's UTF-16 length.
#[derive(Debug)]
pub(crate) struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

impl<'a> Utf16Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Utf16Cursor {
            text,
            byte: 0,
            unit: 0,
        }
    }

    /// UTF-16 offset of byte offset `byte` (≥ every earlier request).
    pub(crate) fn unit_at(&mut self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        if byte > self.byte {
            self.unit += utf16_len(self.text.get(self.byte..byte).unwrap_or(""));
            self.byte = byte;
        }
        self.unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_matches_std_encoder() {
        for s in ["", "abc", "é", "😀", "👨‍👩‍👧", "a\u{FFFD}b", "\u{10FFFF}x"] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
        // every length on both sides of the word, the sixteen-byte and the 64-byte paths,
        // every remainder, every width (U+FFFF and U+10FFFF: the highest leads of three
        // and four bytes)
        let long = "aé中😀bcdefgh\u{7f}\u{80}\u{ffff}\u{10ffff}".repeat(12);
        for (k, _) in long.char_indices() {
            for s in [&long[..k], &long[k..]] {
                assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
            }
        }
    }

    /// The tail of a text counts as the text on its own would, whatever comes before it.
    #[test]
    fn tail_length_is_the_length_of_the_tail() {
        let long = "aé中😀bcdefgh\u{7f}\u{80}\u{ffff}\u{10ffff}".repeat(4);
        let ends: Vec<usize> = long
            .char_indices()
            .map(|(k, _)| k)
            .chain([long.len()])
            .collect();
        for &end in &ends {
            let text = &long[..end];
            for &from in ends.iter().filter(|&&k| k <= end) {
                let want = text[from..].encode_utf16().count();
                assert_eq!(
                    utf16_len_of_tail(text.as_bytes(), from),
                    want,
                    "{text:?} {from}"
                );
            }
        }
    }

    /// `advance` stops at the farthest boundary within `n` units, wherever the chunks end:
    /// from every boundary, for every `n` up to past the end.
    #[test]
    fn advance_stops_at_the_farthest_boundary_within_n_units() {
        // with characters outside the BMP (one whose lead ends a chunk among them), and
        // without (chunks read off their masks)
        for piece in [
            "aé中😀bcdefgh\u{7f}\u{80}\u{ffff}\u{10ffff}",
            "abcdefghijklmno😀",
            "chào bạn đặc ầ\u{ffff}",
        ] {
            let long = piece.repeat(6);
            let ends: Vec<usize> = long
                .char_indices()
                .map(|(k, _)| k)
                .chain([long.len()])
                .collect();
            for &from in &ends {
                for n in 0..=utf16_len(&long[from..]) + 2 {
                    let want = ends
                        .iter()
                        .copied()
                        .filter(|&e| e >= from && utf16_len(&long[from..e]) <= n)
                        .max()
                        .unwrap();
                    let units = utf16_len(&long[from..want]);
                    let got = advance(long.as_bytes(), from, n);
                    assert_eq!(got, (want, units), "{piece:?} {from} {n}");
                }
            }
        }
    }

    #[test]
    fn encodes_every_width_as_std_does() {
        for s in [
            "",
            "ascii",
            "é ß Ж",
            "中文 ‰",
            "😀a👍🏽",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            let mut out = vec![7];
            let n = push_utf16(&mut out, s);
            let want: Vec<u16> = [7].into_iter().chain(s.encode_utf16()).collect();
            assert_eq!(out, want, "{s:?}");
            assert_eq!(n, utf16_len(s));
        }
        // every alignment of every width next to ASCII runs of every length
        let pieces = [
            "a",
            "bcdefgh",
            "é",
            "中",
            "😀",
            "\u{7f}",
            "\u{80}",
            "ijklmnopq",
        ];
        let mut rng = crate::rng::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..5000 {
            let s = rng.text(12, &pieces, &[], 1);
            let mut out = Vec::new();
            assert_eq!(push_utf16(&mut out, &s), utf16_len(&s));
            assert_eq!(out, s.encode_utf16().collect::<Vec<u16>>(), "{s:?}");
        }
    }

    #[test]
    fn cursor_walks_forward() {
        let s = "a😀bé";
        let mut c = Utf16Cursor::new(s);
        assert_eq!(c.unit_at(0), 0);
        assert_eq!(c.unit_at(1), 1);
        assert_eq!(c.unit_at(5), 3);
        assert_eq!(c.unit_at(8), 5);
        assert_eq!(c.unit_at(100), 5);
    }
}
