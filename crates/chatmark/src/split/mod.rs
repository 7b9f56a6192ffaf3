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
//! - **S5** linear time: each part counts its window of `limit` units once, forward (which
//!   also finds where the part is half full), then reads it backward from its end, only as
//!   far as the half: to the last white space (the last word), then — vectorised over UTF-8
//!   — only the bytes that can make a stronger cut (line breaks, the characters that end a
//!   sentence). A forward walk over the clusters follows only when no white space or
//!   sentence end qualifies. The one long white-space run or long cluster that several
//!   windows meet is measured once.
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
//! the cuts are found generically over the text's code units through [`Text`], whose two
//! forms read, count and search their encoding.

mod grapheme;
mod grapheme_table;

use crate::text::search::rfind_any;
use crate::text::source::well_formed;
use crate::text::utf16::{advance, utf16_len_of_bytes};
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
    // S1: most messages fit (a UTF-8 byte is at most one UTF-16 unit)
    if limit >= 2 && text.len() <= limit {
        return Ok(if text.is_empty() {
            Vec::new()
        } else {
            vec![formatted.clone()]
        });
    }
    let mut parts = Vec::with_capacity(2 * text.len() / limit.max(2) + 1);
    split_text::<_, FAST>(text, &formatted.text_styles, limit, |a, b, runs| {
        parts.push(Formatted {
            text: text.get(a..b).unwrap_or_default().to_owned(),
            text_styles: runs,
        });
    })?;
    Ok(parts)
}

/// [`split`] for text held as UTF-16 units, as [`crate::parse_markdown_utf16`] writes it; a
/// lone surrogate reads as U+FFFD (L2), in the parts too.
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
    let mut parts = Vec::new();
    split_utf16_each(
        &formatted.text,
        &formatted.text_styles,
        limit,
        |text, runs| {
            parts.push(FormattedUtf16 {
                text: text.to_vec(),
                text_styles: runs.to_vec(),
            });
        },
    )?;
    Ok(parts)
}

/// [`split_utf16`] part by part, of a text and its (canonical) runs: `each` is given every
/// part's text and runs in order, with nothing allocated for them (a host that writes the
/// parts out, as the npm package does, or sends them as they come).
///
/// # Examples
///
/// ```
/// let text: Vec<u16> = "one two".encode_utf16().collect();
/// let mut parts = Vec::new();
/// chatmark::split_utf16_each(&text, &[], 4, |part, runs| {
///     parts.push((String::from_utf16_lossy(part), runs.len()));
/// })
/// .unwrap();
/// assert_eq!(parts, [("one".to_string(), 0), ("two".to_string(), 0)]);
/// ```
pub fn split_utf16_each(
    text: &[u16],
    text_styles: &[TextStyle],
    limit: usize,
    mut each: impl FnMut(&[u16], &[TextStyle]),
) -> Result<(), SplitError> {
    let text = well_formed(text);
    split_text::<_, FAST>(&*text, text_styles, limit, |a, b, runs| {
        each(text.get(a..b).unwrap_or_default(), &runs);
    })
}

/// The parts of `text` with `runs` (S1–S4), for either encoding, given to `each` in order:
/// the part's range in the text and its runs. `FAST` as [`FAST`] says.
fn split_text<T: Text, const FAST: bool>(
    text: T,
    runs: &[TextStyle],
    limit: usize,
    mut each: impl FnMut(usize, usize, Vec<TextStyle>),
) -> Result<(), SplitError> {
    if limit < 2 {
        return Err(SplitError::InvalidLimit(limit));
    }
    let n = text.len();
    let mut s = Splitter::<T, FAST> {
        text,
        limit,
        half: limit.div_ceil(2),
        run: None,
        long: None,
        window: Window::default(),
    };
    let mut first = 0; // the first run that may reach the current part (both are in order)
    let (mut p, mut p16) = (0, 0);
    while p < n {
        let cut = s.cut(p);
        if cut.e > p {
            // S4: the runs over `p16..end`, clipped to it and shifted to its start
            let end = p16 + cut.e16;
            let clipped = if FAST {
                clip_fast(runs, &mut first, p16, end)
            } else {
                clip_small(runs, &mut first, p16, end)
            };
            each(p, cut.e, clipped);
        }
        p = cut.next;
        p16 += cut.next16;
    }
    Ok(())
}

/// The runs over `p16..end` clipped to it and shifted to its start, from `runs[*first..]`,
/// leaving `*first` at the first one that may reach the next part: past the runs that end
/// before `p16` (in the white space dropped there), the ones that start before `end`, of
/// which (canonical runs) only the first may start before the part and only the last end
/// after it. Counted first, so that one allocation holds them.
fn clip_fast(runs: &[TextStyle], first: &mut usize, p16: usize, end: usize) -> Vec<TextStyle> {
    while runs.get(*first).is_some_and(|r| r.end() <= p16) {
        *first += 1;
    }
    let reaching = runs.get(*first..).unwrap_or_default();
    let count = reaching.iter().take_while(|r| r.start < end).count();
    let reaching = reaching.get(..count).unwrap_or_default();
    let mut clipped = Vec::with_capacity(count);
    for r in reaching {
        clipped.push(TextStyle {
            start: r.start.saturating_sub(p16),
            ..*r
        });
    }
    let clip = |r: &TextStyle| r.end().min(end).saturating_sub(r.start.max(p16));
    if let (Some(c), Some(r)) = (clipped.first_mut(), reaching.first()) {
        c.len = clip(r);
    }
    if let (Some(c), Some(r)) = (clipped.last_mut(), reaching.last()) {
        c.len = clip(r);
    }
    // all but the last end in this part
    *first += count.saturating_sub(1);
    clipped
}

/// [`clip_fast`] in one loop, each run clipped as it comes: a few more instructions a run,
/// a few hundred fewer bytes in the npm package's wasm.
fn clip_small(runs: &[TextStyle], first: &mut usize, p16: usize, end: usize) -> Vec<TextStyle> {
    let mut clipped = Vec::new();
    let mut k = *first;
    while let Some(r) = runs.get(k).filter(|r| r.start < end) {
        let (start, stop) = (r.start.max(p16), r.end().min(end));
        if stop > start {
            clipped.push(TextStyle {
                start: start - p16,
                len: stop - start,
                st: r.st,
            });
        }
        k += 1;
        // the next part starts after this one: past the runs that end in it
        if r.end() <= end {
            *first = k;
        }
    }
    clipped
}

/// Where a part that starts at `p` ends (`e`) and the next one starts (`next`: past the
/// white space dropped between them), and both in UTF-16 units from `p`.
#[derive(Clone, Copy, Debug)]
struct Cut {
    e: usize,
    e16: usize,
    next: usize,
    next16: usize,
}

/// A run of white space, char by char (`a..b`) and as whole clusters (`e..s`, empty when
/// none of it is a cluster of its own), with its line breaks counted (0, 1, or 2 for more),
/// and whether a sentence ends before it (at `e`).
#[derive(Clone, Copy, Debug)]
struct Run {
    a: usize,
    b: usize,
    e: usize,
    s: usize,
    breaks: u8,
    sentence: bool,
}

/// The state of one split: the text and its limit, what is measured once however many
/// windows see it (S5): the last white-space run found, and a cluster longer than the
/// limit; and the current part's window. With `FAST` ([`FAST`]), the cuts of kinds 1 to 4
/// are found by [`Splitter::scan`], reading back from the window's end, and the shortcuts
/// for the usual white space are taken.
struct Splitter<T, const FAST: bool> {
    text: T,
    limit: usize,
    /// `limit / 2` rounded up: the fewest units of a half-full part.
    half: usize,
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
}

/// What the backward searches look for ([`Text::rfind`]); a bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Find {
    /// A unit that may start white space or `。` `！` `？`.
    Special = 1,
    /// A unit that may start a line break or a character that ends a sentence.
    Strong = 2,
    /// A line break.
    Newline = 4,
}

impl<T: Text, const FAST: bool> Splitter<T, FAST> {
    /// The cut of the part that starts at `p` (a boundary, or inside the long cluster).
    fn cut(&mut self, p: usize) -> Cut {
        let t = self.text;
        // the window, counted once: `hi` keeps the part within the limit
        let (hi, hi16) = t.advance(p, self.limit);
        if hi >= t.len() {
            // the rest fits (S1)
            return Cut {
                e: hi,
                e16: hi16,
                next: hi,
                next16: hi16,
            };
        }
        // at or before the first cut that leaves the part half full (a unit takes a code
        // unit or more)
        let near = (p + self.half).min(hi);
        self.window = Window { p, near, hi, hi16 };
        let (e, next) = match FAST {
            true => self.scan().unwrap_or_else(|| self.walk()),
            false => self.walk(),
        };
        let e16 = if e >= near {
            hi16 - t.utf16_len(e, hi)
        } else {
            t.utf16_len(p, e)
        };
        // (what is dropped is most often one space or line break: a unit)
        let gap = if next == e + 1 {
            1
        } else {
            t.utf16_len(e, next)
        };
        Cut {
            e,
            e16,
            next,
            next16: e16 + gap,
        }
    }

    /// The white-space run holding the character at `y` (white space).
    fn run_at(&mut self, y: usize) -> Run {
        if let Some(r) = self.run.filter(|r| r.a <= y && y < r.b) {
            return r;
        }
        let t = self.text;
        // the usual run: one ASCII white space between two ASCII characters that are not,
        // so that it is a cluster of its own (no prepended mark or mark is ASCII)
        if let Some(u @ (0x09..=0x0d | 0x20)) = t.unit(y).filter(|_| FAST) {
            if y > 0 && plain(t, y - 1) && plain(t, y + 1) {
                let run = Run {
                    a: y,
                    b: y + 1,
                    e: y,
                    s: y + 1,
                    breaks: u8::from(u == 0x0a),
                    sentence: y
                        .checked_sub(1)
                        .and_then(|k| t.unit(k))
                        .is_some_and(|u| matches!(u, 0x21 | 0x2e | 0x3f)),
                };
                if self.run.is_none_or(|r| r.b <= run.b) {
                    self.run = Some(run);
                }
                return run;
            }
        }
        let mut breaks = 0u8;
        let mut count = |c: char| breaks = (breaks + u8::from(c == '\n')).min(2);
        // its characters from `y` on, the first and the last of them, what follows them;
        // then back from `y`, and what comes before them
        let (mut b, mut head, mut last) = (y, None, None);
        let after = loop {
            match t.char_at(b) {
                Some((c, w)) if white(c) => {
                    count(c);
                    head.get_or_insert((c, w));
                    last = Some((c, w));
                    b += w;
                }
                other => break other,
            }
        };
        let mut a = y;
        let before = loop {
            match t.char_before(a) {
                Some((c, w)) if white(c) => {
                    count(c);
                    head = Some((c, w));
                    a -= w;
                }
                other => break other,
            }
        };
        // as whole clusters (GB9b: a prepended mark takes the space after it; GB9, GB9a: a
        // space takes the marks after it; no prepended mark is below U+0600, no mark below
        // U+0300)
        let (mut e, mut s) = (a, b);
        if let (Some((before, _)), Some((first, w))) = (before, head) {
            if before >= '\u{600}' && !pair_breaks(class(before), class(first)) {
                e += w;
            }
        }
        if let (Some((last, w)), Some((after, _))) = (last, after) {
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
            sentence: e == a && before.is_some_and(|(c, _)| ends_sentence(c)),
        };
        if self.run.is_none_or(|r| r.b <= b) {
            self.run = Some(run);
        }
        run
    }

    /// S3's kinds 1 to 4 (white space and sentence ends), read backward from `hi` down to
    /// `near`: the cut `(end of the part, start of the next)` of the strongest kind with a
    /// candidate that leaves the part half full, its last one; `None` when no kind has one.
    ///
    /// The last run of white space is found first (the last word); below it only the units
    /// that can make a stronger cut are looked at — line breaks, and the characters that
    /// end a sentence — so the spaces between words cost nothing more.
    fn scan(&mut self) -> Option<(usize, usize)> {
        let t = self.text;
        let Window { p, near, .. } = self.window;
        let mut best: [Option<(usize, usize)>; 4] = [None; 4];
        // from a few units below the window: a `。` that starts there may end in it
        let floor = near.saturating_sub(3).max(p);
        let mut y = self.window.hi;
        // the last white space (which may go on past `hi`), and any `。` after it
        loop {
            let Some(k) = t.rfind(floor, y, Find::Special) else {
                return first(&best);
            };
            let Some((c, w)) = t.char_at(k) else { break };
            let below = if white(c) {
                let run = self.run_at(k);
                self.record(&mut best, run);
                if run.e < near {
                    return first(&best);
                }
                run.a
            } else {
                self.cjk(&mut best, c, k + w);
                k
            };
            if below <= floor {
                return first(&best);
            }
            y = below - 1;
            if best.iter().any(Option::is_some) {
                break;
            }
        }
        // below it: line breaks and sentence ends, then line breaks alone
        while best[0].is_none() {
            let find = if best[1].is_some() || best[2].is_some() {
                Find::Newline
            } else {
                Find::Strong
            };
            let Some(k) = t.rfind(floor, y, find) else {
                break;
            };
            let Some((c, w)) = t.char_at(k) else { break };
            let mut below = k;
            if FAST && c == '\n' && best[1].is_some() && k > 0 && plain(t, k - 1) && plain(t, k + 1)
            {
                // a line break alone, once one is found: no paragraph break here
            } else if c == '\n' {
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
        first(&best)
    }

    /// Whether a cut at `e` leaves the part half full (at least `half` UTF-16 units from
    /// `p`) and within the limit: measured from the nearer end of the window, `hi` being
    /// `hi16` units on (a unit takes a code unit or more, so that most cuts are judged
    /// without counting).
    fn half_full(&self, e: usize) -> bool {
        let Window { p, near, hi, hi16 } = self.window;
        if e < near || e > hi {
            return false;
        }
        let (t, half) = (self.text, self.half);
        let most = hi16.saturating_sub(half); // units that may lie after the cut
        if hi - e <= most {
            true
        } else if e - p < hi - e {
            t.utf16_len(p, e) >= half
        } else {
            t.utf16_len(e, hi) <= most
        }
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
    /// of its kind (the last in the text: [`Splitter::scan`] reads backward).
    fn record(&self, best: &mut [Option<(usize, usize)>; 4], run: Run) {
        if !self.half_full(run.e) {
            return;
        }
        if let Some(slot) = self.kind(run).and_then(|k| best.get_mut(k)) {
            slot.get_or_insert((run.e, run.s));
        }
    }

    /// The kind of `run` as a cut (0 to 3: paragraph, line, sentence, word), when it is one
    /// after the part's start: whole clusters (the caller checks that it leaves the part
    /// half full).
    fn kind(&self, run: Run) -> Option<usize> {
        if run.e >= run.s || run.e <= self.window.p {
            return None;
        }
        Some(match run.breaks {
            2 => 0,
            1 => 1,
            _ if run.sentence => 2,
            _ => 3,
        })
    }

    /// The cut by a walk over the clusters from `p` (a boundary, or inside the long
    /// cluster) to `hi`, each candidate of kinds 1 to 6 recorded as it comes (the last one
    /// of each kind stays), then the last resorts: natively, only when [`Splitter::scan`]
    /// found no cut of kinds 1 to 4.
    fn walk(&mut self) -> (usize, usize) {
        let Window { p, hi, .. } = self.window;
        let n = self.text.len();
        // the first boundary that leaves the part half full (`near` only bounds it)
        let (mut mid, mid16) = self.text.advance(p, self.half);
        if mid16 < self.half {
            // a character of two units on the half: the boundary after it
            mid += self.text.char_at(mid).map_or(0, |(_, w)| w);
        }
        let mut c = Candidates {
            mid,
            ..Candidates::default()
        };
        let mut x = p;
        // inside the long cluster: its code points, then its end
        if let Some((_, end)) = self.long.filter(|&(a, b)| a < p && p < b) {
            self.points(p, end.min(hi), &mut c);
            x = end;
            if end <= hi {
                self.boundary(end, &mut c);
            }
        }
        while x <= hi && x < n {
            if self.run_starts(x) {
                let run = self.run_at(x);
                if x > p {
                    let kind = self.kind(run).filter(|_| run.e >= mid && run.e <= hi);
                    if let Some(slot) = kind.and_then(|k| c.best.get_mut(k)) {
                        *slot = Some((run.e, run.s));
                    }
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
                    self.points(x, hi, &mut c);
                }
                break;
            }
            self.boundary(end, &mut c);
            x = end;
        }
        first(&c.best)
            .or(c.cluster.or(c.point).map(|b| (b, b)))
            .or(c.last)
            .or(c.skip)
            .unwrap_or((hi, hi))
    }

    /// Records the cluster boundary `x` (at most `hi`), unless white space starts there
    /// (then the cut is the run's, which the walk records next): after `。` `！` `？` a
    /// sentence end, else a cluster boundary.
    fn boundary(&mut self, x: usize, c: &mut Candidates) {
        if !self.run_starts(x) {
            if x >= c.mid {
                match self.text.char_before(x) {
                    Some(('。' | '！' | '？', _)) => c.best[2] = Some((x, x)),
                    _ => c.cluster = Some(x),
                }
            }
            c.last = Some((x, x));
        }
    }

    /// Whether a run of white-space clusters starts at `x`.
    fn run_starts(&mut self, x: usize) -> bool {
        if !self.text.char_at(x).is_some_and(|(c, _)| white(c)) {
            return false;
        }
        let run = self.run_at(x);
        run.e == x && run.e < run.s
    }

    /// The code point boundaries in `from+1..=to`, short of the long cluster's end (kind 6).
    fn points(&self, from: usize, to: usize, c: &mut Candidates) {
        let end = self.long.map_or(to, |(_, b)| b);
        let mut q = from;
        while let Some((_, w)) = self.text.char_at(q) {
            if q + w > to || q + w >= end {
                break;
            }
            q += w;
            if q >= c.mid {
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

/// Whether the cuts are found the fast way: natively, where speed counts, and not in the
/// npm package's wasm, where size does. The fast way reads each window back from its end
/// ([`Splitter::scan`]) and takes shortcuts for the usual white space (one ASCII space or
/// line break between ASCII characters); the small way walks each window's clusters
/// forward ([`Splitter::walk`]). Both give the same cuts (the tests compare them).
const FAST: bool = !cfg!(target_arch = "wasm32");

/// Whether the unit at `k` is an ASCII character that is not white space (nor a control).
fn plain<T: Text>(t: T, k: usize) -> bool {
    t.unit(k).is_some_and(|u| (0x21..0x7f).contains(&u))
}

/// The strongest kind's cut of [`Splitter::scan`]'s findings.
fn first(best: &[Option<(usize, usize)>; 4]) -> Option<(usize, usize)> {
    best.iter().flatten().next().copied()
}

/// What [`Splitter::walk`] finds: the last cut of kinds 1 to 4, the last cluster boundary
/// (kind 5) and code point boundary (kind 6) that leave the part half full (from `mid` on),
/// the last cut of any kind, and white space that opens the part (the text).
#[derive(Default)]
struct Candidates {
    mid: usize,
    best: [Option<(usize, usize)>; 4],
    cluster: Option<usize>,
    point: Option<usize>,
    last: Option<(usize, usize)>,
    skip: Option<(usize, usize)>,
}

/// Whether `c` is `White_Space`.
fn white(c: char) -> bool {
    c.is_whitespace()
}

/// The characters after which, followed by white space, a sentence ends (S3 kind 3).
fn ends_sentence(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？')
}

/// A text to split, in its own code units (UTF-8 bytes of a `&str`, or UTF-16 units): what
/// the cuts ask of it. Positions are unit offsets; the ones the cuts keep are character
/// boundaries.
trait Text: Copy {
    /// Length in units.
    fn len(self) -> usize;
    /// The character that starts at `k` and its length in units; a lone surrogate reads as
    /// U+FFFD of one unit.
    fn char_at(self, k: usize) -> Option<(char, usize)>;
    /// The character that ends at `k`.
    fn char_before(self, k: usize) -> Option<(char, usize)>;
    /// The code unit at `k` (a byte of UTF-8, or a UTF-16 unit).
    fn unit(self, k: usize) -> Option<u16>;
    /// UTF-16 length of `a..b`.
    fn utf16_len(self, a: usize, b: usize) -> usize;
    /// The farthest character boundary from `from` within `n` UTF-16 units, and how many
    /// units that is.
    fn advance(self, from: usize, n: usize) -> (usize, usize);
    /// The last position in `lo..=hi` whose unit may start what `find` looks for.
    fn rfind(self, lo: usize, hi: usize, find: Find) -> Option<usize>;
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

    fn unit(self, k: usize) -> Option<u16> {
        self.as_bytes().get(k).map(|&b| u16::from(b))
    }

    fn utf16_len(self, a: usize, b: usize) -> usize {
        utf16_len_of_bytes(self.as_bytes().get(a..b).unwrap_or_default())
    }

    fn advance(self, from: usize, n: usize) -> (usize, usize) {
        advance(self.as_bytes(), from, n)
    }

    fn rfind(self, lo: usize, hi: usize, find: Find) -> Option<usize> {
        let bytes = self.as_bytes();
        match find {
            // usually a few bytes back (the last word): byte by byte
            Find::Special => rfind_special8(bytes, lo, hi),
            // `…` is E2 80 A6, `。` E3 80 82, `！` and `？` EF BC 81/9F
            Find::Strong => rfind_any(bytes, lo, hi + 1, *b"\n.!?\xe2\xe3\xef"),
            Find::Newline => rfind_any(bytes, lo, hi + 1, *b"\n"),
        }
    }
}

/// The last position in `lo..=hi` of `bytes` whose byte may start a `White_Space`
/// character or `。！？`: the ASCII white space, and the lead bytes of U+0085/U+00A0 (C2),
/// U+1680 (E1), U+2000–U+205F (E2), U+3000/U+3002 (E3), U+FF01/U+FF1F (EF), each told
/// apart from most of its other characters by the byte after it.
fn rfind_special8(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    let top = bytes.get(lo..=hi.min(bytes.len().saturating_sub(1)))?;
    top.iter().enumerate().rev().find_map(|(k, &b)| {
        let second = || bytes.get(lo + k + 1).copied().unwrap_or(0);
        let maybe = match b {
            0x09..=0x0d | 0x20 => true,
            0xc2 => matches!(second(), 0x85 | 0xa0),
            0xe1 => second() == 0x9a,
            0xe2 => matches!(second(), 0x80 | 0x81),
            0xe3 => second() == 0x80,
            0xef => second() == 0xbc,
            _ => false,
        };
        maybe.then_some(lo + k)
    })
}

impl Text for &[u16] {
    fn len(self) -> usize {
        <[u16]>::len(self)
    }

    // (well formed: a high surrogate is always followed by a low one, [`split_utf16`])
    fn char_at(self, k: usize) -> Option<(char, usize)> {
        let u = u32::from(*self.get(k)?);
        let (c, w) = if u & 0xfc00 == 0xd800 {
            let lo = u32::from(self.get(k + 1).copied().unwrap_or(0));
            (0x1_0000 + ((u & 0x3ff) << 10) + (lo & 0x3ff), 2)
        } else {
            (u, 1)
        };
        Some((char::from_u32(c).unwrap_or('\u{fffd}'), w))
    }

    fn char_before(self, k: usize) -> Option<(char, usize)> {
        let u = *self.get(k.checked_sub(1)?)?;
        // (a low surrogate ends the pair that starts a unit before it)
        self.char_at(k - 1 - usize::from(u & 0xfc00 == 0xdc00 && k >= 2))
    }

    fn unit(self, k: usize) -> Option<u16> {
        self.get(k).copied()
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

    fn rfind(self, lo: usize, hi: usize, find: Find) -> Option<usize> {
        let units = self.get(lo..=hi.min(<[u16]>::len(self).saturating_sub(1)))?;
        let k = units.iter().rposition(|&u| kind16(u) & find as u8 != 0)?;
        Some(lo + k)
    }
}

/// What the searches for a UTF-16 unit look for it ([`Find`] bits): a `White_Space`
/// character or `。！？` ([`Find::Special`]), a line break or a character that ends a
/// sentence ([`Find::Strong`]), a line break ([`Find::Newline`]).
fn kind16(u: u16) -> u8 {
    const SPECIAL: u8 = Find::Special as u8;
    const STRONG: u8 = Find::Strong as u8;
    match u {
        0x0a => SPECIAL | STRONG | Find::Newline as u8,
        0x21 | 0x2e | 0x3f | 0x2026 => STRONG,
        0x3002 | 0xff01 | 0xff1f => SPECIAL | STRONG,
        0x09 | 0x0b..=0x0d | 0x20 | 0x85 | 0xa0 | 0x1680 | 0x2000..=0x200a => SPECIAL,
        0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000 => SPECIAL,
        _ => 0,
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

    /// The small way (the npm package's wasm: the walk alone, no shortcuts) cuts where the
    /// fast way (native: the backward scan first) does, in both encodings, on random
    /// messages of every kind of white space, sentence end and cluster, at random limits.
    #[test]
    fn the_walk_alone_cuts_where_the_scan_does() {
        let pieces = [
            "word",
            "ab",
            "x",
            " ",
            " ",
            "  ",
            "\t",
            "\u{a0}",
            "\u{3000}",
            "\n",
            "\n\n",
            "\r\n",
            " \n ",
            ". ",
            "! ",
            "… ",
            ".",
            "。",
            "！",
            "？",
            "😀",
            "👩\u{200d}👧",
            "🇻🇳",
            "e\u{301}",
            " \u{301}",
            "\u{600}",
            "\u{600} ",
            "日本",
            "\u{915}\u{94d}\u{915}",
            "a\u{301}\u{301}\u{301}\u{301}\u{301}",
            "\u{600}\u{600}\u{600}。",
        ];
        let mut rng = crate::rng::Rng(0x5b11_7a1c);
        for _ in 0..20_000 {
            let text = rng.text(24, &pieces, &[], 1);
            let limit = 2 + rng.below(30);
            let units: Vec<u16> = text.encode_utf16().collect();
            let runs = [TextStyle {
                start: 0,
                len: units.len(),
                st: crate::StyleSet::of(crate::StyleCode::Bold),
            }];
            let runs = if units.is_empty() {
                &runs[..0]
            } else {
                &runs[..]
            };
            fn parts<T: Text, const FAST: bool>(
                t: T,
                runs: &[TextStyle],
                limit: usize,
            ) -> Vec<(usize, usize, Vec<TextStyle>)> {
                let mut out = Vec::new();
                split_text::<T, FAST>(t, runs, limit, |a, b, r| out.push((a, b, r))).unwrap();
                out
            }
            let fast = parts::<_, true>(text.as_str(), runs, limit);
            assert_eq!(
                fast,
                parts::<_, false>(text.as_str(), runs, limit),
                "{text:?} at {limit}"
            );
            let fast16 = parts::<_, true>(units.as_slice(), runs, limit);
            assert_eq!(
                fast16,
                parts::<_, false>(units.as_slice(), runs, limit),
                "{text:?} at {limit}"
            );
        }
    }

    #[test]
    fn small_cases() {
        assert_eq!(texts("a b", 2), ["a", "b"]);
        assert_eq!(texts("   ", 2), Vec::<String>::new());
        assert_eq!(texts("  ab", 2), ["ab"]);
        assert_eq!(texts("abc", 2), ["ab", "c"]);
    }
}
