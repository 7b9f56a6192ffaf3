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
    // S1: most messages fit
    if limit >= 2 && text.len() <= limit {
        return Ok(if text.is_empty() {
            Vec::new()
        } else {
            vec![formatted.clone()]
        });
    }
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
            let reaching = runs.get(first..).unwrap_or_default();
            let count = reaching.iter().take_while(|r| r.start < p.end16).count();
            let mut clipped = Vec::with_capacity(count);
            clipped.extend(reaching.iter().take(count).filter_map(|r| {
                let start = r.start.max(p.start16);
                let end = r.end().min(p.end16);
                (end > start).then(|| TextStyle {
                    start: start - p.start16,
                    len: end - start,
                    st: r.st,
                })
            }));
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
    // at most two parts per limit's worth of units, and a unit takes a code unit or more
    let mut out = Vec::with_capacity(2 * n / limit + 2);
    let mut s = Splitter {
        text,
        limit,
        run: None,
        long: None,
        window: Window::default(),
    };
    let (mut p, mut p16) = (0, 0);
    let half = limit.div_ceil(2);
    while p < n {
        // the window: a cut at `e` in lo..=hi leaves the part half full or more (S3); `lo`
        // is found by counting only when the scan finds no cut (bytes: `near` is at or
        // before it, and each cut found is measured)
        let (hi, hi16) = text.advance(p, limit);
        let hi16 = p16 + hi16;
        if hi == n {
            // the rest fits (S1)
            out.push(Piece {
                start: p,
                end: n,
                start16: p16,
                end16: hi16,
            });
            break;
        }
        s.window = Window {
            p,
            near: text.near(p, half),
            hi,
            hi16: hi16 - p16,
            half,
        };
        let (e, next) = s.scan().unwrap_or_else(|| s.walk());
        let e16 = if e >= s.window.near {
            hi16 - text.utf16_len(e, hi)
        } else {
            p16 + text.utf16_len(p, e)
        };
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

/// The state of one split: the text, what is measured once however many windows see it
/// (S5): the last white-space run found, and a cluster longer than the limit; and the
/// current part's window.
struct Splitter<T> {
    text: T,
    limit: usize,
    run: Option<Run>,
    long: Option<(usize, usize)>,
    window: Window,
}

/// The window of the part that starts at `p`: cuts up to `hi` (`hi16` UTF-16 units on)
/// leave it within the limit, and those `half` units on or more leave it half full (S3);
/// `near` is at or before the first of those.
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    p: usize,
    near: usize,
    hi: usize,
    hi16: usize,
    half: usize,
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
        // (no prepended mark is below U+0600, no mark below U+0300)
        if let (Some((before, _)), Some((first, w))) = (t.char_before(a), t.char_at(a)) {
            if before >= '\u{600}' && !pair_breaks(class(before), class(first)) {
                e += w;
            }
        }
        if let (Some((last, w)), Some((after, _))) = (t.char_before(b), t.char_at(b)) {
            if after >= '\u{300}' && !pair_breaks(class(last), class(after)) {
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
    ///
    /// The last run of white space is found first (the last word); below it only the bytes
    /// that can make a stronger cut are looked at — line breaks, and the characters that end
    /// a sentence — so the spaces between words cost nothing more.
    fn scan(&mut self) -> Option<(usize, usize)> {
        let t = self.text;
        let Window { p, near, hi, .. } = self.window;
        let mut best: [Option<(usize, usize)>; 4] = [None; 4];
        // from a few units below the window: a `。` that starts there may end in it
        let floor = near.saturating_sub(3).max(p);
        let mut y = hi;
        // the last white space (which may go on past `hi`), and any `。` after it
        loop {
            let Some(k) = t.rfind_special(floor, y) else {
                return best.into_iter().flatten().next();
            };
            let Some((c, w)) = t.char_at(k) else { break };
            let below = if c.is_whitespace() {
                let run = self.run_at(k);
                self.record(&mut best, run);
                if run.e < near {
                    return best.into_iter().flatten().next();
                }
                run.a
            } else {
                self.cjk(&mut best, c, k + w);
                k
            };
            if below <= floor {
                return best.into_iter().flatten().next();
            }
            y = below - 1;
            if best[1..].iter().any(Option::is_some) {
                break;
            }
        }
        // below it: line breaks and sentence ends, then line breaks alone
        while best[0].is_none() {
            let breaks_only = best[1].is_some() || best[2].is_some();
            let found = if breaks_only {
                t.rfind_newline(floor, y)
            } else {
                t.rfind_strong(floor, y)
            };
            let Some(k) = found else { break };
            let Some((c, w)) = t.char_at(k) else { break };
            let mut below = k;
            if c == '\n' {
                let run = self.run_at(k);
                self.record(&mut best, run);
                below = run.a;
            } else if ends_sentence(c) {
                if self.run_starts(k + w) {
                    let run = self.run_at(k + w);
                    self.record(&mut best, run);
                } else {
                    self.cjk(&mut best, c, k + w);
                }
            }
            if below <= floor {
                break;
            }
            y = below - 1;
        }
        best.into_iter().flatten().next()
    }

    /// Whether a cut at `e` (in the window, at most `hi`) leaves the part half full.
    fn half_full(&self, e: usize) -> bool {
        let w = self.window;
        e >= w.near && e <= w.hi && w.hi16 - self.text.utf16_len(e, w.hi) >= w.half
    }

    /// Records the cut after `。` `！` `？` (`c`, ending at `after`) as a sentence end when
    /// no white space follows it (else its run is the cut) and it ends a cluster.
    fn cjk(&mut self, best: &mut [Option<(usize, usize)>; 4], c: char, after: usize) {
        if !matches!(c, '。' | '！' | '？') || best[2].is_some() || !self.half_full(after) {
            return;
        }
        if let Some((next, _)) = self.text.char_at(after) {
            if pair_breaks(class(c), class(next)) && !self.run_starts(after) {
                best[2] = Some((after, after));
            }
        }
    }

    /// Records `run` in `best` under its kind (0 to 3: paragraph, line, sentence, word) when
    /// it is a cut in the window (whole clusters, leaving the part half full) and the first
    /// of its kind.
    fn record(&self, best: &mut [Option<(usize, usize)>; 4], run: Run) {
        if run.e >= run.s || run.e <= self.window.p || !self.half_full(run.e) {
            return;
        }
        let kind = match run.breaks {
            2 => 0,
            1 => 1,
            _ if self
                .text
                .char_before(run.e)
                .is_some_and(|(c, _)| ends_sentence(c)) =>
            {
                2
            }
            _ => 3,
        };
        if let Some(slot) = best.get_mut(kind) {
            slot.get_or_insert((run.e, run.s));
        }
    }

    /// S3's kinds 5 and 6 and the last resort, when [`Splitter::scan`] found nothing: a
    /// walk over the clusters from `p` (a boundary, or inside the long cluster) to `hi`.
    fn walk(&mut self) -> (usize, usize) {
        let Window { p, hi, half, .. } = self.window;
        let n = self.text.len();
        // the first boundary that leaves the part half full (`near` only bounds it)
        let (mut lo, lo16) = self.text.advance(p, half);
        if lo16 < half {
            lo += self.text.char_at(lo).map_or(0, |(_, w)| w);
        }
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
    /// A position at or before the first one `half` UTF-16 units after `from`, found
    /// without counting (bytes: a unit takes one or more).
    fn near(self, from: usize, half: usize) -> usize;
    /// The last position in `lo..=hi` whose unit may start white space or `。！？`.
    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize>;
    /// The last position in `lo..=hi` of a `\n`.
    fn rfind_newline(self, lo: usize, hi: usize) -> Option<usize>;
    /// The last position in `lo..=hi` whose unit may start `\n` or a character that ends a
    /// sentence ([`ends_sentence`]).
    fn rfind_strong(self, lo: usize, hi: usize) -> Option<usize>;
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

    #[inline]
    fn char_at(self, k: usize) -> Option<(char, usize)> {
        match self.as_bytes().get(k) {
            Some(&b) if b < 0x80 => Some((char::from(b), 1)),
            _ => {
                let c = self.get(k..)?.chars().next()?;
                Some((c, c.len_utf8()))
            }
        }
    }

    #[inline]
    fn char_before(self, k: usize) -> Option<(char, usize)> {
        match self.as_bytes().get(k.checked_sub(1)?) {
            Some(&b) if b < 0x80 => Some((char::from(b), 1)),
            _ => {
                let c = self.get(..k)?.chars().next_back()?;
                Some((c, c.len_utf8()))
            }
        }
    }

    fn utf16_len(self, a: usize, b: usize) -> usize {
        crate::text::utf16::utf16_len_of_bytes(self.as_bytes().get(a..b).unwrap_or_default())
    }

    fn advance(self, from: usize, n: usize) -> (usize, usize) {
        let bytes = self.as_bytes();
        let (mut pos, mut left) = (from, n);
        // `left` bytes hold at most `left` units: count them a chunk at a time, each chunk
        // cut back to a character boundary, until one gains nothing
        while left > 0 {
            let mut end = (pos + left).min(bytes.len());
            while end > pos && !self.is_char_boundary(end) {
                end -= 1;
            }
            if end > pos {
                left -= self.utf16_len(pos, end);
                pos = end;
                continue;
            }
            // a character of more bytes than units left, which may still fit
            match self.char_at(pos) {
                Some((c, w)) if c.len_utf16() <= left => {
                    left -= c.len_utf16();
                    pos += w;
                }
                _ => break,
            }
        }
        (pos, n - left)
    }

    fn near(self, from: usize, half: usize) -> usize {
        from.saturating_add(half).min(str::len(self))
    }

    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize> {
        let bytes = self.as_bytes();
        let top = bytes.get(lo..=hi.min(str::len(self).saturating_sub(1)))?;
        let mut end = top.len();
        while let Some(k) = top.get(..end)?.iter().rposition(|&b| special8(b)) {
            let b = top.get(k).copied().unwrap_or(0);
            // the byte after a lead tells most of its other characters apart
            let second = bytes.get(lo + k + 1).copied().unwrap_or(0);
            let maybe = match b {
                0xc2 => matches!(second, 0x85 | 0xa0),
                0xe1 => second == 0x9a,
                0xe2 => matches!(second, 0x80 | 0x81),
                0xe3 => second == 0x80,
                0xef => second == 0xbc,
                _ => true,
            };
            if maybe {
                return Some(lo + k);
            }
            end = k;
        }
        None
    }

    fn rfind_strong(self, lo: usize, hi: usize) -> Option<usize> {
        let bytes = self.as_bytes();
        let top = bytes.get(lo..=hi.min(str::len(self).saturating_sub(1)))?;
        // `…` is E2 80 A6, `。` E3 80 82, `！` and `？` EF BC 81/9F
        top.iter()
            .rposition(|&b| matches!(b, b'\n' | b'.' | b'!' | b'?' | 0xe2 | 0xe3 | 0xef))
            .map(|k| lo + k)
    }

    fn rfind_newline(self, lo: usize, hi: usize) -> Option<usize> {
        let bytes = self.as_bytes();
        let top = bytes.get(lo..=hi.min(str::len(self).saturating_sub(1)))?;
        top.iter().rposition(|&b| b == b'\n').map(|k| lo + k)
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

    fn near(self, from: usize, half: usize) -> usize {
        from.saturating_add(half).min(<[u16]>::len(self))
    }

    fn rfind_special(self, lo: usize, hi: usize) -> Option<usize> {
        let units = self.get(lo..=hi.min(<[u16]>::len(self).saturating_sub(1)))?;
        units.iter().rposition(|&u| special16(u)).map(|k| lo + k)
    }

    fn rfind_strong(self, lo: usize, hi: usize) -> Option<usize> {
        let units = self.get(lo..=hi.min(<[u16]>::len(self).saturating_sub(1)))?;
        units
            .iter()
            .rposition(|&u| {
                matches!(
                    u,
                    0x0a | 0x2e | 0x21 | 0x3f | 0x2026 | 0x3002 | 0xff01 | 0xff1f
                )
            })
            .map(|k| lo + k)
    }

    fn rfind_newline(self, lo: usize, hi: usize) -> Option<usize> {
        let units = self.get(lo..=hi.min(<[u16]>::len(self).saturating_sub(1)))?;
        units.iter().rposition(|&u| u == 0x0a).map(|k| lo + k)
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
