//! The one pass of markdown mode over the message (spec section 2): line by line, the line
//! start (fences F1–F2, blank lines 2.3, prefixes P1–P4, read by [`super::lines`] only when
//! the line's first unit can begin one), then the inline constructs of the paragraph line
//! (I1–I5) up to the line break, found by the markdown search ([`crate::text::search`]). Delimiter
//! runs go straight into the paragraph's online emphasis matcher (I4–I6) and tags are paired
//! as they are read (I3); what is not plain text goes to a [`Sink`]. Plain
//! text is never stored; for a sink that writes by the excess of its UTF-8 text, the
//! search counts it as it passes ([`crate::text::utf16`], "Lengths by excess"). Nothing recurses
//! and each unit is looked at a bounded number of times (L1).

use super::emphasis::{DelimRun, Matcher};
use super::inline::{self, line_end, Backticks};
use super::lines;
use super::marks::NONE;
use super::sink::{Line, Sink, TagToken};
use super::syntax::line_start_special;
use crate::text::search::{find, find_byte, find_counting, Markdown};
use crate::text::source::TypedSource;
use crate::text::unit::Unit;
use crate::text::utf16::excess_of;
use crate::vocab::style::Overlay;
use crate::vocab::Tag;

/// The opening tags of the current region not yet paired (I3): per tag and spelling, the
/// id of the last one in the sink, which recorded with each the one before it
/// ([`Sink::open_tag`]); a closing tag pairs with the last. A region ends at a fence (F3)
/// and at the message's end, its unpaired openers staying text.
pub(super) struct OpenTags<'h> {
    /// Per tag and spelling, the sink's id of its last unpaired opener, or [`NONE`] (all
    /// of them between regions, so that the buffer is kept from message to message).
    heads: &'h mut Heads,
    /// How many openers of the region are unpaired.
    open: usize,
}

/// The heads of [`OpenTags`]' lists.
pub(super) type Heads = [u32; 2 * Tag::COUNT];

/// No open tags.
pub(super) const NO_HEADS: Heads = [NONE; 2 * Tag::COUNT];

impl OpenTags<'_> {
    /// The index of the list of `t`'s tag and spelling.
    #[inline]
    fn list(t: &TagToken) -> usize {
        t.tag.index() * 2 + t.spelling.index()
    }

    /// The opening tag `t` goes to the sink, and waits for its closer.
    #[inline]
    fn open<S: Sink>(&mut self, sink: &mut S, t: TagToken) {
        if let Some(head) = self.heads.get_mut(Self::list(&t)) {
            *head = sink.open_tag(t, *head);
            self.open += 1;
        }
    }

    /// The closing tag `t` goes to the sink, paired with the last unpaired opener of its tag
    /// and spelling if there is one.
    #[inline]
    fn close<S: Sink>(&mut self, sink: &mut S, t: TagToken) {
        match self.heads.get_mut(Self::list(&t)) {
            Some(head) if *head != NONE => {
                let opener = *head;
                *head = sink.before(opener);
                // an opener was on its list, so at least one is counted open
                self.open = self.open.wrapping_sub(1);
                sink.close_tag(t, opener);
            }
            _ => sink.stray_close(t),
        }
    }

    /// Ends the region (F3): the sink learns of each opener left unpaired.
    fn end_region<S: Sink>(&mut self, sink: &mut S) {
        if self.open == 0 {
            return;
        }
        for head in self.heads.iter_mut() {
            let mut k = core::mem::replace(head, NONE);
            while k != NONE {
                let before = sink.before(k);
                sink.unpaired_open(k);
                k = before;
            }
        }
        self.open = 0;
    }
}

/// The scan of one message: its sink, the emphasis matcher and backtick index of the
/// current paragraph, the open tags of the current region, and where the line loop is.
pub(super) struct Scan<'s, S> {
    sink: &'s mut S,
    matcher: &'s mut Matcher,
    ticks: Backticks<'s>,
    tags: OpenTags<'s>,
    /// The backtick count of the open fence (F1), if in one.
    fence: Option<usize>,
    /// Whether a paragraph is open (its matcher and backticks are in use).
    in_paragraph: bool,
    /// The end of the code span being skipped, when it spans lines (I1).
    code_until: Option<usize>,
}

impl<'s, S: Sink> Scan<'s, S> {
    /// A scan into `sink`, with the working buffers `matcher`, `ticks` and `heads` (which
    /// hold no open tag).
    pub(super) fn new(
        sink: &'s mut S,
        matcher: &'s mut Matcher,
        ticks: &'s mut Vec<u64>,
        heads: &'s mut Heads,
    ) -> Self {
        Scan {
            sink,
            matcher,
            ticks: Backticks::new(ticks),
            tags: OpenTags { heads, open: 0 },
            fence: None,
            in_paragraph: false,
            code_until: None,
        }
    }

    /// Scans `src` into the sink, line by line: a fence's lines are copied (F2); a line
    /// whose first unit can begin a line-start construct is read for one (a blank line, a
    /// fence's opening line, a prefix: 2.3, F1, P1–P4); then the paragraph line's inline
    /// constructs ([`Scan::inline`]).
    pub(super) fn run<'a, T: TypedSource<'a>>(mut self, src: T) {
        let s = src.units();
        let n = s.len();
        let mut i = 0;
        while i < n {
            if let Some(open) = self.fence {
                let (end, next) = line_end(s, i);
                if lines::closes_fence(s.get(i..end).unwrap_or_default(), open) {
                    self.fence = None;
                }
                skipped(s, self.sink, i, next);
                i = next;
                continue;
            }
            let mut codes = Overlay::NONE;
            let mut skip = 0;
            let rest = s.get(i..).unwrap_or_default();
            let first = rest.first().map_or(b'\n', |c| c.byte());
            if line_start_special(first) {
                if let Some(next) = self.block_line(s, i, first) {
                    i = next;
                    continue;
                }
                (skip, codes) = lines::prefix(rest);
            }
            self.in_paragraph = true;
            let has_codes = !codes.set().is_empty();
            if has_codes {
                self.sink.line(Line {
                    at: i,
                    prefix: skip,
                    codes,
                });
            } else if skip > 0 {
                self.sink.remove(i, skip);
            }
            i = self.inline(src, i, i + skip, has_codes);
        }
        self.end_region();
    }

    /// Reads the line at `i`, which begins with `first`, if it is a blank line (2.3) or a
    /// fence's opening line (F1), which end the paragraph; returns where the next line
    /// begins, or `None` for a paragraph line. Its end is looked for only when the line may
    /// be one of the two, which only a space, a backtick or the line break can begin.
    #[inline]
    fn block_line<U: Unit>(&mut self, s: &[U], i: usize, first: u8) -> Option<usize> {
        if !matches!(first, b' ' | b'`' | b'\n' | b'\r') {
            return None;
        }
        let start = lines::start(s.get(i..).unwrap_or_default());
        if start == lines::Start::Other {
            return None;
        }
        let (end, next) = line_end(s, i);
        let opens = lines::opens_fence(s.get(i..end).unwrap_or_default());
        if opens.is_none() && start != lines::Start::Blank {
            return None;
        }
        // the paragraph ends: delimiters pair only within one (I6)
        if self.in_paragraph {
            self.matcher.reset();
            self.ticks.reset();
            self.in_paragraph = false;
            self.code_until = None;
        }
        if let Some(k) = opens {
            self.fence = Some(k);
            skipped(s, self.sink, i, next);
            // F3: tags pair only within a region
            self.end_region();
        } else if end > i {
            self.sink.remove(i, end - i);
        }
        Some(next)
    }

    /// Ends the region (F3): its unpaired opening tags stay text.
    #[inline]
    fn end_region(&mut self) {
        self.tags.end_region(self.sink);
    }

    /// The inline constructs (I1–I5) of the paragraph line that began at `i`, from `j`
    /// (after its prefix) to its line break, after the rest of a code span that began on
    /// an earlier line (I1). Returns where the next line begins.
    // Called once per paragraph line, from one place: inline, the loop keeps its state in
    // registers.
    #[inline(always)]
    fn inline<'a, T: TypedSource<'a>>(
        &mut self,
        src: T,
        i: usize,
        mut j: usize,
        has_codes: bool,
    ) -> usize {
        let s = src.units();
        if let Some(stop) = self.code_until {
            match find_in(s, j, stop, b'\n') {
                // the whole line is inside the code span
                Some(nl) => {
                    skipped(s, self.sink, j, nl);
                    return line_break(s, self.sink, has_codes, i, nl);
                }
                None => {
                    skipped(s, self.sink, j, stop);
                    j = stop.max(j);
                    self.code_until = None;
                }
            }
        }
        loop {
            j = match (<T::Unit as Unit>::as_bytes(s), self.sink.excess()) {
                (Some(b), Some(excess)) => find_counting::<Markdown>(b, j, excess),
                _ => find::<Markdown, _>(s, j),
            };
            let Some(b) = s.get(j).map(|c| c.byte()) else {
                if has_codes {
                    self.sink.line_end(s.len());
                }
                return s.len();
            };
            j = match b {
                b'\n' => return line_break(s, self.sink, has_codes, i, j),
                b'\\' => self.escape(s, j),
                b'`' => match self.code_span(s, j) {
                    Ok(after) => after,
                    // the span goes on past this line
                    Err(nl) => return line_break(s, self.sink, has_codes, i, nl),
                },
                b'*' | b'_' | b'~' => self.delimiter_run(src, j, b),
                // `{`, `<`, or a near miss of the search
                _ => self.tag(s, j),
            };
        }
    }

    /// The backslash at `j` (I2): it goes before ASCII punctuation, which is then text.
    /// Returns where the scan goes on.
    #[inline]
    fn escape<U: Unit>(&mut self, s: &[U], j: usize) -> usize {
        if s.get(j + 1)
            .is_some_and(|c| c.byte().is_ascii_punctuation())
        {
            self.sink.remove(j, 1);
            j + 2
        } else {
            j + 1
        }
    }

    /// The backtick run at `j` (I1): a code span is text, up to the next run of as many
    /// backticks. Returns where the scan goes on, or the line break at which the span
    /// goes on past its line.
    #[inline]
    fn code_span<U: Unit>(&mut self, s: &[U], j: usize) -> Result<usize, usize> {
        let len = run_len(s, j, b'`');
        let Some(close) = self.ticks.closer(s, len, j + len) else {
            return Ok(j + len);
        };
        match find_in(s, j + len, close, b'\n') {
            None => {
                skipped(s, self.sink, j + len, close);
                Ok(close + len)
            }
            Some(nl) => {
                skipped(s, self.sink, j + len, nl);
                self.code_until = Some(close + len);
                Err(nl)
            }
        }
    }

    /// The run of `ch` at `j` (I4, I5: strike delimiters are exactly two tildes), matched
    /// as it is read. Returns where the scan goes on.
    #[inline]
    fn delimiter_run<'a, T: TypedSource<'a>>(&mut self, src: T, j: usize, ch: u8) -> usize {
        let len = run_len(src.units(), j, ch);
        if ch != b'~' || len == 2 {
            let (can_open, can_close) = inline::flanking(src, j, len, ch);
            let run = DelimRun {
                at: j,
                len,
                ch,
                can_open,
                can_close,
            };
            let o = self.matcher.close(run, self.sink);
            self.sink.delimiter(run, o);
        }
        j + len
    }

    /// The tag at `j`, if one is (I3), paired with the last unpaired opener of its tag and
    /// spelling in the region if it closes. Returns where the scan goes on.
    #[inline]
    fn tag<U: Unit>(&mut self, s: &[U], j: usize) -> usize {
        let Some((len, tag, spelling, closing)) = inline::tag_at(s, j) else {
            return j + 1;
        };
        let t = TagToken {
            at: j,
            len,
            tag,
            spelling,
        };
        if closing {
            self.tags.close(self.sink, t);
        } else {
            self.tags.open(self.sink, t);
        }
        j + len
    }
}

/// The scan passes over the text `from..to` without searching it (a fence's lines, a code
/// span, I1, F2): a sink that writes by the excess ([`Sink::excess`]) counts it.
#[inline(always)]
fn skipped<U: Unit, S: Sink>(s: &[U], sink: &mut S, from: usize, to: usize) {
    if let (Some(b), Some(excess)) = (U::as_bytes(s), sink.excess()) {
        *excess += excess_of(b.get(from..to).unwrap_or_default());
    }
}

/// The line that began at `i` breaks at `nl`: the content of a line with codes ends there
/// (before a `\r` right before the `\n`, 1.3). Returns where the next line begins.
#[inline(always)]
fn line_break<U: Unit, S: Sink>(
    s: &[U],
    sink: &mut S,
    has_codes: bool,
    i: usize,
    nl: usize,
) -> usize {
    if has_codes {
        let cr = nl > i && s.get(nl - 1).is_some_and(|c| c.byte() == b'\r');
        sink.line_end(nl - usize::from(cr));
    }
    nl + 1
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
