//! The markdown dialect's byte classes, in one place for the parser's inline scan
//! ([`super::inline`]), its fast path ([`super::plain`]) and the markdown renderer's escaping
//! (W2): the bytes that may begin an inline construct anywhere (I1–I5), and those that may
//! begin a line prefix at the start of a line (P1–P3, and the blank lines of 2.3).

use crate::source::Unit;

/// Bytes that may begin an inline construct: `` ` `` (I1, F1), `\` (I2), `{` and `<`
/// (I3), `*` and `_` (I4), `~` (I5).
pub(super) const INLINE_BYTES: [u8; 7] = *b"\\`*_~{<";

/// Bytes that may begin a line prefix, at a line's start: a space (P1, and blank lines),
/// `>` (P2), `#`, `-`, `+` or a digit (P3).
pub(super) const PREFIX_BYTES: [u8; 15] = *b" >#-+0123456789";

/// [`CLASS`] bit of the bytes of [`INLINE_BYTES`].
pub(super) const INLINE: u8 = 1;
/// [`CLASS`] bit of the bytes of [`PREFIX_BYTES`].
pub(super) const PREFIX: u8 = 2;

/// Per byte, its classes ([`INLINE`], [`PREFIX`]); indexed by [`crate::source::Unit::byte`].
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
pub(super) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < INLINE_BYTES.len() {
        t[INLINE_BYTES[k] as usize] |= INLINE;
        k += 1;
    }
    let mut k = 0;
    while k < PREFIX_BYTES.len() {
        t[PREFIX_BYTES[k] as usize] |= PREFIX;
        k += 1;
    }
    t
};

/// Whether `b` may begin an inline construct, as a table for [`crate::source::Source::find_in`].
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
pub(super) static INLINE_TABLE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = CLASS[b] & INLINE != 0;
        b += 1;
    }
    t
};

/// Where the scan stops inside a paragraph line: a byte of [`INLINE_BYTES`] or `\n`.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
pub(super) static SCAN_TABLE: [bool; 256] = {
    let mut t = INLINE_TABLE;
    t[b'\n' as usize] = true;
    t
};

/// The first position at or after `from` whose unit is in [`CANDIDATES`], or `s.len()`:
/// no unit of [`SCAN_TABLE`] comes before it, and a caller reads a near miss
/// ([`NEAR_MISSES`]) there as text. Sixteen units at a time: [`special_mask`] marks the
/// chunk's candidates with vector comparisons, and the first mark is the answer (markup is
/// one unit in twenty or so in chat text); past a first chunk with none, natively two
/// chunks a step. The last sixteen units are one chunk too, overlapping what came before,
/// so that no unit is looked at alone unless the message is shorter than a chunk.
#[inline]
pub(super) fn next_special<U: Unit>(s: &[U], from: usize) -> usize {
    if cfg!(all(target_arch = "wasm32", not(target_feature = "simd128"))) {
        return next_special_by_table(s, from);
    }
    let mut k = from;
    let chunk_at = |k: usize| {
        s.get(k..k + CHUNK)
            .and_then(|c| <&[U; CHUNK]>::try_from(c).ok())
    };
    if let Some(chunk) = chunk_at(k) {
        let mask = special_mask(chunk);
        if mask != 0 {
            return k + first(mask);
        }
        k += CHUNK;
        // a longer stretch of text: two chunks a step, their marks tested together
        // (natively: in the npm package's wasm the bytes of a second loop cost more than
        // its steps save)
        if cfg!(not(target_arch = "wasm32")) {
            while let Some((a, b)) = s
                .get(k..k + 2 * CHUNK)
                .and_then(|c| c.split_first_chunk::<CHUNK>())
                .and_then(|(a, b)| Some((a, <&[U; CHUNK]>::try_from(b).ok()?)))
            {
                let (ma, mb) = (special_mask(a), special_mask(b));
                if ma | mb != 0 {
                    return k + if ma != 0 {
                        first(ma)
                    } else {
                        CHUNK + first(mb)
                    };
                }
                k += 2 * CHUNK;
            }
        }
        while let Some(chunk) = chunk_at(k) {
            let mask = special_mask(chunk);
            if mask != 0 {
                return k + first(mask);
            }
            k += CHUNK;
        }
    }
    if s.len() >= CHUNK {
        let last = s.len() - CHUNK;
        if let Some(chunk) = s.get(last..).and_then(|c| <&[U; CHUNK]>::try_from(c).ok()) {
            // the units before `k` were searched already
            let seen = u32::try_from(k - last).unwrap_or(u32::MAX);
            let mask = special_mask(chunk)
                .checked_shr(seen.saturating_mul(MARK))
                .unwrap_or(0);
            return if mask != 0 { k + first(mask) } else { s.len() };
        }
    }
    let rest = s.get(k..).unwrap_or_default();
    k + rest
        .iter()
        .position(|c| is_special(c.byte()))
        .unwrap_or(rest.len())
}

/// [`next_special`] over UTF-8 for the one pass, which also adds to `excess` how many more
/// bytes than UTF-16 units `from..` holds up to the stop (continuation bytes less
/// four-byte leads, C5): the writer then knows its text's UTF-16 length without counting
/// it, since everything it drops is ASCII. A chunk passed whole is counted only if its high
/// bits show other bytes than ASCII; the chunk that holds the stop is always counted, with
/// no test: whether other bytes come before the stop is a branch the text decides, which
/// mispredicted often enough to cost more time than the count (1.5% to 5% of markdown's
/// time for 1.6% more instructions; `benches/RESULTS.md`, seventh session).
// (with one mask bit a unit, as `cfg(vector)` gives, which every x86-64 build has)
#[cfg(all(target_arch = "x86_64", vector))]
#[inline(always)]
pub(super) fn next_special_counting(s: &[u8], from: usize, excess: &mut usize) -> usize {
    use crate::sse2::{bits, excess_in, load};
    let chunk_at = |k: usize| s.get(k..).and_then(<[u8]>::first_chunk::<CHUNK>);
    // where the last sixteen bytes begin: the loop's bound (with it, a chunk's test is
    // one comparison, where `chunk_at` alone took three: −0.14 M instructions over the
    // bench corpus), then the last chunk, of which the bytes before `k` were seen
    let Some(last) = s.len().checked_sub(CHUNK) else {
        let stop = next_special(s, from);
        *excess += excess_of(s.get(from..stop).unwrap_or_default());
        return stop;
    };
    let mut k = from;
    while k <= last {
        let Some(chunk) = chunk_at(k) else {
            break;
        };
        let v = load(chunk);
        let mask = special_mask(chunk);
        if mask != 0 {
            let at = first(mask);
            *excess = excess.wrapping_add(excess_in(v, 0, at));
            return k + at;
        }
        if bits(v) != 0 {
            *excess = excess.wrapping_add(excess_in(v, 0, CHUNK));
        }
        k += CHUNK;
    }
    let Some(chunk) = chunk_at(last) else {
        return s.len();
    };
    let v = load(chunk);
    let seen = k - last;
    let unseen = |m: Mask| m & Mask::MAX.checked_shl(seen as u32).unwrap_or(0);
    let mask = unseen(special_mask(chunk));
    let at = if mask != 0 { first(mask) } else { CHUNK };
    if (unseen(bits(v)).trailing_zeros() as usize) < at {
        *excess = excess.wrapping_add(excess_in(v, seen, at));
    }
    last + at
}

/// [`next_special_counting`] where the engine has no SSE2: the search, then a count.
#[cfg(not(all(target_arch = "x86_64", vector)))]
#[inline(always)]
pub(super) fn next_special_counting(s: &[u8], from: usize, excess: &mut usize) -> usize {
    let stop = next_special(s, from);
    *excess += excess_of(s.get(from..stop).unwrap_or_default());
    stop
}

/// How many more bytes than UTF-16 units the UTF-8 `text` holds.
#[inline]
pub(super) fn excess_of(text: &[u8]) -> usize {
    if text.is_ascii() {
        return 0;
    }
    text.len() - crate::utf16::utf16_len_of_bytes(text)
}

/// [`next_special`] for a wasm built without SIMD (the npm package's enables `simd128` and
/// takes the vector search): eight units at a time, their table entries combined and tested
/// once.
#[inline]
fn next_special_by_table<U: Unit>(s: &[U], from: usize) -> usize {
    let look = |c: &U| {
        SCAN_TABLE
            .get(usize::from(c.byte()))
            .copied()
            .unwrap_or(false)
    };
    // by the unit's low byte: a UTF-16 unit past U+00FF whose low byte is markup passes
    // too, and the exact look in its chunk then finds nothing
    let bit = |c: &U| {
        SCAN_BITS
            .get(usize::from(c.low_byte()))
            .copied()
            .unwrap_or(0)
    };
    let mut k = from;
    loop {
        let rest = s.get(k..).unwrap_or_default();
        let clear = rest
            .chunks_exact(8)
            .take_while(|chunk| chunk.iter().fold(0, |hit, c| hit | bit(c)) == 0)
            .count();
        k += clear * 8;
        let end = (k + 8).min(s.len());
        if let Some(p) = s.get(k..end).and_then(|chunk| chunk.iter().position(look)) {
            return k + p;
        }
        if end >= s.len() {
            return s.len();
        }
        k = end;
    }
}

/// Units per step of [`next_special`].
const CHUNK: usize = 16;

/// A chunk's marks ([`special_mask`]): a bit per unit with SSE2 or wasm SIMD (the low
/// sixteen bits), a byte per unit elsewhere.
#[cfg(vector)]
type Mask = u32;
/// A chunk's marks ([`special_mask`]): a bit per unit with SSE2 or wasm SIMD (the low
/// sixteen bits), a byte per unit elsewhere.
#[cfg(not(vector))]
type Mask = u128;

/// Bits per unit in a [`Mask`].
#[cfg(vector)]
const MARK: u32 = 1;
/// Bits per unit in a [`Mask`].
#[cfg(not(vector))]
const MARK: u32 = 8;

/// Bit `k` set when unit `k` of `chunk` is in [`CANDIDATES`] (the stop units and
/// [`NEAR_MISSES`]): bit 5 set in every unit, four comparisons, three `or`s and a bitmask
/// (`pmovmskb` with SSE2, `i8x16.bitmask` in the wasm).
#[cfg(vector)]
#[inline(always)]
fn special_mask<U: Unit>(chunk: &[U; CHUNK]) -> Mask {
    use crate::vector::{bits, eq, gt, or, set};
    let v = U::vector(chunk);
    // with bit 5 set, `\n` (0x0A) and `*` (0x2A) are the only bytes that read 0x2A, and the
    // bytes 0x5B to 0x5F and 0x7B to 0x7F (`\`, `_`, `{`, `~` and the near misses) the only
    // ones above 0x7A as signed bytes
    let folded = set(v, FOLD);
    if cfg!(target_arch = "wasm32") {
        // each comparison's bits taken on its own: or-ed as vectors, the masks reach the
        // bitmask through a byte shift pair (and a shuffle for UTF-16), which V8 spells in
        // a dozen x64 instructions (1.5-3.5% of the npm package's `parseMarkdown`)
        return bits(eq(folded, b'*'))
            | bits(gt(folded, FOLDED_ABOVE as i8))
            | bits(eq(v, b'`'))
            | bits(eq(v, b'<'));
    }
    bits(or(
        or(eq(folded, b'*'), gt(folded, FOLDED_ABOVE as i8)),
        or(eq(v, b'`'), eq(v, b'<')),
    ))
}

/// The bit [`special_mask`] sets in every unit before two of its comparisons.
#[cfg(vector)]
const FOLD: u8 = 0x20;

/// [`special_mask`]'s range comparison: folded units above it (and below 0x80) are marks.
#[cfg(vector)]
const FOLDED_ABOVE: u8 = 0x7A;

/// The bytes that [`special_mask`] marks although no construct begins with them, because
/// its range comparison takes them with `\`, `_`, `{` and `~`: `[`, `]`, `^`, `|`, `}` and
/// DEL, all rare in chat text. The scan reads them as text (one look at the unit), and so
/// does the plain test (I7).
#[cfg_attr(not(vector), allow(dead_code))]
pub(super) const NEAR_MISSES: [u8; 6] = *b"[]^|}\x7f";

/// Where [`next_special`] may stop: the units of [`SCAN_TABLE`] and [`NEAR_MISSES`]. Its
/// vector search stops at all of them, its unit-by-unit search only at the former.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
#[cfg_attr(not(vector), allow(dead_code))]
pub(super) static CANDIDATES: [bool; 256] = {
    let mut t = SCAN_TABLE;
    let mut k = 0;
    while k < NEAR_MISSES.len() {
        t[NEAR_MISSES[k] as usize] = true;
        k += 1;
    }
    t
};

// [`special_mask`]'s comparisons, byte by byte, mark exactly [`CANDIDATES`]: checked at
// compile time for every byte value (a UTF-16 unit past U+00FF loads as 0xFF or 0, which
// are not candidates).
#[cfg(vector)]
#[allow(clippy::indexing_slicing)]
const _: () = {
    let mut b = 0;
    while b < 256 {
        let folded = b as u8 | FOLD;
        let marked = folded == b'*'
            || folded as i8 > FOLDED_ABOVE as i8
            || b as u8 == b'`'
            || b as u8 == b'<';
        assert!(
            marked == CANDIDATES[b],
            "special_mask differs from CANDIDATES"
        );
        b += 1;
    }
    assert!(!CANDIDATES[0xff] && !CANDIDATES[0]);
};

/// Byte `k` (little-endian) set to 1 when unit `k` of `chunk` is in [`SCAN_TABLE`]: the
/// compiler vectorises the comparisons, and reads the marks as one number.
#[cfg(not(vector))]
#[inline(always)]
fn special_mask<U: Unit>(chunk: &[U; CHUNK]) -> Mask {
    u128::from_le_bytes(chunk.map(|c| u8::from(is_special(c.byte()))))
}

/// The unit of the lowest mark of a non-zero [`Mask`].
#[inline(always)]
fn first(mask: Mask) -> usize {
    (mask.trailing_zeros() / MARK) as usize
}

/// [`SCAN_TABLE`] as comparisons with [`INLINE_BYTES`] and `\n` (which the compiler can
/// vectorise where a table look does not).
#[inline(always)]
fn is_special(b: u8) -> bool {
    INLINE_BYTES
        .iter()
        .fold(b == b'\n', |hit, &x| hit | (b == x))
}

/// [`SCAN_TABLE`] as bytes (1 where it is true), to be OR-ed without branches.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
pub(super) static SCAN_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = SCAN_TABLE[b] as u8;
        b += 1;
    }
    t
};

/// Whether a line beginning with `b` needs its start read ([`super::lines`]): a byte of
/// [`PREFIX_BYTES`], `*` (a bullet, P3, which is an inline byte too), a backtick (F1), or
/// a line break (an empty line, 2.3).
#[inline]
pub(super) fn line_start_special(b: u8) -> bool {
    CLASS.get(usize::from(b)).copied().unwrap_or(0) & PREFIX != 0
        || matches!(b, b'*' | b'`' | b'\n' | b'\r')
}

/// Whether `b` may begin an inline construct anywhere (so a renderer escapes it, I2).
pub(crate) fn is_inline(b: u8) -> bool {
    INLINE_TABLE.get(usize::from(b)).copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::line_start_special;
    use crate::markdown::lines;

    /// Whether [`super::next_special`] searches with vectors here (its chunks then stop
    /// at the near misses too).
    const VECTOR: bool = cfg!(vector);

    /// The units [`super::special_mask`] marks.
    fn mask_table() -> &'static [bool; 256] {
        if VECTOR {
            &super::CANDIDATES
        } else {
            &super::SCAN_TABLE
        }
    }

    /// The first unit at or after `from` of `s` (unit values) in `table`, or its length.
    fn first_in(s: &[u32], from: usize, table: &[bool; 256]) -> usize {
        (from..s.len())
            .find(|&k| usize::try_from(s[k]).is_ok_and(|v| v < 256 && table[v]))
            .unwrap_or(s.len())
    }

    /// Where both searches must stop in `s` from `from`: the vector search at the first
    /// candidate once `s` fills a chunk (shorter, it looks unit by unit), the table search
    /// at the first stop unit.
    fn wants(s: &[u32], from: usize) -> (usize, usize) {
        let exact = first_in(s, from, &super::SCAN_TABLE);
        let vector = if s.len() >= super::CHUNK {
            first_in(s, from, mask_table())
        } else {
            exact
        };
        // a near miss is text: the vector search never stops past a stop unit
        assert!(vector <= exact);
        (vector, exact)
    }

    /// Checks both searches on `text`, in both encodings, from every position.
    fn check_both(text: &str) {
        let bytes = text.as_bytes();
        let values: Vec<u32> = bytes.iter().map(|&b| u32::from(b)).collect();
        for from in 0..=bytes.len() {
            let (vector, exact) = wants(&values, from);
            assert_eq!(super::next_special(bytes, from), vector, "{text:?} {from}");
            assert_eq!(super::next_special_by_table(bytes, from), exact, "{text:?}");
            if text.is_char_boundary(from) {
                // the one pass's search stops there too, having added the excess of the
                // bytes it passed (C5): those before the stop, none after it, in the stop's
                // chunk as in the chunks passed whole
                let mut excess = 1000;
                let stop = super::next_special_counting(bytes, from, &mut excess);
                assert_eq!(stop, vector, "{text:?} {from}");
                let passed = super::excess_of(&bytes[from..stop]);
                assert_eq!(excess, 1000 + passed, "{text:?} {from}");
            }
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let values: Vec<u32> = units.iter().map(|&u| u32::from(u)).collect();
        for from in 0..=units.len() {
            let (vector, exact) = wants(&values, from);
            assert_eq!(super::next_special(&units, from), vector, "{text:?} {from}");
            assert_eq!(
                super::next_special_by_table(&units, from),
                exact,
                "{text:?}"
            );
        }
    }

    /// The searches find what a unit-by-unit look finds, from every position.
    #[test]
    fn the_next_special_unit_is_the_first_in_the_table() {
        check_both("ab*c\nlonger plain text _d\\e`f~g{h<i}j é😀 **k and a tail");
        check_both("near misses [a] b^c d|e f} g\u{7f} h and then *i*");
        // U+017B's low byte is `{` and U+0A2A's `*`: the chunk filter lets them through,
        // the exact look does not
        check_both("ŻŻŻŻŻŻŻŻŻŻਪਪਪਪਪਪਪਪਪ a\n b ŻŻ*ŻŻŻŻŻŻŻŻŻ 😀 ~");
    }

    /// Every byte value and every UTF-16 unit is a stop exactly when the tables say so,
    /// in the vector search's chunks (full and overlapped) and in the table search: the
    /// comparisons with bit 5 set find nothing else.
    #[test]
    fn each_unit_value_stops_the_search_exactly_when_a_candidate() {
        for b in 0..=u8::MAX {
            let want = |table: &[bool; 256], at: usize, len: usize| {
                if table[usize::from(b)] {
                    at
                } else {
                    len
                }
            };
            for (len, at) in [(20, 5), (20, 17), (40, 33), (64, 20), (64, 40), (100, 90)] {
                let mut s = vec![b'a'; len];
                s[at] = b;
                let vector = want(mask_table(), at, len);
                assert_eq!(super::next_special(&s, 0), vector, "{b:#x}");
                let exact = want(&super::SCAN_TABLE, at, len);
                assert_eq!(super::next_special_by_table(&s, 0), exact, "{b:#x}");
            }
        }
        for u in 0..=u16::MAX {
            let at = |table: &[bool; 256]| {
                if u < 0x100 && table[usize::from(u)] {
                    5
                } else {
                    20
                }
            };
            let mut s = vec![u16::from(b'a'); 20];
            s[5] = u;
            assert_eq!(super::next_special(&s, 0), at(mask_table()), "{u:#x}");
            let exact = at(&super::SCAN_TABLE);
            assert_eq!(super::next_special_by_table(&s, 0), exact, "{u:#x}");
        }
    }

    /// Both searches find what a unit-by-unit look finds, in random text of markup, near
    /// misses, line breaks, long plain stretches and every UTF-8 width, from every position.
    #[test]
    fn both_searches_agree_on_random_text() {
        let pieces = [
            "*",
            "_",
            "~",
            "`",
            "\\",
            "{",
            "<",
            "\n",
            "abcdefghijklmnopq",
            " ",
            "é",
            "中",
            "😀",
            "Ż",
            "ਪ",
            "}",
            "@",
            "|",
            "[",
            "^",
            "\u{7f}",
            // past U+7FFF, with low bytes `\n`, `*` and NUL
            "＊",
            "ꀪ",
            "가",
        ];
        let mut rng = crate::rng::Rng(0x51_7CC1_B727_220A);
        for _ in 0..2000 {
            check_both(&rng.text(40, &pieces, &[], 1));
        }
    }

    /// The comparisons and the table agree on every byte.
    #[test]
    fn the_comparisons_are_the_table() {
        for b in 0..=255u8 {
            assert_eq!(
                super::is_special(b),
                super::SCAN_TABLE[usize::from(b)],
                "{b:#x}"
            );
        }
    }

    /// The chunk mask marks exactly the candidates (with vectors; else the stop units), at
    /// every position of a chunk: every byte, and every UTF-16 unit (those past U+00FF
    /// never, whatever their low byte).
    #[test]
    fn the_chunk_mask_is_the_table_at_every_position() {
        let bit = |hit: bool, k: usize| u128::from(hit) << (k as u32 * super::MARK);
        for k in 0..super::CHUNK {
            for b in 0..=255u8 {
                let mut chunk = [b'a'; super::CHUNK];
                chunk[k] = b;
                let want = bit(mask_table()[usize::from(b)], k);
                assert_eq!(
                    u128::from(super::special_mask(&chunk)),
                    want,
                    "{b:#x} at {k}"
                );
            }
            for u in 0..=u16::MAX {
                let mut chunk = [u16::from(b'a'); super::CHUNK];
                chunk[k] = u;
                let want = bit(u < 0x100 && mask_table()[usize::from(u)], k);
                assert_eq!(
                    u128::from(super::special_mask(&chunk)),
                    want,
                    "{u:#x} at {k}"
                );
            }
        }
    }

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
}
