//! The message as both parsers read it: UTF-8 (a `&str`, the Rust API) or UTF-16 code
//! units (hosts whose strings are UTF-16: the npm package), so that a JavaScript string
//! reaches a parser with neither transcoding nor UTF-8 validation (spec 1: offsets count
//! UTF-16 units, which a UTF-16 source has for free). Positions are indexes of code units
//! of the one or the other. Markup is ASCII (2.1–2.3, H1), so the parsers look at units as
//! bytes ([`Unit::byte`]) and decode whole characters only where a rule needs one (I4's
//! flanking, names and values of tags, diagnostics). Three names, one per role: a code
//! unit is a [`Unit`] (`unit.rs`); a message is a [`Source`], in either encoding, where
//! code reads it unit by unit whatever its encoding (diagnostics, flanking); and both
//! parsers, generic over the unit, take it as a [`TypedSource`], so that each encoding gets
//! its own compiled parser. [`well_formed`] makes UTF-16 input well formed (L2).

use std::borrow::Cow;

use super::unit::Unit;

/// A message as a typed slice, for parsers monomorphised over the unit (HTML mode's
/// tokenizer): its units to scan, the [`Source`] of it for the rest, and its names and
/// values copied out by the encoding's own code, so that a wasm holding only the UTF-16
/// tokenizer holds no UTF-8 copy code.
#[cfg_attr(not(feature = "html"), allow(dead_code))]
pub(crate) trait TypedSource<'a>: Copy + 'a {
    /// `u8` or `u16`.
    type Unit: Unit;
    /// The code units.
    fn units(self) -> &'a [Self::Unit];
    /// The same message as a [`Source`].
    fn source(self) -> Source<'a>;
    /// Appends the text `a..b` to `out`.
    #[cfg(feature = "html")]
    fn push_text(self, a: usize, b: usize, out: &mut String);
    /// Appends the text `a..b` ASCII-lowercased, NUL becoming U+FFFD (tag and attribute
    /// names).
    #[cfg(feature = "html")]
    fn push_name(self, a: usize, b: usize, out: &mut String);
    /// Appends the text `a..b` with NUL becoming U+FFFD (attribute values; no `\r` in it).
    #[cfg(feature = "html")]
    fn push_value(self, a: usize, b: usize, out: &mut String);
    /// The name `a..b` (ASCII letters and digits) as a `&str`: a slice of UTF-8 input, or
    /// UTF-16 input's copied into `buf`.
    #[cfg(feature = "html")]
    fn ascii_name<'s>(self, a: usize, b: usize, buf: &'s mut String) -> &'s str
    where
        'a: 's;
}

impl<'a> TypedSource<'a> for &'a str {
    type Unit = u8;

    #[inline]
    fn units(self) -> &'a [u8] {
        self.as_bytes()
    }

    #[inline]
    fn source(self) -> Source<'a> {
        Source::Utf8(self)
    }

    #[cfg(feature = "html")]
    #[inline]
    fn push_text(self, a: usize, b: usize, out: &mut String) {
        out.push_str(self.get(a..b).unwrap_or_default());
    }

    #[cfg(feature = "html")]
    fn push_name(self, a: usize, b: usize, out: &mut String) {
        push_name(out, self.get(a..b).unwrap_or_default());
    }

    #[cfg(feature = "html")]
    fn push_value(self, a: usize, b: usize, out: &mut String) {
        push_value(out, self.get(a..b).unwrap_or_default());
    }

    #[cfg(feature = "html")]
    #[inline]
    fn ascii_name<'s>(self, a: usize, b: usize, _buf: &'s mut String) -> &'s str
    where
        'a: 's,
    {
        self.get(a..b).unwrap_or_default()
    }
}

impl<'a> TypedSource<'a> for &'a [u16] {
    type Unit = u16;

    #[inline]
    fn units(self) -> &'a [u16] {
        self
    }

    #[inline]
    fn source(self) -> Source<'a> {
        Source::Utf16(self)
    }

    #[cfg(feature = "html")]
    fn push_text(self, a: usize, b: usize, out: &mut String) {
        decode_into(self, a, b, out, false, false);
    }

    #[cfg(feature = "html")]
    fn push_name(self, a: usize, b: usize, out: &mut String) {
        decode_into(self, a, b, out, true, true);
    }

    #[cfg(feature = "html")]
    fn push_value(self, a: usize, b: usize, out: &mut String) {
        decode_into(self, a, b, out, false, true);
    }

    #[cfg(feature = "html")]
    fn ascii_name<'s>(self, a: usize, b: usize, buf: &'s mut String) -> &'s str
    where
        'a: 's,
    {
        buf.clear();
        decode_into(self, a, b, buf, false, false);
        buf
    }
}

/// Appends the characters of units `a..b` to `out`, ASCII-lowercased when `lower` (names),
/// NUL read as U+FFFD when `nul` (names and values); a lone surrogate, which well-formed
/// input has none of, reads as U+FFFD. Runs of other ASCII (names and most values) go
/// through a byte buffer, a `push_str` per run: pushing character by character was a sixth
/// of `parseHtml` in the npm package.
#[cfg(feature = "html")]
fn decode_into(units: &[u16], a: usize, b: usize, out: &mut String, lower: bool, nul: bool) {
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
#[cfg(feature = "html")]
fn push_name(out: &mut String, s: &str) {
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
#[cfg(feature = "html")]
fn push_value(out: &mut String, s: &str) {
    let mut parts = s.split('\0');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for part in parts {
        out.push('\u{FFFD}');
        out.push_str(part);
    }
}

/// A message in one of the two encodings.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Source<'a> {
    /// UTF-8 text; positions are byte offsets (on character boundaries where text starts or
    /// ends).
    Utf8(&'a str),
    /// UTF-16 code units, well formed (the public entry points replace lone surrogates
    /// first, L2); positions are unit offsets.
    Utf16(&'a [u16]),
}

/// Runs `$e` with `$u` bound to the source's units as a slice (`&[u8]` or `&[u16]`).
macro_rules! units {
    ($src:expr, $u:ident => $e:expr) => {
        match $src {
            Source::Utf8(s) => {
                let $u = s.as_bytes();
                $e
            }
            Source::Utf16($u) => $e,
        }
    };
}
pub(crate) use units;

impl<'a> Source<'a> {
    /// Length in code units.
    pub(crate) fn len(self) -> usize {
        units!(self, u => u.len())
    }

    /// The unit at `i` as a byte ([`Unit::byte`]), `None` past the end.
    #[inline]
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    pub(crate) fn byte(self, i: usize) -> Option<u8> {
        units!(self, u => u.get(i).map(|c| c.byte()))
    }

    /// The first position in `from..end` whose unit `S` stops at, or `end`, unit by unit
    /// ([`crate::text::search::find_short`]).
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    pub(crate) fn find_short<S: crate::text::search::StopSet>(
        self,
        from: usize,
        end: usize,
    ) -> usize {
        units!(self, u => crate::text::search::find_short::<S, _>(u.get(..end).unwrap_or_default(), from))
    }

    /// The character that ends at `pos`, if it starts at or after `floor`. A lone
    /// surrogate (never in a checked source) reads as U+FFFD.
    pub(crate) fn char_before(self, pos: usize, floor: usize) -> Option<char> {
        if pos <= floor {
            return None;
        }
        match self {
            Source::Utf8(s) => s.get(floor..pos).and_then(|t| t.chars().next_back()),
            Source::Utf16(u) => {
                let last = *u.get(pos - 1)?;
                let first = (pos >= floor + 2)
                    .then(|| u.get(pos - 2).copied())
                    .flatten();
                Some(match first {
                    Some(hi) if is_high(hi) && is_low(last) => pair(hi, last),
                    _ => single(last),
                })
            }
        }
    }

    /// The character that starts at `pos`, if it ends at or before `ceil`.
    pub(crate) fn char_after(self, pos: usize, ceil: usize) -> Option<char> {
        if pos >= ceil {
            return None;
        }
        match self {
            Source::Utf8(s) => s.get(pos..ceil).and_then(|t| t.chars().next()),
            Source::Utf16(u) => {
                let first = *u.get(pos)?;
                let next = (pos + 1 < ceil).then(|| u.get(pos + 1).copied()).flatten();
                Some(match next {
                    Some(lo) if is_high(first) && is_low(lo) => pair(first, lo),
                    _ => single(first),
                })
            }
        }
    }

    /// The text of `from..to` (for diagnostic messages).
    pub(crate) fn text(self, from: usize, to: usize) -> Cow<'a, str> {
        match self {
            Source::Utf8(s) => Cow::Borrowed(s.get(from..to).unwrap_or("")),
            Source::Utf16(u) => {
                Cow::Owned(String::from_utf16_lossy(u.get(from..to).unwrap_or(&[])))
            }
        }
    }
}

const fn is_high(u: u16) -> bool {
    u & 0xfc00 == 0xd800
}

const fn is_low(u: u16) -> bool {
    u & 0xfc00 == 0xdc00
}

fn pair(hi: u16, lo: u16) -> char {
    let c = 0x1_0000 + ((u32::from(hi) & 0x3ff) << 10) + (u32::from(lo) & 0x3ff);
    char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn single(u: u16) -> char {
    char::from_u32(u32::from(u)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// `input` with every lone surrogate replaced by U+FFFD, one unit for one (L2): borrowed
/// when there is none, which one pass over the units tells.
pub(crate) fn well_formed(input: &[u16]) -> Cow<'_, [u16]> {
    let Some(first) = next_lone(input, 0) else {
        return Cow::Borrowed(input);
    };
    let mut out = input.to_vec();
    let mut at = Some(first);
    while let Some(k) = at {
        if let Some(u) = out.get_mut(k) {
            *u = 0xfffd;
        }
        at = next_lone(input, k + 1);
    }
    Cow::Owned(out)
}

// Of sixteen units, bit `k` set when unit `k` is a surrogate, and when it has bit 10 set
// (a surrogate's is low): vector comparisons on x86-64 and in the wasm with SIMD.
#[cfg(vector)]
use super::simd::vector::{bit10s, surrogates};

/// Of sixteen units, bit `k` set when unit `k` is a surrogate.
#[cfg(not(vector))]
fn surrogates(c: &[u16; 16]) -> u32 {
    // (units all below U+D800, most text's, need one OR each)
    if c.iter().fold(0, |a, &u| a | u) < 0xd800 {
        return 0;
    }
    c.iter()
        .enumerate()
        .fold(0, |m, (k, &u)| m | u32::from(u & 0xf800 == 0xd800) << k)
}

/// Of sixteen units, bit `k` set when unit `k` has bit 10 set (a surrogate's is low).
#[cfg(not(vector))]
fn bit10s(c: &[u16; 16]) -> u32 {
    c.iter()
        .enumerate()
        .fold(0, |m, (k, &u)| m | u32::from(u & 0x400 != 0) << k)
}

/// The first lone surrogate of `input` at or after `from`: a high one not followed by a
/// low one, or a low one not preceded by a high one. Sixteen units at a time, a chunk's
/// surrogates as a bit mask (most chunks have none), split into highs and lows when it has
/// some: it has no lone one when its lows are exactly the units after its highs (a high in
/// its last unit pairs with the next chunk's first). The chunk where that fails, and the
/// last units, are read unit by unit, a well-formed pair stepped over whole.
fn next_lone(input: &[u16], from: usize) -> Option<usize> {
    let chunk = |k: usize| {
        input
            .get(k..k + 16)
            .and_then(|c| <&[u16; 16]>::try_from(c).ok())
    };
    let mut k = from;
    // 1 when the unit before `k` is a high surrogate whose low is due at `k`
    let mut due = 0;
    'chunks: {
        // natively two chunks a step, their masks tested together (in the npm package's
        // wasm, this loop would cost more bytes than it saves time)
        while let (false, Some(a), Some(b)) =
            (cfg!(target_arch = "wasm32"), chunk(k), chunk(k + 16))
        {
            let (sa, sb) = (surrogates(a), surrogates(b));
            if sa | sb | due == 0 {
                k += 32;
                continue;
            }
            for (any, c) in [(sa, a), (sb, b)] {
                match paired(any, c, due) {
                    Some(next) => due = next,
                    None => break 'chunks,
                }
                k += 16;
            }
        }
        while let Some(c) = chunk(k) {
            match paired(surrogates(c), c, due) {
                Some(next) => due = next,
                None => break 'chunks,
            }
            k += 16;
        }
        // the last units, in the last sixteen with the ones already read shifted out: a
        // high in the very last unit is lone (in the wasm too, since its chunks are loaded
        // whole)
        let rest = input.len() - k;
        if let (1..16, Some(c)) = (rest, input.len().checked_sub(16).and_then(chunk)) {
            let seen = 16 - rest as u32;
            let any = surrogates(c) >> seen;
            if any | due == 0 {
                return None;
            }
            let low = any & bit10s(c) >> seen;
            let high = any & !low;
            if low == ((high << 1) | due) & ((1 << rest) - 1) && high >> (rest - 1) == 0 {
                return None;
            }
        }
    }
    // unit by unit from the high whose low is due, if any
    let mut k = k - due as usize;
    while let Some(&u) = input.get(k) {
        if u & 0xf800 == 0xd800 {
            if !(is_high(u) && input.get(k + 1).is_some_and(|&n| is_low(n))) {
                return Some(k);
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    None
}

/// Whether the surrogates of chunk `c` (`any`, its [`surrogates`]) pair up, a low being
/// `due` at its first unit or not: the next chunk's `due`, or `None` when one is lone.
#[inline]
fn paired(any: u32, c: &[u16; 16], due: u32) -> Option<u32> {
    if any | due == 0 {
        return Some(0);
    }
    let low = any & bit10s(c);
    let high = any & !low;
    (low == ((high << 1) | due) & 0xffff).then_some(high >> 15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn characters_around_a_position_agree_between_encodings() {
        let s = "a😀é*b";
        let u = utf16(s);
        let (a8, a16) = (Source::Utf8(s), Source::Utf16(&u));
        // before the `*`: byte 7, unit 4
        assert_eq!(a8.char_before(7, 0), Some('é'));
        assert_eq!(a16.char_before(4, 0), Some('é'));
        assert_eq!(a16.char_before(3, 0), Some('😀'));
        assert_eq!(
            a16.char_before(3, 2),
            Some('\u{fffd}'),
            "half a pair past the floor"
        );
        assert_eq!(a16.char_after(1, 6), Some('😀'));
        assert_eq!(
            a16.char_after(1, 2),
            Some('\u{fffd}'),
            "half a pair before the ceiling"
        );
        assert_eq!(a8.char_after(8, 9), Some('b'));
        assert_eq!(a16.char_before(0, 0), None);
        assert_eq!(a16.char_after(6, 6), None);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters_l2() {
        let ok = utf16("a😀b");
        assert!(matches!(well_formed(&ok), Cow::Borrowed(_)));
        let bad = [0x61, 0xd800, 0x62, 0xdc00, 0xd83d, 0xde00, 0xdbff];
        assert_eq!(
            well_formed(&bad).as_ref(),
            [0x61, 0xfffd, 0x62, 0xfffd, 0xd83d, 0xde00, 0xfffd]
        );
        // next to pairs and to each other
        let bad = [0xd800, 0xd800, 0xdc00, 0xdc00, 0xdc00, 0xd800];
        assert_eq!(
            well_formed(&bad).as_ref(),
            [0xfffd, 0xd800, 0xdc00, 0xfffd, 0xfffd, 0xfffd]
        );
    }

    /// The chunked search finds what a unit-by-unit one finds, wherever the surrogates fall
    /// against the chunks (L2): a chunk's bit masks, and the high carried into the next.
    #[test]
    fn lone_surrogates_are_found_across_chunk_boundaries() {
        fn slow(input: &[u16]) -> Vec<u16> {
            let mut out = input.to_vec();
            let mut k = 0;
            while k < input.len() {
                let u = input[k];
                if is_high(u) && input.get(k + 1).is_some_and(|&n| is_low(n)) {
                    k += 2;
                    continue;
                }
                if u & 0xf800 == 0xd800 {
                    out[k] = 0xfffd;
                }
                k += 1;
            }
            out
        }
        // pairs, lone highs and lows at the range's edges, units just outside it, and a
        // stretch that moves what follows by most of a chunk
        let pieces: [&[u16]; 12] = [
            &[0x61],
            &[0xd83d, 0xde00],
            &[0xdbff, 0xdfff],
            &[0xd800],
            &[0xdbff],
            &[0xdc00],
            &[0xdfff],
            &[0x4e2d],
            &[0xd7ff],
            &[0xe000],
            &[0xfc00, 0xfffd],
            &[0x62; 13],
        ];
        let mut rng = crate::rng::Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let n = rng.below(70);
            let input: Vec<u16> = (0..n)
                .flat_map(|_| pieces[rng.below(pieces.len())].iter().copied())
                .collect();
            assert_eq!(well_formed(&input).as_ref(), slow(&input), "{input:x?}");
        }
    }

    /// A run read a word at a time is the run read unit by unit, for runs of every length
    /// up to past two words, at every offset, followed by anything or by nothing.
    #[test]
    fn runs_read_by_words_are_runs_read_by_units() {
        for len in 0..20 {
            for after in [&b""[..], b"a", b"**", b"\xc3\xa9", b"~*"] {
                for b in [b'*', b'_', b'~', b'`'] {
                    let mut s = vec![b; len];
                    s.extend_from_slice(after);
                    let slow = s.iter().take_while(|&&c| c == b).count();
                    assert_eq!(u8::run_of(&s, b), slow, "{s:?}");
                    let mut units: Vec<u16> = s.iter().map(|&c| u16::from(c)).collect();
                    assert_eq!(u16::run_of(&units, b), slow, "{s:?}");
                    // a unit past U+00FF whose low byte is `b` ends the run too
                    units.truncate(len);
                    units.push(0x100 | u16::from(b));
                    assert_eq!(u16::run_of(&units, b), len, "{units:x?}");
                }
            }
        }
    }

    #[test]
    fn scans_read_units_as_bytes() {
        let u = utf16("é{x}\u{17b}");
        let s = Source::Utf16(&u);
        assert_eq!(s.byte(0), Some(0xe9));
        assert_eq!(s.byte(4), Some(0xff));
        // U+017B's low byte is `{`: a UTF-16 unit is never taken for the ASCII it ends with
        assert_eq!(crate::text::search::find_byte(&u[2..], b'{'), None);
    }
}
