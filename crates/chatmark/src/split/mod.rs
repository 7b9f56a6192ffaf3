//! Splitting a long message into parts that can each be sent as one `sendMessage` (spec
//! section 8, S1–S5): where to cut, and each part's runs.
//!
//! - **S1** parts of 1 to `limit` UTF-16 units; a text that fits is one part, equal to the
//!   input; an empty text gives none; a `limit` below 2 is [`SplitError::InvalidLimit`].
//! - **S2** at a cut only white space is dropped: a cut inside or beside a run of
//!   `White_Space` is the run's cut, and the whole run is dropped.
//! - **S3** candidates, strongest first: a paragraph break (a white-space run holding two
//!   `\n` or more), a line break (one `\n`), a sentence end (a run after `.` `!` `?` `…`, or
//!   the point after `。` `！` `？`), white space, a grapheme-cluster boundary (UAX #29,
//!   [`grapheme`]), and — inside a cluster longer than the limit only — a code point
//!   boundary. Each part takes the last candidate of the strongest kind that leaves it at
//!   least `limit / 2` units (`2 × len >= limit`) and at most `limit`; when none does, the
//!   last candidate that leaves it at most `limit`.
//! - **S4** each part's runs are the input's clipped to the part and shifted to its start.
//!   Clipping keeps canonical runs canonical, so no run builder is needed: runs stay sorted
//!   and disjoint (C1); a clipped run is kept only when something of it is left (C2); two
//!   runs that touch after clipping touched before, with different codes (C3); code sets are
//!   not touched (C4); part edges are character boundaries, as run edges were (C5); runs end
//!   within their part (C6). Each character keeps exactly its codes.
//! - **S5** linear time: each part reads a window of `limit` units once or twice (a
//!   backward scan for the white-space kinds, then — only when none qualifies — a forward
//!   walk over the clusters), every part but the last takes half a window or more, and the
//!   one long white-space run or long cluster that several windows meet is measured once.
//!
//! Where the spec leaves room, the engine reads it so: white space is judged by grapheme
//! cluster — a cluster is white space when all its characters are `White_Space`, so a space
//! that carries a combining mark (`" \u{301}"`, a spacing accent) or follows a prepended
//! mark is a visible character, neither dropped nor cut; a part's length leaves out the
//! white space dropped at its cuts; white space that opens the text (the first part's
//! start) or ends it (the last part's end) is kept unless a cut falls in it, and a run of
//! white space that would have to be cut with nothing before it in its part is dropped
//! whole (so a text of nothing but white space longer than the limit gives no part); inside
//! a cluster longer than the limit, code points are cut as they come, white space or not.
//!
//! One implementation serves UTF-8 text ([`split`]) and UTF-16 units ([`split_utf16`]):
//! the scans are generic over the text's code units through [`Text`], as the parsers are
//! over [`crate::text::source::Source`]'s.

mod grapheme;
mod grapheme_table;

use crate::{Formatted, FormattedUtf16, TextStyle};
use grapheme::{class, pair_breaks, Segmenter};

/// Why a message could not be split.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("text");
/// let e = chatmark::split(&f, 1).unwrap_err();
/// assert_eq!(e, chatmark::SplitError::InvalidLimit(1));
/// assert_eq!(e.code(), "invalid_limit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SplitError {
    /// S1: the limit is below 2 UTF-16 units (no part could hold a surrogate pair).
    #[error("limit must be at least 2 UTF-16 units, not {0}")]
    InvalidLimit(usize),
}

impl SplitError {
    /// The stable wire code (`invalid_limit`).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::SplitError::InvalidLimit(0).code(), "invalid_limit");
    /// ```
    pub const fn code(&self) -> &'static str {
        match self {
            SplitError::InvalidLimit(_) => "invalid_limit",
        }
    }
}

/// Splits `formatted` into parts of at most `limit` UTF-16 units of text each, cut where S3
/// says (paragraph, line, sentence, word, grapheme cluster, code point), each with its own
/// canonical runs (S4): send each part as `text` plus `text_styles`. `limit` is usually R1's
/// (`Limits::default().max_text_len`, 2000). The runs must be canonical, as every result of
/// the engine is.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("**First** part here. Second part, *longer* than that.");
/// let parts = chatmark::split(&f, 30).unwrap();
/// let texts: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
/// assert_eq!(texts, ["First part here.", "Second part, longer than that."]);
/// assert_eq!(parts[1].text_styles[0].start, 13); // "longer", shifted to its part
/// // a sentence end that would leave the part under half full gives way to a word
/// let f = chatmark::parse_markdown("Hi. Then a long sentence goes on");
/// assert_eq!(chatmark::split(&f, 20).unwrap()[0].text, "Hi. Then a long");
/// ```
pub fn split(formatted: &Formatted, limit: usize) -> Result<Vec<Formatted>, SplitError> {
    let text = formatted.text.as_str();
    let pieces = pieces(text, limit)?;
    Ok(parts(&pieces, &formatted.text_styles, |p| {
        text.get(p.start..p.end).unwrap_or_default().to_owned()
    }))
}

/// [`split`] for text held as UTF-16 units, as [`crate::parse_markdown_utf16`] writes it
/// (a lone surrogate counts as one unit and is never separated from anything).
///
/// # Examples
///
/// ```
/// let units: Vec<u16> = "😀😀😀".encode_utf16().collect();
/// let f = chatmark::FormattedUtf16 { text: units, text_styles: vec![] };
/// let parts = chatmark::split_utf16(&f, 4).unwrap();
/// assert_eq!(parts.len(), 2); // never inside a surrogate pair (C5)
/// assert_eq!(parts[0].text.len(), 4);
/// ```
pub fn split_utf16(
    formatted: &FormattedUtf16,
    limit: usize,
) -> Result<Vec<FormattedUtf16>, SplitError> {
    let text = formatted.text.as_slice();
    let pieces = pieces(text, limit)?;
    Ok(parts(&pieces, &formatted.text_styles, |p| {
        text.get(p.start..p.end).unwrap_or_default().to_vec()
    }))
}

/// Builds each part from its piece: its text (`text_of`) and the runs clipped to it.
fn parts<S, F: From<(S, Vec<TextStyle>)>>(
    pieces: &[Piece],
    runs: &[TextStyle],
    text_of: impl Fn(&Piece) -> S,
) -> Vec<F> {
    let mut first = 0; // the first run that may reach the current piece (both are in order)
    pieces
        .iter()
        .map(|p| {
            while runs.get(first).is_some_and(|r| r.end() <= p.start16) {
                first += 1;
            }
            let clipped = runs
                .get(first..)
                .unwrap_or_default()
                .iter()
                .take_while(|r| r.start < p.end16)
                .filter_map(|r| {
                    let start = r.start.max(p.start16);
                    let end = r.end().min(p.end16);
                    (end > start).then(|| TextStyle {
                        start: start - p.start16,
                        len: end - start,
                        st: r.st,
                    })
                })
                .collect();
            F::from((text_of(p), clipped))
        })
        .collect()
}

impl From<(String, Vec<TextStyle>)> for Formatted {
    fn from((text, text_styles): (String, Vec<TextStyle>)) -> Self {
        Formatted { text, text_styles }
    }
}

impl From<(Vec<u16>, Vec<TextStyle>)> for FormattedUtf16 {
    fn from((text, text_styles): (Vec<u16>, Vec<TextStyle>)) -> Self {
        FormattedUtf16 { text, text_styles }
    }
}

/// One part's range: in the text's own units and in UTF-16 units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    start: usize,
    end: usize,
    start16: usize,
    end16: usize,
}

/// The parts' ranges (S1–S3).
fn pieces<T: Text>(text: T, limit: usize) -> Result<Vec<Piece>, SplitError> {
    if limit < 2 {
        return Err(SplitError::InvalidLimit(limit));
    }
    let n = text.len();
    let n16 = text.utf16_len(0, n);
    let mut out = Vec::new();
    let mut s = Splitter {
        text,
        limit,
        run: None,
        long: None,
    };
    let (mut p, mut p16) = (0, 0);
    while p < n {
        if n16 - p16 <= limit {
            out.push(Piece {
                start: p,
                end: n,
                start16: p16,
                end16: n16,
            });
            break;
        }
        // the window: a cut at `e` in lo..=hi leaves the part half full or more (S3)
        let half = limit.div_ceil(2);
        let (mut lo, mut lo16) = text.advance(p, half);
        if lo16 < half {
            // a surrogate pair straddles `half`: the first boundary past it
            let (_, w) = text.char_at(lo).unwrap_or(('\0', 1));
            lo += w;
            lo16 = text.utf16_len(p, lo);
        }
        let (hi, more) = text.advance(lo, limit - lo16);
        let (e, next) = s.scan(p, lo, hi).unwrap_or_else(|| s.walk(p, lo, hi));
        let e16 = if e >= lo {
            p16 + lo16 + text.utf16_len(lo, e)
        } else {
            p16 + text.utf16_len(p, e)
        };
        debug_assert!(e16 - p16 <= lo16 + more);
        if e > p {
            out.push(Piece {
                start: p,
                end: e,
                start16: p16,
                end16: e16,
            });
        }
        p16 = e16 + text.utf16_len(e, next);
        p = next;
    }
    Ok(out)
}

/// A run of white space, char by char (`a..b`) and as whole clusters (`e..s`, empty when
/// none of it is a cluster of its own), with its line breaks counted (0, 1, or 2 for more).
#[derive(Clone, Copy, Debug)]
struct Run {
    a: usize,
    b: usize,
    e: usize,
    s: usize,
    breaks: u8,
}

/// The state of one split: the text, and what is measured once however many windows see it
/// (S5): the last white-space run found, and a cluster longer than the limit.
struct Splitter<T> {
    text: T,
    limit: usize,
    run: Option<Run>,
    long: Option<(usize, usize)>,
}

impl<T: Text> Splitter<T> {
    /// The white-space run holding the character at `y` (white space).
    fn run_at(&mut self, y: usize) -> Run {
        if let Some(r) = self.run.filter(|r| r.a <= y && y < r.b) {
            return r;
        }
        let t = self.text;
        let mut breaks = 0u8;
        let mut count = |c: char| breaks = (breaks + u8::from(c == '\n')).min(2);
        let mut a = y;
        while let Some((c, w)) = t.char_before(a).filter(|&(c, _)| c.is_whitespace()) {
            count(c);
            a -= w;
        }
        let mut b = y;
        while let Some((c, w)) = t.char_at(b).filter(|&(c, _)| c.is_whitespace()) {
            count(c);
            b += w;
        }
        // as whole clusters (GB9b: a prepended mark takes the space after it; GB9, GB9a: a
        // space takes the marks after it)
        let (mut e, mut s) = (a, b);
        if let (Some((before, _)), Some((first, w))) = (t.char_before(a), t.char_at(a)) {
            if !pair_breaks(class(before), class(first)) {
                e += w;
            }
        }
        if let (Some((last, w)), Some((after, _))) = (t.char_before(b), t.char_at(b)) {
            if !pair_breaks(class(last), class(after)) {
                s -= w;
            }
        }
        let run = Run {
            a,
            b,
            e,
            s: s.max(e),
            breaks,
        };
        if self.run.is_none_or(|r| r.b <= b) {
            self.run = Some(run);
        }
        run
    }

    /// S3's kinds 1 to 4 (white space and sentence ends), read backward from `hi` down to
    /// `lo`: the cut `(end of the part, start of the next)` of the strongest kind with a
    /// candidate in `lo..=hi`, its last one; `None` when no kind has one.
    fn scan(&mut self, p: usize, lo: usize, hi: usize) -> Option<(usize, usize)> {
        let t = self.text;
        let mut best: [Option<(usize, usize)>; 4] = [None; 4];
        let mut y = hi;
        // from a few units below `lo`: a `。` that starts there may end in the window
        let floor = lo.saturating_sub(3).max(p);
        while let Some(k) = t.rfind_special(floor, y) {
            let Some((c, w)) = t.char_at(k) else { break };
            if c.is_whitespace() {
                let run = self.run_at(k);
                if run.e < run.s && (lo..=hi).contains(&run.e) && run.e > p {
                    let kind = match run.breaks {
                        2 => 0,
                        1 => 1,
                        _ if t.char_before(run.e).is_some_and(|(c, _)| ends_sentence(c)) => 2,
                        _ => 3,
                    };
                    if let Some(slot) = best.get_mut(kind) {
                        slot.get_or_insert((run.e, run.s));
                    }
                    if kind == 0 {
                        break;
                    }
                }
                if run.a <= floor {
                    break;
                }
                y = run.a - 1;
            } else {
                // `。` `！` `？` not followed by white space (else its run counted above)
                let after = k + w;
                if matches!(c, '。' | '！' | '？') && (lo..=hi).contains(&after) {
                    if let Some((next, _)) = t.char_at(after) {
                        if pair_breaks(class(c), class(next)) && !self.run_starts(after) {
                            best[2].get_or_insert((after, after));
                        }
                    }
                }
                if k <= floor {
                    break;
                }
                y = k - 1;
            }
        }
        best.into_iter().flatten().next()
    }

    /// S3's kinds 5 and 6 and the last resort, when [`Splitter::scan`] found nothing: a
    /// walk over the clusters from `p` (a boundary, or inside the long cluster) to `hi`.
    fn walk(&mut self, p: usize, lo: usize, hi: usize) -> (usize, usize) {
        let n = self.text.len();
        let mut c = Candidates::default();
        let mut x = p;
        // inside the long cluster: its code points, then its end
        if let Some((_, end)) = self.long.filter(|&(a, b)| a < p && p < b) {
            self.points(p, end.min(hi), lo, &mut c);
            x = end;
            if end <= hi {
                self.boundary(end, lo, &mut c);
            }
        }
        while x <= hi && x < n {
            if self.run_starts(x) {
                let run = self.run_at(x);
                if x > p {
                    c.last = Some((x, run.s));
                } else {
                    c.skip = Some((x, run.s));
                }
                x = run.s;
                continue;
            }
            let end = match self.long {
                Some((a, b)) if a == x => b,
                _ => self.cluster_end(x),
            };
            if end > hi {
                if self.text.utf16_len(x, end) > self.limit {
                    self.long = Some((x, end));
                    self.points(x, hi, lo, &mut c);
                }
                break;
            }
            self.boundary(end, lo, &mut c);
            x = end;
        }
        c.cluster
            .or(c.point)
            .map(|b| (b, b))
            .or(c.last)
            .or(c.skip)
            .unwrap_or((hi, hi))
    }

    /// Records the cluster boundary `x` (at most `hi`), unless white space starts there
    /// (then the cut is the run's, which the walk records next).
    fn boundary(&mut self, x: usize, lo: usize, c: &mut Candidates) {
        if !self.run_starts(x) {
            if x >= lo {
                c.cluster = Some(x);
            }
            c.last = Some((x, x));
        }
    }

    /// Whether a run of white-space clusters starts at `x`.
    fn run_starts(&mut self, x: usize) -> bool {
        if !self.text.char_at(x).is_some_and(|(c, _)| c.is_whitespace()) {
            return false;
        }
        let run = self.run_at(x);
        run.e == x && run.e < run.s
    }

    /// The code point boundaries in `from+1..=to`, short of the long cluster's end (kind 6).
    fn points(&self, from: usize, to: usize, lo: usize, c: &mut Candidates) {
        let end = self.long.map_or(to, |(_, b)| b);
        let mut q = from;
        while let Some((_, w)) = self.text.char_at(q) {
            if q + w > to || q + w >= end {
                break;
            }
            q += w;
            if q >= lo {
                c.point = Some(q);
            }
            c.last = Some((q, q));
        }
    }

    /// The end of the grapheme cluster that starts at `x` (a boundary).
    fn cluster_end(&self, x: usize) -> usize {
        let t = self.text;
        let Some((c, w)) = t.char_at(x) else {
            return x;
        };
        let mut seg = Segmenter::new(class(c));
        let mut q = x + w;
        while let Some((c, w)) = t.char_at(q) {
            if seg.next(class(c)) {
                break;
            }
            q += w;
        }
        q
    }
}

/// What [`Splitter::walk`] finds: the last cluster boundary (kind 5) and code point boundary
/// (kind 6) that leave the part half full, the last cut of any kind, and white space that
/// opens the part (the text).
#[derive(Default)]
struct Candidates {
    cluster: Option<usize>,
    point: Option<usize>,
    last: Option<(usize, usize)>,
    skip: Option<(usize, usize)>,
}

/// The characters after which, followed by white space, a sentence ends (S3 kind 3).
fn ends_sentence(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？')
}

/// A text to split, in its own code units (UTF-8 bytes of a `&str`, or UTF-16 units): what
/// the scans ask of it. Positions are unit offsets; the ones the scans keep are character
/// boundaries.
trait Text: Copy {
    /// Length in units.
    fn len(self) -> usize;
    /// The character that starts at `k` and its length in units; a lone surrogate reads as
    /// U+FFFD of one unit.
    fn char_at(self, k: usize) -> Option<(char, usize)>;
    /// The character that ends at `k`.
    fn char_before(self, k: usize) -> Option<(char, usize)>;
    /// UTF-16 length of `a..b`.
    fn utf16_len(self, a: usize, b: usize) -> usize;
    /// The farthest character boundary from `from` within `n` UTF-16 units, and how many
    /// units that is.
    fn advance(self, from: usize, n: usize) -> (usize, usize);
    /// The last position in `lo..=hi` whose unit may start white space or `。！？`.
    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize>;
}

/// Whether a byte may start a `White_Space` character or `。！？`: the ASCII white space, and
/// the lead bytes of U+0085/U+00A0 (C2), U+1680 (E1), U+2000–U+205F (E2), U+3000/U+3002
/// (E3), U+FF01/U+FF1F (EF).
fn special8(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x20 | 0xc2 | 0xe1 | 0xe2 | 0xe3 | 0xef)
}

impl Text for &str {
    fn len(self) -> usize {
        str::len(self)
    }

    fn char_at(self, k: usize) -> Option<(char, usize)> {
        let c = self.get(k..)?.chars().next()?;
        Some((c, c.len_utf8()))
    }

    fn char_before(self, k: usize) -> Option<(char, usize)> {
        let c = self.get(..k)?.chars().next_back()?;
        Some((c, c.len_utf8()))
    }

    fn utf16_len(self, a: usize, b: usize) -> usize {
        crate::text::utf16::utf16_len_of_bytes(self.as_bytes().get(a..b).unwrap_or_default())
    }

    fn advance(self, from: usize, n: usize) -> (usize, usize) {
        let bytes = self.as_bytes();
        let (mut pos, mut left) = (from, n);
        // `left` bytes hold at most `left` units: count them a chunk at a time
        while left >= 16 {
            let mut end = (pos + left).min(bytes.len());
            while end > pos && !self.is_char_boundary(end) {
                end -= 1;
            }
            if end <= pos {
                break;
            }
            left -= self.utf16_len(pos, end);
            pos = end;
            if end == bytes.len() {
                return (pos, n - left);
            }
        }
        while let Some((c, w)) = self.char_at(pos) {
            if c.len_utf16() > left {
                break;
            }
            left -= c.len_utf16();
            pos += w;
        }
        (pos, n - left)
    }

    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize> {
        let bytes = self
            .as_bytes()
            .get(lo..=hi.min(str::len(self).saturating_sub(1)))?;
        bytes.iter().rposition(|&b| special8(b)).map(|k| lo + k)
    }
}

impl Text for &[u16] {
    fn len(self) -> usize {
        <[u16]>::len(self)
    }

    fn char_at(self, k: usize) -> Option<(char, usize)> {
        let u = *self.get(k)?;
        if (0xd800..0xdc00).contains(&u) {
            if let Some(&lo) = self
                .get(k + 1)
                .filter(|&&lo| (0xdc00..0xe000).contains(&lo))
            {
                let c = 0x1_0000 + ((u32::from(u) & 0x3ff) << 10) + (u32::from(lo) & 0x3ff);
                return Some((char::from_u32(c).unwrap_or('\u{fffd}'), 2));
            }
        }
        Some((char::from_u32(u32::from(u)).unwrap_or('\u{fffd}'), 1))
    }

    fn char_before(self, k: usize) -> Option<(char, usize)> {
        let last = *self.get(k.checked_sub(1)?)?;
        if (0xdc00..0xe000).contains(&last) && k >= 2 {
            if let Some((c, 2)) = self.char_at(k - 2) {
                return Some((c, 2));
            }
        }
        Some((char::from_u32(u32::from(last)).unwrap_or('\u{fffd}'), 1))
    }

    fn utf16_len(self, a: usize, b: usize) -> usize {
        b.saturating_sub(a)
    }

    fn advance(self, from: usize, n: usize) -> (usize, usize) {
        let mut end = from.saturating_add(n).min(<[u16]>::len(self));
        // never between the halves of a pair (C5)
        if end > from && self.char_at(end - 1).is_some_and(|(_, w)| w == 2) {
            end -= 1;
        }
        (end, end - from)
    }

    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize> {
        let units = self.get(lo..=hi.min(<[u16]>::len(self).saturating_sub(1)))?;
        units.iter().rposition(|&u| special16(u)).map(|k| lo + k)
    }
}

/// Whether a UTF-16 unit is a `White_Space` character or `。！？`.
fn special16(u: u16) -> bool {
    match u {
        0x09..=0x0d | 0x20 => true,
        0..0x85 => false,
        0x85 | 0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f => true,
        0x3000 | 0x3002 | 0xff01 | 0xff1f => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str, limit: usize) -> Vec<String> {
        let f = Formatted {
            text: s.into(),
            text_styles: vec![],
        };
        split(&f, limit)
            .unwrap()
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn small_cases() {
        assert_eq!(texts("a b", 2), ["a", "b"]);
        assert_eq!(texts("   ", 2), Vec::<String>::new());
        assert_eq!(texts("  ab", 2), ["ab"]);
        assert_eq!(texts("abc", 2), ["ab", "c"]);
    }
}
