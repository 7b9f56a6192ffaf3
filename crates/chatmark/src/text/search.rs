//! Searching a message's units: the one home of every search over the bytes of a message
//! (markdown's inline scan and its fast path, I1–I7; HTML's data state, H1; a single byte
//! such as a line break or a backtick), made of the vector and word operations of
//! [`super::simd`].
//!
//! A search stops at a set of ASCII bytes, and each set is one table of data: a type
//! implementing [`StopSet`] lists its bytes ([`Markdown`], [`Html`], [`LineBreaks`]).
//! Three forms read the table, one compiled per target:
//!
//! - **SSE2** on x86-64 (`sse2`, through `safe_arch`'s safe wrappers) and **`simd128`** in
//!   the npm package's wasm (`simd128`): sixteen units a register (`vector` is the
//!   target's), each set's [`Compare`]s made on all sixteen at once;
//! - **portable** everywhere else (aarch64 servers, and x86-64 built with
//!   `--cfg chatmark_portable`, which `scripts/test` runs): the same comparisons on sixteen
//!   units at a time as an array, which the compiler vectorises where it can.
//!
//! Every form stops at the same units: the set's bytes, and the *near misses* of its
//! shortcuts (a shortcut compares once for several stop bytes, and may take a few other
//! bytes with them, [`Stops::is_near_miss`]). A caller reads a near miss as text. Adding a
//! stop byte to a set is one byte more in its [`Stops::new`]: a byte no shortcut takes gets
//! a comparison of its own, and the tests below prove that every form stops exactly where
//! the table says, for every unit value at every position of a chunk.
//!
//! UTF-16 units go through the same comparisons as bytes ([`Unit::byte`]): a unit past
//! U+00FF reads as a non-ASCII byte, never as one of a set's ASCII bytes.

#[cfg(sse2)]
use super::simd::sse2;
#[cfg(vector)]
use super::simd::vector;
use super::unit::Unit;

/// One comparison of a search's chunk, made on every unit at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compare {
    /// The unit is the byte.
    Is(u8),
    /// The unit with bit 5 set (`| 0x20`) is the byte: one comparison for two bytes that
    /// differ only in that bit (`\n` and `*`).
    FoldedIs(u8),
    /// The unit with bit 5 set is above the byte and below `0x80` (compared as signed
    /// bytes): one comparison for a range, the bytes in it that are not stops being near
    /// misses.
    FoldedAbove(u8),
}

impl Compare {
    /// Whether the comparison takes the byte `b`.
    const fn takes(self, b: u8) -> bool {
        match self {
            Compare::Is(x) => b == x,
            Compare::FoldedIs(x) => b | 0x20 == x,
            Compare::FoldedAbove(x) => (b | 0x20) as i8 > x as i8,
        }
    }
}

/// Most comparisons a set's chunk may make.
const MOST: usize = 8;

/// A set of stop bytes and the comparisons that find them, built at compile time from a
/// [`StopSet`] by [`Stops::new`].
#[derive(Debug)]
pub(crate) struct Stops {
    /// The stop bytes, a bit each.
    stop: Bytes,
    /// The bytes the comparisons take, a bit each: the stops and the near misses.
    taken: Bytes,
    /// The comparisons, the first [`Stops::count`] of them in use.
    compares: [Compare; MOST],
    count: usize,
}

impl Stops {
    /// The stops of `bytes`, found by `shortcuts` and by one [`Compare::Is`] for each byte
    /// no shortcut takes. Fails the build if a byte is not ASCII, if the set would stop at
    /// NUL or `0xFF` (what UTF-16 units past U+00FF load as), or if it needs more than
    /// [`MOST`] comparisons.
    // Evaluated at compile time: an index out of bounds would fail the build, not panic.
    #[allow(clippy::indexing_slicing)]
    pub(crate) const fn new(bytes: &[u8], shortcuts: &[Compare]) -> Stops {
        let mut s = Stops {
            stop: Bytes::NONE,
            taken: Bytes::NONE,
            compares: [Compare::Is(0); MOST],
            count: 0,
        };
        let mut k = 0;
        while k < shortcuts.len() {
            s = s.with(shortcuts[k]);
            k += 1;
        }
        let mut k = 0;
        while k < bytes.len() {
            let b = bytes[k];
            assert!(b.is_ascii() && b != 0, "a stop byte is ASCII and not NUL");
            s.stop = s.stop.with(b);
            if !s.taken.has(b) {
                s = s.with(Compare::Is(b));
            }
            k += 1;
        }
        assert!(
            !s.taken.has(0) && !s.taken.has(0xff),
            "NUL and 0xFF are never taken"
        );
        s
    }

    /// `self` with one more comparison.
    // Evaluated at compile time: an index out of bounds would fail the build, not panic.
    #[allow(clippy::indexing_slicing)]
    const fn with(mut self, c: Compare) -> Stops {
        assert!(self.count < MOST, "too many comparisons for one search");
        self.compares[self.count] = c;
        self.count += 1;
        let mut b = 0;
        while b < 256 {
            if c.takes(b as u8) {
                self.taken = self.taken.with(b as u8);
            }
            b += 1;
        }
        self
    }

    /// Whether `b` is one of the set's bytes.
    #[inline]
    pub(crate) fn is_stop(&self, b: u8) -> bool {
        self.stop.has(b)
    }

    /// Whether the search stops at `b` although it is not one of the set's bytes.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn is_near_miss(&self, b: u8) -> bool {
        self.taken(b) && !self.is_stop(b)
    }

    /// Whether the search stops at `b`: a stop or a near miss.
    #[inline]
    fn taken(&self, b: u8) -> bool {
        self.taken.has(b)
    }

    /// `f` folded over the comparisons in use, from `init`. Spelled out step by step: with
    /// the set a constant, each step folds to its comparison or to nothing at any
    /// optimisation level, where a loop would stay a loop in the size-tuned wasm.
    #[inline(always)]
    pub(crate) fn fold<T>(&self, init: T, f: impl Fn(T, Compare) -> T) -> T {
        let [c0, c1, c2, c3, c4, c5, c6, c7] = self.compares;
        let n = self.count;
        let mut acc = init;
        if n > 0 {
            acc = f(acc, c0);
        }
        if n > 1 {
            acc = f(acc, c1);
        }
        if n > 2 {
            acc = f(acc, c2);
        }
        if n > 3 {
            acc = f(acc, c3);
        }
        if n > 4 {
            acc = f(acc, c4);
        }
        if n > 5 {
            acc = f(acc, c5);
        }
        if n > 6 {
            acc = f(acc, c6);
        }
        if n > 7 {
            acc = f(acc, c7);
        }
        acc
    }
}

/// A set of bytes, a bit each.
#[derive(Clone, Copy, Debug)]
struct Bytes([u64; 4]);

impl Bytes {
    /// No byte.
    const NONE: Bytes = Bytes([0; 4]);

    /// The set with `b`.
    // Evaluated at compile time: an index out of bounds would fail the build, not panic.
    #[allow(clippy::indexing_slicing)]
    const fn with(mut self, b: u8) -> Bytes {
        self.0[b as usize >> 6] |= 1 << (b & 63);
        self
    }

    /// Whether `b` is in the set.
    #[inline]
    const fn has(self, b: u8) -> bool {
        let [w0, w1, w2, w3] = self.0;
        let word = match b >> 6 {
            0 => w0,
            1 => w1,
            2 => w2,
            _ => w3,
        };
        word >> (b & 63) & 1 != 0
    }
}

/// A set of bytes a search stops at, as a type, so that each set's search is compiled
/// with its comparisons as constants.
pub(crate) trait StopSet {
    /// The set, from its bytes and shortcuts ([`Stops::new`]).
    const STOPS: Stops;
}

/// Markdown's inline scan (I1–I5): the bytes that may begin an inline construct anywhere
/// in a line — `` ` `` (I1, F1), `\` (I2), `{` and `<` (I3), `*` and `_` (I4), `~` (I5) —
/// and the line break, where the scan reads the next line's start. Two shortcuts take six
/// of them in two comparisons; their near misses `[`, `]`, `^`, `|`, `}` and DEL are rare
/// in chat text.
pub(crate) enum Markdown {}

impl StopSet for Markdown {
    const STOPS: Stops = Stops::new(
        b"\\`*_~{<\n",
        // with bit 5 set, `\n` and `*` read `*`; `\`, `_`, `{`, `~` (and the near misses)
        // read above `z`
        &[Compare::FoldedIs(b'*'), Compare::FoldedAbove(b'z')],
    );
}

/// HTML's data state (H1): a tag, comment or doctype begins at `<`, a character reference
/// at `&`, and `\r` is preprocessed into `\n`.
#[cfg(feature = "html")]
pub(crate) enum Html {}

#[cfg(feature = "html")]
impl StopSet for Html {
    const STOPS: Stops = Stops::new(b"<&\r", &[]);
}

/// Line breaks, either of them (HTML mode's output, H1's newline preprocessing, 1.3).
#[cfg(feature = "html")]
pub(crate) enum LineBreaks {}

#[cfg(feature = "html")]
impl StopSet for LineBreaks {
    const STOPS: Stops = Stops::new(b"\r\n", &[]);
}

/// Units per chunk.
const CHUNK: usize = 16;

/// The first position at or after `from` whose unit `S` stops at (a stop byte or a near
/// miss), or `s.len()`. Sixteen units a chunk, the first mark of a chunk being the answer;
/// the last sixteen units are one chunk too, overlapping what came before, so that no unit
/// is looked at alone unless `s` is shorter than a chunk.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn find<S: StopSet, U: Unit>(s: &[U], from: usize) -> usize {
    find_inline::<S, U>(s, from)
}

/// [`find`], its code inlined into the caller natively: HTML's data state, whose loop keeps
/// its state in registers around it. (In the npm package's wasm, size comes first: one
/// copy per set and unit.)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline)]
pub(crate) fn find_inline<S: StopSet, U: Unit>(s: &[U], from: usize) -> usize {
    let chunk_at = |k: usize| {
        s.get(k..k + CHUNK)
            .and_then(|c| <&[U; CHUNK]>::try_from(c).ok())
    };
    let mut k = from;
    // the first chunk apart: most searches end in it (markup is one unit in twenty or so
    // in chat text)
    if let Some(chunk) = chunk_at(k) {
        let mask = marks::<S, U>(chunk);
        if mask != 0 {
            return k + first(mask);
        }
        k += CHUNK;
        while let Some(chunk) = chunk_at(k) {
            let mask = marks::<S, U>(chunk);
            if mask != 0 {
                return k + first(mask);
            }
            k += CHUNK;
        }
    }
    if let Some(last) = s.len().checked_sub(CHUNK) {
        if let Some(chunk) = chunk_at(last) {
            // the units before `k` were searched already
            let seen = u32::try_from(k - last).unwrap_or(u32::MAX);
            let mask = marks::<S, U>(chunk)
                .checked_shr(seen.saturating_mul(MARK))
                .unwrap_or(0);
            return if mask != 0 { k + first(mask) } else { s.len() };
        }
    }
    find_short::<S, U>(s, k)
}

/// [`find`] unit by unit, with no chunks: for stretches shorter than a chunk, and for
/// short pieces of text (HTML's output between tags, H1's line breaks), where the chunked
/// search's code is not worth its bytes in the npm package's wasm.
#[inline]
pub(crate) fn find_short<S: StopSet, U: Unit>(s: &[U], from: usize) -> usize {
    let rest = s.get(from..).unwrap_or_default();
    from + rest
        .iter()
        .position(|c| S::STOPS.taken(c.byte()))
        .unwrap_or(rest.len())
}

/// [`find`] over UTF-8 for markdown's one pass, which also adds to `excess` how many more
/// bytes than UTF-16 units `from..` holds up to the stop (see [`crate::text::utf16`], "Lengths
/// by excess"). With SSE2 a chunk passed whole is counted only if its high bits show other
/// bytes than ASCII; the chunk that holds the stop is always counted, with no test, since
/// whether other bytes come before the stop is a branch the text decides, and one that
/// mispredicts often. Elsewhere: the search, then a count.
#[inline(always)]
pub(crate) fn find_counting<S: StopSet>(s: &[u8], from: usize, excess: &mut usize) -> usize {
    #[cfg(sse2)]
    {
        use sse2::{bits, excess_in, load};
        let chunk_at = |k: usize| s.get(k..).and_then(<[u8]>::first_chunk::<CHUNK>);
        // where the last sixteen bytes begin: the loop's bound, then the last chunk, of
        // which the bytes before `k` were seen
        if let Some(last) = s.len().checked_sub(CHUNK) {
            let mut k = from;
            while k <= last {
                let Some(chunk) = chunk_at(k) else {
                    break;
                };
                let v = load(chunk);
                let mask = marks::<S, u8>(chunk);
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
            let mask = unseen(marks::<S, u8>(chunk));
            let at = if mask != 0 { first(mask) } else { CHUNK };
            if (unseen(bits(v)).trailing_zeros() as usize) < at {
                *excess = excess.wrapping_add(excess_in(v, seen, at));
            }
            return last + at;
        }
    }
    let stop = find::<S, u8>(s, from);
    *excess = excess.wrapping_add(super::utf16::excess_of(
        s.get(from..stop).unwrap_or_default(),
    ));
    stop
}

/// The first unit of `s` that is the ASCII byte `b` (a line's end, a backtick). Natively
/// over bytes, memchr's vectorised search, the first sixteen bytes compared inline as one
/// vector with SSE2 (most such searches end within a few bytes, and memchr's dispatch
/// takes three calls); in the npm package's wasm, core's, already in it.
#[inline]
pub(crate) fn find_byte<U: Unit>(s: &[U], b: u8) -> Option<usize> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(bytes) = U::as_bytes(s) {
        #[cfg(sse2)]
        if let Some(chunk) = bytes.first_chunk::<CHUNK>() {
            use sse2::{bits, eq, load};
            let at = bits(eq(load(chunk), b));
            if at != 0 {
                return Some(at.trailing_zeros() as usize);
            }
            return memchr::memchr(b, bytes.get(CHUNK..).unwrap_or_default()).map(|k| k + CHUNK);
        }
        return memchr::memchr(b, bytes);
    }
    s.iter().position(|&c| c.byte() == b)
}

/// The last position in `lo..hi` of the UTF-8 bytes `s` whose byte is one of `set`, read
/// backward: the split's searches for its strongest cuts (S3: line breaks, sentence ends,
/// and the lead bytes of the characters among them that are not ASCII). Unlike a
/// [`StopSet`]'s, the bytes may be any (UTF-8 only, so no [`Unit`] parameter). With SSE2,
/// sixteen bytes a step down from `hi`, each step's compares made at once and the highest
/// mark taken; the last step reads the sixteen bytes from `lo`, overlapping the ones
/// already read, which its mask leaves out. Elsewhere (and for a text shorter than sixteen
/// bytes), byte by byte.
#[inline]
pub(crate) fn rfind_any<const N: usize>(
    s: &[u8],
    lo: usize,
    hi: usize,
    set: [u8; N],
) -> Option<usize> {
    let top = hi.min(s.len());
    #[cfg(sse2)]
    if let Some(chunk) = s.get(lo..).and_then(<[u8]>::first_chunk::<CHUNK>) {
        use sse2::{bits, eq, load, or, zero};
        let marks = |c: &[u8; CHUNK]| {
            let v = load(c);
            bits(set.iter().fold(zero(), |m, &b| or(m, eq(v, b))))
        };
        let mut top = top;
        while top >= lo + CHUNK {
            let k = top - CHUNK;
            let mask = s
                .get(k..)
                .and_then(<[u8]>::first_chunk::<CHUNK>)
                .map_or(0, marks);
            if mask != 0 {
                return Some(k + (31 - mask.leading_zeros()) as usize);
            }
            top = k;
        }
        // the bytes `lo..top` (fewer than sixteen), read with those after them
        let mask = marks(chunk) & ((1u32 << (top.saturating_sub(lo))) - 1);
        return (mask != 0).then(|| lo + (31 - mask.leading_zeros()) as usize);
    }
    s.get(lo..top)?
        .iter()
        .rposition(|b| set.contains(b))
        .map(|k| lo + k)
}

/// A chunk's marks ([`marks`]): a bit per unit with vectors (the low sixteen bits), a byte
/// per unit in the portable form.
#[cfg(vector)]
type Mask = u32;
/// A chunk's marks ([`marks`]): a bit per unit with vectors (the low sixteen bits), a byte
/// per unit in the portable form.
#[cfg(not(vector))]
type Mask = u128;

/// Bits per unit in a [`Mask`].
#[cfg(vector)]
const MARK: u32 = 1;
/// Bits per unit in a [`Mask`].
#[cfg(not(vector))]
const MARK: u32 = 8;

/// The unit of the lowest mark of a non-zero [`Mask`].
#[inline]
fn first(mask: Mask) -> usize {
    (mask.trailing_zeros() / MARK) as usize
}

/// Sixteen units in one vector register, as sixteen bytes for comparisons with ASCII bytes:
/// a byte as itself, a UTF-16 unit as [`Unit::byte`] (or 0 from U+8000 on, which is no
/// more ASCII than 0xFF is).
#[cfg(vector)]
#[inline(always)]
pub(crate) fn load<U: Unit>(chunk: &[U; CHUNK]) -> vector::m128i {
    match U::chunk(chunk) {
        super::unit::Chunk::Bytes(b) => vector::load(b),
        super::unit::Chunk::Units(u) => vector::load_utf16(u),
    }
}

/// The units of `chunk` that `S` stops at: each of its comparisons made on the sixteen
/// units of one register, and the results' top bits taken (`pmovmskb`, `i8x16.bitmask`).
#[cfg(vector)]
#[inline(always)]
fn marks<S: StopSet, U: Unit>(chunk: &[U; CHUNK]) -> Mask {
    use vector::{bits, eq, gt, or, set, zero};
    let v = load::<U>(chunk);
    let folded = set(v, 0x20);
    let compare = |c: Compare| match c {
        Compare::Is(b) => eq(v, b),
        Compare::FoldedIs(b) => eq(folded, b),
        Compare::FoldedAbove(b) => gt(folded, b as i8),
    };
    if cfg!(target_arch = "wasm32") {
        // each comparison's bits taken on its own: or-ed as vectors, the masks reach the
        // bitmask through a byte shift pair (and a shuffle for UTF-16), which V8 spells in
        // a dozen x64 instructions
        return S::STOPS.fold(0, |m, c| m | bits(compare(c)));
    }
    bits(S::STOPS.fold(zero(), |m, c| or(m, compare(c))))
}

/// The units of `chunk` that `S` stops at, a byte each: the comparisons on an array of
/// sixteen, which the compiler vectorises where the target has vectors (NEON on aarch64).
#[cfg(not(vector))]
#[inline]
fn marks<S: StopSet, U: Unit>(chunk: &[U; CHUNK]) -> Mask {
    u128::from_le_bytes(chunk.map(|c| {
        let b = c.byte();
        u8::from(S::STOPS.fold(false, |hit, t| hit | takes(t, b)))
    }))
}

/// [`Compare::takes`] at run time (the portable form's comparisons).
#[cfg(not(vector))]
#[inline]
fn takes(c: Compare, b: u8) -> bool {
    match c {
        Compare::Is(x) => b == x,
        Compare::FoldedIs(x) => b | 0x20 == x,
        Compare::FoldedAbove(x) => (b | 0x20) as i8 > x as i8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first unit at or after `from` of `s` (unit values) that `S` takes, or its length:
    /// what every form must find.
    fn first_taken<S: StopSet>(s: &[u32], from: usize) -> usize {
        (from..s.len())
            .find(|&k| u8::try_from(s[k]).is_ok_and(|b| S::STOPS.taken(b)))
            .unwrap_or(s.len())
    }

    /// Checks [`find`] (and, over UTF-8, [`find_counting`] with its count) against the
    /// table on `text`, in both encodings, from every position.
    fn check<S: StopSet>(text: &str) {
        let bytes = text.as_bytes();
        let values: Vec<u32> = bytes.iter().map(|&b| u32::from(b)).collect();
        for from in 0..=bytes.len() {
            let want = first_taken::<S>(&values, from);
            assert_eq!(find::<S, u8>(bytes, from), want, "{text:?} {from}");
            assert_eq!(find_short::<S, u8>(bytes, from), want, "{text:?} {from}");
            if text.is_char_boundary(from) {
                let mut excess = 1000;
                assert_eq!(find_counting::<S>(bytes, from, &mut excess), want);
                let passed = crate::text::utf16::excess_of(&bytes[from..want]);
                assert_eq!(excess, 1000 + passed, "{text:?} {from}");
            }
        }
        let units: Vec<u16> = text.encode_utf16().collect();
        let values: Vec<u32> = units.iter().map(|&u| u32::from(u)).collect();
        for from in 0..=units.len() {
            let want = first_taken::<S>(&values, from);
            assert_eq!(find::<S, u16>(&units, from), want, "{text:?} {from}");
            assert_eq!(find_short::<S, u16>(&units, from), want, "{text:?} {from}");
        }
    }

    /// Every form stops at each unit value exactly when the table takes it, wherever it
    /// falls in a chunk, in a tail shorter than a chunk, or in the overlapped last chunk:
    /// every byte, and every UTF-16 unit (past U+00FF never, whatever its low byte).
    fn each_unit_value<S: StopSet>() {
        for b in 0..=u8::MAX {
            let want = |at: usize, len: usize| if S::STOPS.taken(b) { at } else { len };
            for (len, at) in [
                (5, 3),
                (20, 5),
                (20, 17),
                (40, 33),
                (64, 20),
                (64, 40),
                (100, 90),
            ] {
                let mut s = vec![b'a'; len];
                s[at] = b;
                assert_eq!(
                    find::<S, u8>(&s, 0),
                    want(at, len),
                    "{b:#x} at {at} of {len}"
                );
                let units: Vec<u16> = s.iter().map(|&b| u16::from(b)).collect();
                assert_eq!(find::<S, u16>(&units, 0), want(at, len), "{b:#x}");
            }
        }
        for u in 0x100..=u16::MAX {
            for (len, at) in [(5, 3), (20, 5), (40, 33)] {
                let mut s = vec![u16::from(b'a'); len];
                s[at] = u;
                assert_eq!(find::<S, u16>(&s, 0), len, "{u:#x}");
            }
        }
    }

    /// Random text of the sets' bytes, their near misses, line breaks, long plain stretches
    /// and every UTF-8 width, including UTF-16 units whose low byte is a stop.
    fn random_text<S: StopSet>(seed: u64) {
        let pieces = [
            "*",
            "_",
            "~",
            "`",
            "\\",
            "{",
            "<",
            "\n",
            "\r",
            "&",
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
            "＊",
            "ꀪ",
            "가",
            "Č",
            "Ħ",
        ];
        let mut rng = crate::rng::Rng(seed);
        for _ in 0..1500 {
            check::<S>(&rng.text(40, &pieces, &[], 1));
        }
    }

    #[test]
    fn markdown_stops_where_its_table_says_i1_i7() {
        each_unit_value::<Markdown>();
        random_text::<Markdown>(0x51_7CC1_B727_220A);
        // the table: the inline bytes and the line break, plus the shortcuts' near misses
        for b in 0..=u8::MAX {
            let stop = b"\\`*_~{<\n".contains(&b);
            assert_eq!(Markdown::STOPS.is_stop(b), stop, "{b:#x}");
            let near = b"[]^|}\x7f".contains(&b);
            assert_eq!(Markdown::STOPS.is_near_miss(b), near, "{b:#x}");
        }
    }

    #[cfg(feature = "html")]
    #[test]
    fn html_stops_where_its_table_says_h1() {
        each_unit_value::<Html>();
        random_text::<Html>(0x9E37_79B9_7F4A_7C15);
        for b in 0..=u8::MAX {
            assert_eq!(Html::STOPS.taken(b), b"<&\r".contains(&b), "{b:#x}");
        }
    }

    #[cfg(feature = "html")]
    #[test]
    fn line_breaks_stop_where_their_table_says() {
        each_unit_value::<LineBreaks>();
        random_text::<LineBreaks>(0x2545_F491_4F6C_DD1D);
    }

    /// A set's bytes need no shortcut: each one left out gets a comparison of its own, and
    /// a shortcut's near misses are exactly the bytes it takes that are not stops.
    #[test]
    fn a_byte_added_to_a_set_gets_its_own_comparison() {
        const PLUS_AT: Stops = Stops::new(
            b"\\`*_~{<\n@",
            &[Compare::FoldedIs(b'*'), Compare::FoldedAbove(b'z')],
        );
        assert_eq!(PLUS_AT.count, Markdown::STOPS.count + 1);
        assert!(PLUS_AT.is_stop(b'@') && PLUS_AT.taken(b'@'));
        const BARE: Stops = Stops::new(b"\\`*_~{<\n", &[]);
        for b in 0..=u8::MAX {
            assert_eq!(BARE.taken(b), Markdown::STOPS.is_stop(b), "{b:#x}");
        }
    }

    /// A backward search for a few bytes finds the last of them in the range, as a plain
    /// scan does, wherever the range starts and ends against the chunks.
    #[test]
    fn the_last_byte_of_a_set_is_found_where_a_plain_scan_finds_it() {
        let mut rng = crate::rng::Rng(0x5e7_b17e);
        for _ in 0..3_000 {
            let len = rng.below(80);
            let s: Vec<u8> = (0..len).map(|_| rng.pick(b"ab.\n\xe2\x80 ")).collect();
            let lo = rng.below(len + 2);
            let hi = rng.below(len + 20);
            let set = [b'\n', b'.', 0xe2];
            let want = (lo..hi.min(len)).rev().find(|&k| set.contains(&s[k]));
            assert_eq!(rfind_any(&s, lo, hi, set), want, "{s:?} {lo} {hi}");
            assert_eq!(
                rfind_any(&s, lo, hi, [b'\n']),
                (lo..hi.min(len)).rev().find(|&k| s[k] == b'\n')
            );
        }
    }

    /// A single byte is found where a plain scan finds it, in and past the first sixteen
    /// bytes, in both encodings, and nowhere when it is absent.
    #[test]
    fn a_byte_is_found_where_a_plain_scan_finds_it() {
        let mut rng = crate::rng::Rng(0xb17e);
        for _ in 0..5_000 {
            let len = rng.below(70);
            let s: Vec<u8> = (0..len).map(|_| rng.pick(b"ab`\n\x80")).collect();
            let units: Vec<u16> = s
                .iter()
                .map(|&b| u16::from(b) | (0x100 * u16::from(b == 0x80)))
                .collect();
            for b in [b'`', b'\n', b'z'] {
                let want = s.iter().position(|&c| c == b);
                assert_eq!(find_byte(&s, b), want, "{s:?} {b}");
                assert_eq!(find_byte(&units, b), want, "{units:?} {b}");
            }
        }
    }
}
