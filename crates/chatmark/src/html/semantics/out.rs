//! The semantics' output (1.3, H6, H7): text written into the run builder with line codes
//! kept off line breaks. A `\r` is held back one character, since only a `\r` right before
//! `\n` is part of a line break; text is scanned for line breaks sixteen bytes (SSE2) or a
//! word at a time.

use crate::builder::FormattedBuilder;
use crate::text::search::LineBreaks;
use crate::text::simd::swar::{load8, word_units, zero_bytes, LO};
use crate::text::source::Source;
use crate::StyleSet;

/// Writes into the builder, keeping line codes off line breaks (1.3). A `\r` is held back
/// one character: only a `\r` right before `\n` is part of a line break.
#[derive(Debug)]
pub(super) struct Out<'o> {
    pub(super) b: &'o mut FormattedBuilder,
    pub(super) cr: Option<StyleSet>,
}

impl Out<'_> {
    pub(super) fn is_empty(&self) -> bool {
        self.cr.is_none() && self.b.is_empty()
    }

    pub(super) fn ends_with_newline(&self) -> bool {
        self.cr.is_none() && self.b.ends_with_newline()
    }

    /// Emits the held-back `\r`, as a line break when `before_lf`.
    pub(super) fn flush_cr(&mut self, before_lf: bool) {
        if let Some(st) = self.cr.take() {
            let st = if before_lf {
                st.without_line_codes()
            } else {
                st
            };
            self.b.push_char('\r', st);
        }
    }

    #[inline]
    /// Appends `a..b` of `src` with `style`; `has_line` says whether `style` has line codes.
    pub(super) fn push(
        &mut self,
        src: Source<'_>,
        a: usize,
        b: usize,
        style: StyleSet,
        has_line: bool,
    ) {
        let breaks = match src {
            // a UTF-16 builder counts the units as it writes them
            Source::Utf8(s) if !self.b.writes_utf16() => {
                let (units, breaks) = scan_in::<true>(s.as_bytes(), a, b, has_line);
                if self.cr.is_none() && !breaks {
                    self.b
                        .push_str_units(s.get(a..b).unwrap_or_default(), units, style);
                    return;
                }
                breaks
            }
            Source::Utf8(s) => scan_in::<false>(s.as_bytes(), a, b, has_line).1,
            Source::Utf16(u) => {
                let nl = if has_line { 0x0a } else { 0x0d };
                let units = u.get(a..b).unwrap_or_default();
                units.iter().any(|&c| c == 0x0d || c == nl)
            }
        };
        if self.cr.is_none() && !breaks {
            self.b.push_src(src, a, b, style);
            return;
        }
        self.push_lines(src, a, b, style);
    }

    /// Appends the whitespace `s` (ASCII, H6: a pending run's) with `style`, as
    /// [`Out::push`] would, without its scan: a unit per byte, and line breaks looked for
    /// byte by byte in what is mostly one or two spaces.
    pub(super) fn push_space(&mut self, s: &str, style: StyleSet, has_line: bool) {
        let breaks = s.bytes().any(|b| b == b'\r' || (has_line && b == b'\n'));
        if self.cr.is_none() && !breaks {
            match s.as_bytes() {
                // mostly one space: a byte pushed, not a copy call
                &[b] => self.b.push_char(char::from(b), style),
                _ => self.b.push_str_units(s, s.len(), style),
            }
            return;
        }
        self.push_lines(Source::Utf8(s), 0, s.len(), style);
    }

    #[inline(never)]
    pub(super) fn push_lines(&mut self, src: Source<'_>, a: usize, b: usize, style: StyleSet) {
        let mut at = a;
        while at < b {
            // one search for either: two would each rescan the rest of the text (L1)
            let n = src.find_short::<LineBreaks>(at, b);
            if n > at {
                self.flush_cr(false);
                self.b.push_src(src, at, n, style);
            }
            match src.byte(n).filter(|_| n < b) {
                Some(b'\n') => {
                    self.flush_cr(true);
                    self.b.push_char('\n', style.without_line_codes());
                }
                Some(_) => {
                    self.flush_cr(false);
                    self.cr = Some(style);
                }
                None => {}
            }
            at = n + 1;
        }
    }
}

/// H6 line break before content that follows a boundary.
pub(super) fn newline_before_content(out: &mut Out) {
    if !out.is_empty() && !out.ends_with_newline() {
        out.flush_cr(true);
        out.b.push_char('\n', StyleSet::EMPTY);
    }
}

/// [`scan`] of the bytes `a..b` of `src` (whole characters). With SSE2, fewer than sixteen
/// are read in one chunk with the bytes around them, of which only theirs count.
#[inline]
pub(super) fn scan_in<const COUNT: bool>(
    src: &[u8],
    a: usize,
    b: usize,
    lf: bool,
) -> (usize, bool) {
    #[cfg(sse2)]
    {
        use crate::text::simd::sse2::{bits, eq, keep, load, or, units, Sums, WIDTH};
        if b.saturating_sub(a) < WIDTH {
            // the sixteen bytes that end at `b`, or the first sixteen
            let at = b.saturating_sub(WIDTH);
            if let Some(chunk) = src.get(at..at + WIDTH) {
                let v = load(chunk);
                let (a, b) = (a.saturating_sub(at), b - at);
                let nl = if lf { b'\n' } else { b'\r' };
                let breaks = bits(keep(or(eq(v, b'\r'), eq(v, nl)), a, b)) != 0;
                let n = if COUNT {
                    Sums::new().add(keep(units(v), a, b)).total()
                } else {
                    0
                };
                return (n, breaks);
            }
        }
    }
    scan::<COUNT>(src.get(a..b).unwrap_or_default(), lf)
}

/// The UTF-16 length of `s` (when `COUNT`, else 0) and whether it holds a `\r`, or a `\n`
/// when `lf`: what [`Out::push`] needs, in one pass sixteen bytes at a time with SSE2 when
/// there are that many, else eight at a time (SWAR; the last few bytes are padded with
/// zeros, which count one unit each and are taken off).
#[inline(never)]
pub(super) fn scan<const COUNT: bool>(s: &[u8], lf: bool) -> (usize, bool) {
    #[cfg(sse2)]
    if s.len() >= crate::text::simd::sse2::WIDTH {
        return scan_sse2::<COUNT>(s, lf);
    }
    let cr = LO * u64::from(b'\r');
    let nl = LO * u64::from(if lf { b'\n' } else { b'\r' });
    let mut chunks = s.chunks_exact(8);
    let mut units = 0usize;
    let mut breaks = 0u64;
    for chunk in &mut chunks {
        let word = load8(chunk);
        let w = u64::from_le_bytes(word);
        breaks |= zero_bytes(w ^ cr) | zero_bytes(w ^ nl);
        if COUNT {
            units += word_units(w) as usize;
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // The last eight bytes, shifted so that only the remainder's stay (the others
        // were counted); shorter texts are read byte by byte.
        let w = match s.len().checked_sub(8).and_then(|k| s.get(k..)) {
            Some(last) => {
                let word = load8(last);
                u64::from_le_bytes(word) >> (8 * (8 - rest.len()))
            }
            None => rest
                .iter()
                .rev()
                .fold(0u64, |w, &b| (w << 8) | u64::from(b)),
        };
        breaks |= zero_bytes(w ^ cr) | zero_bytes(w ^ nl);
        if COUNT {
            units += word_units(w) as usize - (8 - rest.len());
        }
    }
    (units, breaks != 0)
}

/// [`scan`] of at least sixteen bytes, sixteen at a time in an SSE2 register. The last
/// sixteen overlap what came before: their line breaks are looked for again (which changes
/// nothing), and only their new bytes count.
#[cfg(sse2)]
#[inline]
fn scan_sse2<const COUNT: bool>(s: &[u8], lf: bool) -> (usize, bool) {
    use crate::text::simd::sse2::{bits, eq, keep_last, load, or, units, Sums, WIDTH};
    let nl = if lf { b'\n' } else { b'\r' };
    let mut chunks = s.chunks_exact(WIDTH);
    let mut sums = Sums::new();
    let mut breaks = 0;
    for chunk in &mut chunks {
        let v = load(chunk);
        breaks |= bits(or(eq(v, b'\r'), eq(v, nl)));
        if COUNT {
            sums = sums.add(units(v));
        }
    }
    let rest = chunks.remainder().len();
    if rest > 0 {
        if let Some(last) = s.get(s.len() - WIDTH..) {
            let v = load(last);
            breaks |= bits(or(eq(v, b'\r'), eq(v, nl)));
            if COUNT {
                sums = sums.add(keep_last(units(v), rest));
            }
        }
    }
    (if COUNT { sums.total() } else { 0 }, breaks != 0)
}
