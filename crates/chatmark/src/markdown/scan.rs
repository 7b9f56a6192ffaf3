//! The one pass of markdown mode over the message (spec section 2): line by line, the line
//! start (fences F1–F2, blank lines 2.3, prefixes P1–P4, read by [`super::lines`] only when
//! the line's first unit can begin one), then the inline constructs of the paragraph line
//! (I1–I5) up to the line break, found through a byte-class table. Delimiter runs go
//! straight into the paragraph's online emphasis matcher (I4–I6) and tags are paired as
//! they are read (I3); what is not plain text goes to a [`Sink`]: the writer itself
//! ([`super::direct`]) or the [`Marks`] for the output walk. Plain text is never stored;
//! for the writer, the search over UTF-8 counts how many more bytes than UTF-16 units it
//! passes (C5). Nothing recurses and each unit is looked at a bounded number of times (L1).

use super::emphasis::{Events, Matcher, Outcome};
use super::inline::{self, line_end, Backticks};
use super::lines;
use super::marks::{Marks, NONE};
use super::syntax::line_start_special;
use crate::search::{find, find_byte, find_counting, Markdown};
use crate::source::{TypedSource, Unit};
use crate::style::Overlay;
use crate::utf16::excess_of;
use crate::vocab::{Spelling, Tag};

/// Per tag and spelling (I3), the last unpaired opener of the current region, each
/// unpaired opener linking to the one before it (in its mark).
pub(super) type Heads = [u32; 2 * Tag::COUNT];

/// No open tags.
pub(super) const NO_HEADS: Heads = [NONE; 2 * Tag::COUNT];

/// What the scan reports, in source order: the marks for the output walk ([`Marks`]), or
/// the writer itself in the one pass ([`super::direct`]).
pub(super) trait Sink {
    /// `len` units at `at` go: a line prefix (P1–P3) or a blank line's spaces (2.3).
    fn remove(&mut self, at: usize, len: usize);
    /// A backslash at `at` escapes the next character (I2).
    fn escape(&mut self, at: usize);
    /// A paragraph line with `codes` (P4, as an overlay) starts at `at`, its first `prefix`
    /// units going.
    fn line(&mut self, at: usize, prefix: usize, codes: Overlay);
    /// The content of the line with codes last begun ends at `end`.
    fn line_end(&mut self, end: usize);
    /// The tag at `at`, paired with the last unpaired opener of its tag and spelling in
    /// the region if it closes (I3); `heads` holds those openers.
    #[allow(clippy::too_many_arguments)]
    fn tag(
        &mut self,
        heads: &mut Heads,
        at: usize,
        len: usize,
        tag: Tag,
        spelling: Spelling,
        closing: bool,
    );
    /// The region ends (F3): its unpaired openers stay unpaired; `heads` is emptied.
    fn close_region(&mut self, heads: &mut Heads);
    /// A delimiter run of `len` units `ch` at `at` (I4, I5), with no pairs yet; returns its
    /// id for the matcher's other calls.
    fn delim(&mut self, at: usize, len: usize, ch: u8) -> u32;
    /// Delimiter run `k` (the one being read) closes the pairs `e`.
    fn set_closes(&mut self, k: u32, e: Events);
    /// Delimiter run `k` (the one being read) closes one pair, by two delimiters or one.
    fn set_close(&mut self, k: u32, two: bool);
    /// Delimiter run `k` (an earlier one) opens one more pair, by two delimiters or one.
    fn add_open(&mut self, k: u32, two: bool);
    /// The matcher is done with the run of `len` units `ch` at `at`, which does `o`.
    fn delim_end(&mut self, at: usize, len: usize, ch: u8, o: Outcome);
    /// Where the sink counts how many more bytes than UTF-16 units the UTF-8 text read so
    /// far holds (the one pass's writer, [`super::direct`]), if it does.
    #[inline(always)]
    fn excess(&mut self) -> Option<&mut usize> {
        None
    }
}

impl Sink for Marks {
    #[inline(always)]
    fn remove(&mut self, at: usize, len: usize) {
        self.push_remove(at, len);
    }

    #[inline(always)]
    fn escape(&mut self, at: usize) {
        self.push_escape(at);
    }

    #[inline(always)]
    fn line(&mut self, at: usize, prefix: usize, codes: Overlay) {
        self.push_line(at, prefix, codes.set());
    }

    #[inline(always)]
    fn line_end(&mut self, end: usize) {
        self.end_line(end);
    }

    #[inline(always)]
    fn tag(
        &mut self,
        heads: &mut Heads,
        at: usize,
        len: usize,
        tag: Tag,
        spelling: Spelling,
        closing: bool,
    ) {
        pair_tag(self, heads, at, len, tag, spelling, closing);
    }

    fn close_region(&mut self, heads: &mut Heads) {
        close_region(self, heads);
    }

    #[inline(always)]
    fn delim(&mut self, at: usize, len: usize, _: u8) -> u32 {
        self.push_delim(at, len)
    }

    #[inline(always)]
    fn set_closes(&mut self, k: u32, e: Events) {
        Marks::set_closes(self, k, e);
    }

    #[inline(always)]
    fn set_close(&mut self, k: u32, two: bool) {
        Marks::set_close(self, k, two);
    }

    #[inline(always)]
    fn add_open(&mut self, k: u32, two: bool) {
        Marks::add_open(self, k, two);
    }

    #[inline(always)]
    fn delim_end(&mut self, _: usize, _: usize, _: u8, _: Outcome) {}
}

/// The scan's working state.
pub(super) struct Scan<'s, S> {
    pub marks: &'s mut S,
    pub matcher: &'s mut Matcher,
    pub ticks: &'s mut Vec<u64>,
    pub heads: &'s mut Heads,
}

impl<S: Sink> Scan<'_, S> {
    /// Scans `src` into the sink.
    pub(super) fn run<'a, T: TypedSource<'a>>(self, src: T) {
        let Scan {
            marks,
            matcher,
            ticks,
            heads,
        } = self;
        let s = src.units();
        let n = s.len();
        let mut ticks = Backticks::new(ticks);
        let mut i = 0;
        // backtick count of the open fence
        let mut fence: Option<usize> = None;
        let mut in_paragraph = false;
        // end of the code span being skipped, when it spans lines (I1)
        let mut code_until: Option<usize> = None;
        while i < n {
            if let Some(open) = fence {
                // F2: copied verbatim, no marks
                let (end, next) = line_end(s, i);
                if lines::closes_fence(s.get(i..end).unwrap_or_default(), open) {
                    fence = None;
                }
                skipped(s, marks, i, next);
                i = next;
                continue;
            }
            let mut codes = Overlay::NONE;
            let mut skip = 0;
            let rest = s.get(i..).unwrap_or_default();
            let first = rest.first().map_or(b'\n', |c| c.byte());
            if line_start_special(first) {
                // the line's end is looked for only when the line may be blank or a fence,
                // which only a space, a backtick or the line break can begin; a prefix ends
                // before the line break by itself
                let start = if matches!(first, b' ' | b'`' | b'\n' | b'\r') {
                    lines::start(rest)
                } else {
                    lines::Start::Other
                };
                if start != lines::Start::Other {
                    let (end, next) = line_end(s, i);
                    let opens = lines::opens_fence(s.get(i..end).unwrap_or_default());
                    if opens.is_some() || start == lines::Start::Blank {
                        // the paragraph ends: delimiters pair only within one (I6)
                        if in_paragraph {
                            matcher.reset();
                            ticks.reset();
                            in_paragraph = false;
                            code_until = None;
                        }
                        if let Some(k) = opens {
                            fence = Some(k);
                            skipped(s, marks, i, next);
                            // F3: tags pair only within a region
                            marks.close_region(heads);
                        } else if end > i {
                            marks.remove(i, end - i);
                        }
                        i = next;
                        continue;
                    }
                }
                (skip, codes) = lines::prefix(rest);
            }
            in_paragraph = true;
            let has_codes = !codes.set().is_empty();
            if has_codes {
                marks.line(i, skip, codes);
            } else if skip > 0 {
                marks.remove(i, skip);
            }
            // the line's content begins after its prefix
            let mut j = i + skip;
            if let Some(stop) = code_until {
                match find_in(s, j, stop, b'\n') {
                    // the whole line is inside the code span
                    Some(nl) => {
                        skipped(s, marks, j, nl);
                        i = line_break(s, marks, has_codes, i, nl);
                        continue;
                    }
                    None => {
                        skipped(s, marks, j, stop);
                        j = stop.max(j);
                        code_until = None;
                    }
                }
            }
            i = loop {
                j = match (<T::Unit as Unit>::as_bytes(s), marks.excess()) {
                    (Some(b), Some(excess)) => find_counting::<Markdown>(b, j, excess),
                    _ => find::<Markdown, _>(s, j),
                };
                let Some(b) = s.get(j).map(|c| c.byte()) else {
                    if has_codes {
                        marks.line_end(n);
                    }
                    break n;
                };
                match b {
                    b'\n' => break line_break(s, marks, has_codes, i, j),
                    b'\\' => {
                        // I2: a backslash before ASCII punctuation goes
                        if s.get(j + 1)
                            .is_some_and(|c| c.byte().is_ascii_punctuation())
                        {
                            marks.escape(j);
                            j += 2;
                        } else {
                            j += 1;
                        }
                    }
                    b'`' => {
                        // I1: a code span is text, up to the next run of as many backticks
                        let len = run_len(s, j, b'`');
                        match ticks.closer(s, len, j + len) {
                            Some(close) => match find_in(s, j + len, close, b'\n') {
                                None => {
                                    skipped(s, marks, j + len, close);
                                    j = close + len;
                                }
                                Some(nl) => {
                                    // the span goes on past this line
                                    skipped(s, marks, j + len, nl);
                                    code_until = Some(close + len);
                                    break line_break(s, marks, has_codes, i, nl);
                                }
                            },
                            None => j += len,
                        }
                    }
                    b'*' | b'_' | b'~' => {
                        let len = run_len(s, j, b);
                        // I5: strike delimiters are exactly two tildes
                        if b != b'~' || len == 2 {
                            let (open, close) = inline::flanking(src, j, len, b);
                            let o = matcher.run(j, b, len, open, close, marks);
                            marks.delim_end(j, len, b, o);
                        }
                        j += len;
                    }
                    _ => match inline::tag_at(s, j) {
                        Some((len, tag, spelling, closing)) => {
                            marks.tag(heads, j, len, tag, spelling, closing);
                            j += len;
                        }
                        None => j += 1,
                    },
                }
            };
        }
        marks.close_region(heads);
    }
}

/// The scan passes over the text `from..to` without searching it (a fence's lines, a code
/// span, I1, F2): a sink that counts UTF-16 units ([`Sink::excess`]) counts it.
#[inline(always)]
fn skipped<U: Unit, S: Sink>(s: &[U], marks: &mut S, from: usize, to: usize) {
    if let (Some(b), Some(excess)) = (U::as_bytes(s), marks.excess()) {
        *excess += excess_of(b.get(from..to).unwrap_or_default());
    }
}

/// The line that began at `i` breaks at `nl`: the content of a line with codes ends there
/// (before a `\r` right before the `\n`, 1.3). Returns where the next line begins.
#[inline(always)]
fn line_break<U: Unit, S: Sink>(
    s: &[U],
    marks: &mut S,
    has_codes: bool,
    i: usize,
    nl: usize,
) -> usize {
    if has_codes {
        let cr = nl > i && s.get(nl - 1).is_some_and(|c| c.byte() == b'\r');
        marks.line_end(nl - usize::from(cr));
    }
    nl + 1
}

/// Records the tag at `at` and pairs a closer with the last unpaired opener of its tag
/// and spelling in the region (I3).
// Once per tag in the scan's loop: LLVM's heuristics moved it out of line after an
// unrelated change elsewhere (+0.2 M instructions over the bench corpus).
#[inline(always)]
fn pair_tag(
    marks: &mut Marks,
    heads: &mut Heads,
    at: usize,
    len: usize,
    tag: Tag,
    spelling: Spelling,
    closing: bool,
) {
    let Some(head) = heads.get_mut(tag.index() * 2 + spelling.index()) else {
        marks.push_tag(at, len, tag, closing, NONE);
        return;
    };
    if !closing {
        *head = marks.push_tag(at, len, tag, false, *head);
    } else {
        let me = marks.push_tag(at, len, tag, true, NONE);
        if *head != NONE {
            let opener = *head;
            *head = marks.tag_link(opener);
            marks.pair(opener, me);
        }
    }
}

/// Ends a region (F3): its unpaired openers stay unpaired.
fn close_region(marks: &mut Marks, heads: &mut Heads) {
    if heads.iter().all(|&h| h == NONE) {
        return;
    }
    for head in heads.iter_mut() {
        let mut k = core::mem::replace(head, NONE);
        while k != NONE {
            let prev = marks.tag_link(k);
            marks.set_tag_link(k, NONE);
            k = prev;
        }
    }
}

/// The first position in `from..to` holding the ASCII byte `b`.
#[inline]
fn find_in<U: Unit>(s: &[U], from: usize, to: usize, b: u8) -> Option<usize> {
    s.get(from..to)
        .and_then(|t| find_byte(t, b))
        .map(|k| from + k)
}

/// How many units from `from` are the ASCII byte `b`.
#[inline]
fn run_len<U: Unit>(s: &[U], from: usize, b: u8) -> usize {
    s.get(from..).map_or(0, |t| U::run_of(t, b))
}
