//! Markdown mode (spec section 2: P1–P4, F1–F3, I1–I7) over a UTF-8 or UTF-16 source
//! ([`Source`]), in three passes. The line pass reads every line once into a record (prefix,
//! fence, blank). The analysis pass tokenizes each paragraph into the online emphasis
//! matcher (I4–I6) and pairs the tags of each region (I3), leaving one [`Mark`] (8 bytes)
//! per markup token: delimiter runs with the pairs they take part in, tags with their
//! partners, escapes. Plain text is never stored. The emission pass walks the records and
//! the marks, copying the text between marks in the source's encoding and writing runs
//! straight into the shared run builder, sized once from what the analysis counted. Nothing
//! recurses and every pass is linear in the input (L1). A message with no unit that can
//! begin a construct skips them all ([`plain`]).

pub(crate) mod chars;
mod emphasis;
mod inline;
mod lines;
mod plain;
pub(crate) mod syntax;
mod unicode;

use crate::builder::FormattedBuilder;
use crate::msg::msg;
use crate::source::{well_formed, Source};
use crate::style::INLINE_SLOTS;
use crate::utf16::{to_diagnostics, Note, Span};
use crate::vocab::{Spelling, Tag};
use crate::{Diagnostic, DiagnosticCode, Formatted, FormattedUtf16, StyleCode, StyleSet};
use emphasis::{Mark, MarkKind, Marks, Matcher};
use inline::{Backticks, DelimRun, Sink};
use lines::{Line, LineKind};

/// Parses `input` in markdown mode (spec section 2). Never fails: bad markup is text.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("- **Hello** {red}world{/red}");
/// assert_eq!(f.text, "Hello world");
/// let codes: Vec<Vec<&str>> = f
///     .text_styles
///     .iter()
///     .map(|r| r.st.iter().map(|c| c.as_str()).collect())
///     .collect();
/// assert_eq!(codes, [vec!["b", "lst_1"], vec!["lst_1"], vec!["c_db342e", "lst_1"]]);
/// ```
pub fn parse_markdown(input: &str) -> Formatted {
    let mut out = FormattedBuilder::with_capacity(input.len(), 0);
    parse(Source::Utf8(input), false, &mut out);
    out.finish()
}

/// Parses `input` in markdown mode and also returns diagnostics (unmatched tags, L3) with
/// positions in UTF-16 units of `input`.
///
/// # Examples
///
/// ```
/// let (f, diags) = chatmark::parse_markdown_with_diagnostics("x{/red}");
/// assert_eq!(f.text, "x{/red}");
/// assert_eq!(diags[0].code.as_str(), "unmatched_closing_tag");
/// assert_eq!((diags[0].start, diags[0].len), (1, 6));
/// ```
pub fn parse_markdown_with_diagnostics(input: &str) -> (Formatted, Vec<Diagnostic>) {
    let src = Source::Utf8(input);
    let mut out = FormattedBuilder::with_capacity(input.len(), 0);
    let notes = parse(src, true, &mut out);
    (out.finish(), to_diagnostics(src, notes))
}

/// Parses UTF-16 `input` in markdown mode, the text written as UTF-16 too: for hosts whose
/// strings are UTF-16 (JavaScript, Java, C#), which then never transcode. The same parser
/// as [`parse_markdown`], with the same result; a lone surrogate reads as U+FFFD, one unit
/// for one (L2).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "**hé** 😀".encode_utf16().collect();
/// let f = chatmark::parse_markdown_utf16(&input);
/// assert_eq!(String::from_utf16(&f.text).unwrap(), "hé 😀");
/// assert_eq!((f.text_styles[0].start, f.text_styles[0].len), (0, 2));
/// assert_eq!(f.to_formatted(), chatmark::parse_markdown("**hé** 😀"));
/// ```
pub fn parse_markdown_utf16(input: &[u16]) -> FormattedUtf16 {
    let mut out = FormattedUtf16::default();
    parse_markdown_utf16_into(input, &mut out);
    out
}

/// [`parse_markdown_utf16`] into `out`, replacing what it held but reusing its buffers, so
/// that a caller parsing message after message allocates nothing once they have grown.
///
/// # Examples
///
/// ```
/// let mut out = chatmark::FormattedUtf16::default();
/// for s in ["*a*", "b"] {
///     let input: Vec<u16> = s.encode_utf16().collect();
///     chatmark::parse_markdown_utf16_into(&input, &mut out);
/// }
/// assert_eq!(out.text, [u16::from(b'b')]);
/// assert!(out.text_styles.is_empty());
/// ```
pub fn parse_markdown_utf16_into(input: &[u16], out: &mut FormattedUtf16) {
    let input = well_formed(input);
    FormattedBuilder::utf16_into(out, input.len(), |mut b| {
        parse(Source::Utf16(&input), false, &mut b);
        b
    });
}

/// [`parse_markdown_utf16`] with the diagnostics too, positions in units of `input` (L3).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "😀{red}x".encode_utf16().collect();
/// let (f, diags) = chatmark::parse_markdown_utf16_with_diagnostics(&input);
/// assert_eq!(f.text, input);
/// assert_eq!((diags[0].start, diags[0].len), (2, 5));
/// ```
pub fn parse_markdown_utf16_with_diagnostics(input: &[u16]) -> (FormattedUtf16, Vec<Diagnostic>) {
    let input = well_formed(input);
    let src = Source::Utf16(&input);
    let (mut out, mut notes) = (FormattedUtf16::default(), Vec::new());
    FormattedBuilder::utf16_into(&mut out, input.len(), |mut b| {
        notes = parse(src, true, &mut b);
        b
    });
    (out, to_diagnostics(src, notes))
}

/// The parser's working buffers, kept per thread and reused across calls so that a
/// message costs no allocation beyond its result once the buffers have grown.
#[derive(Default)]
struct Scratch {
    /// The lines of the message, read once.
    lines: Vec<Line>,
    /// The markup tokens of the message, in source order.
    marks: Marks,
    /// The emphasis matcher of the current paragraph.
    matcher: Matcher,
    /// Unpaired opening tags of the current region (their marks), per tag and spelling (I3).
    open_tags: [[Vec<u32>; 2]; Tag::COUNT],
    /// The backtick runs of the current paragraph (I1).
    ticks: Vec<u64>,
    /// The emission pass's open matched tags (mark, code), per inline slot, by opening
    /// order; the innermost open one of a slot wins (1.3).
    slots: [Vec<(u32, StyleCode)>; INLINE_SLOTS],
}

impl Scratch {
    /// Entries a buffer keeps between calls; a larger one (after a huge message) shrinks.
    const KEEP: usize = 1 << 12;

    /// Empty buffers, as a constant: the thread-local needs no lazy initialisation code.
    const NEW: Self = Self {
        lines: Vec::new(),
        marks: Marks::NEW,
        matcher: Matcher::NEW,
        open_tags: [const { [Vec::new(), Vec::new()] }; Tag::COUNT],
        ticks: Vec::new(),
        slots: [const { Vec::new() }; INLINE_SLOTS],
    };

    fn reset(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            v.clear();
            if v.capacity() > Scratch::KEEP {
                v.shrink_to(Scratch::KEEP);
            }
        }
        trim(&mut self.lines);
        self.marks.clear();
        self.marks.shrink_to(Scratch::KEEP);
        self.matcher.reset();
        self.matcher.shrink_to(Scratch::KEEP);
        self.open_tags.iter_mut().flatten().for_each(trim);
        trim(&mut self.ticks);
        self.slots.iter_mut().for_each(trim);
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const { core::cell::RefCell::new(Scratch::NEW) };
}

/// Parses `src` into `out` with this thread's scratch buffers (fresh ones if they are in
/// use); diagnostics are collected only when `notes` is asked for.
fn parse(src: Source<'_>, notes: bool, out: &mut FormattedBuilder) -> Vec<Note> {
    if plain::is_plain(src) {
        out.plain(src);
        return Vec::new();
    }
    let mut found = Vec::new();
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        found = run(src, scratch, notes, out);
        scratch.reset();
    });
    found
}

fn run(
    src: Source<'_>,
    s: &mut Scratch,
    want_notes: bool,
    out: &mut FormattedBuilder,
) -> Vec<Note> {
    // Marks hold 32-bit positions: a message past 4 GiB (far beyond any limit) stays text.
    if u32::try_from(src.len()).is_err() {
        out.push_src(src, 0, src.len(), StyleSet::EMPTY);
        return Vec::new();
    }
    lines::read_lines(src, &mut s.lines);
    let runs = analyze(src, s);
    out.reserve_runs(runs.min(src.len()));
    let mut emit = Emit {
        src,
        out,
        s,
        next: 0,
        counts: [0; 4],
        inline: StyleSet::EMPTY,
        codes: StyleSet::EMPTY,
        last_inline: StyleSet::EMPTY,
        notes: Vec::new(),
        want_notes,
    };
    for k in 0..emit.s.lines.len() {
        let Some(&line) = emit.s.lines.get(k) else {
            break;
        };
        match line.kind {
            LineKind::Verbatim => {
                emit.out
                    .push_src(src, line.content().0, line.end(), StyleSet::EMPTY);
            }
            LineKind::Blank => {
                emit.out
                    .push_src(src, line.content().1, line.end(), emit.inline);
            }
            LineKind::Text => {
                emit.codes = line.codes;
                let (start, end) = line.content();
                let before = emit.out.position();
                emit.content(start, end);
                // a `\r` left right before the `\n` by markup that vanished is a line
                // break: it keeps only its inline codes (1.3)
                if !line.codes.is_empty() && line.end() == end + 1 && emit.out.position() > before {
                    emit.out.restyle_trailing_cr(emit.last_inline);
                }
                emit.out
                    .push_src(src, line.content().1, line.end(), emit.inline);
            }
        }
    }
    emit.notes
}

/// The analysis pass: matches every paragraph's delimiter runs and pairs every region's
/// tags into the scratch marks; returns the number of runs the emission pass most likely
/// writes (one per pair, per line with line codes and per verbatim line, one more), so the
/// result is allocated once; nested pairs may need more, and the vector then grows.
fn analyze(src: Source<'_>, s: &mut Scratch) -> usize {
    let mut bound = 1usize;
    let mut ticks = core::mem::take(&mut s.ticks);
    let lines = core::mem::take(&mut s.lines);
    let mut a = Analyze { s };
    let mut k = 0;
    while let Some(line) = lines.get(k) {
        match line.kind {
            LineKind::Verbatim => {
                k += 1;
                bound += 1;
                // F3: tags pair only within a region
                a.s.open_tags.iter_mut().flatten().for_each(Vec::clear);
            }
            LineKind::Blank => k += 1,
            LineKind::Text => {
                let n = lines
                    .get(k..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|l| l.kind == LineKind::Text)
                    .count();
                let para = lines.get(k..k + n).unwrap_or_default();
                bound += para.iter().filter(|l| !l.codes.is_empty()).count();
                a.s.matcher.reset();
                inline::paragraph(src, para, &mut Backticks::new(&mut ticks), &mut a);
                k += n;
            }
        }
    }
    s.ticks = ticks;
    s.lines = lines;
    bound.saturating_add(s.marks.pairs())
}

/// The analysis pass's sink.
struct Analyze<'s> {
    s: &'s mut Scratch,
}

impl Sink for Analyze<'_> {
    fn escape(&mut self, at: usize) {
        self.s.marks.push_escape(at);
    }

    fn delim(&mut self, d: DelimRun) {
        self.s.matcher.run(
            d.start,
            d.ch,
            d.len,
            d.can_open,
            d.can_close,
            &mut self.s.marks,
        );
    }

    fn tag(&mut self, start: usize, tag: Tag, spelling: Spelling, closing: bool) {
        let me = self.s.marks.push_tag(start);
        let Some(stack) = self
            .s
            .open_tags
            .get_mut(tag.index())
            .and_then(|t| t.get_mut(spelling.index()))
        else {
            return;
        };
        if !closing {
            stack.push(me);
        } else if let Some(opener) = stack.pop() {
            self.s.marks.pair(opener, me);
        }
    }
}

/// The emission pass: the inline state (1.3) and the output.
struct Emit<'a, 's, 'o> {
    src: Source<'a>,
    out: &'o mut FormattedBuilder,
    s: &'s mut Scratch,
    /// Index of the next mark.
    next: usize,
    /// Open delimiter pairs per flag slot (`b i u s`).
    counts: [usize; 4],
    /// The inline codes in force, and the current line's codes.
    inline: StyleSet,
    codes: StyleSet,
    /// The inline codes of the last text written.
    last_inline: StyleSet,
    notes: Vec<Note>,
    want_notes: bool,
}

impl Emit<'_, '_, '_> {
    /// Writes the content `start..end` of a paragraph line: the text between its marks, and
    /// each mark's effect.
    fn content(&mut self, start: usize, end: usize) {
        let mut pos = start;
        while let Some(Mark { at, .. }) = self.s.marks.get(self.next) {
            let at = at as usize;
            if at >= end {
                break;
            }
            let k = self.next;
            self.next += 1;
            self.text(pos, at);
            pos = match self.s.marks.kind(k) {
                // I2: the backslash goes, the character it escapes is text
                MarkKind::Escape => at + 1,
                MarkKind::Delim(e) => self.delim(at, end, e),
                MarkKind::Tag { partner, .. } => self.tag(k, at, end, partner),
            };
        }
        self.text(pos, end);
    }

    /// Writes `start..end` with the inline codes and the line's codes.
    fn text(&mut self, start: usize, end: usize) {
        if end > start {
            self.last_inline = self.inline;
            let set = self.inline.with(self.codes);
            self.out.push_src(self.src, start, end, set);
        }
    }

    /// A delimiter run at `at`: its closes, its literal middle, its opens
    /// (`[closing-used | literal | opening-used]`). Returns where the text resumes.
    fn delim(&mut self, at: usize, end: usize, e: emphasis::Events) -> usize {
        let ch = self.src.byte(at).unwrap_or(b'*');
        let len = self.src.run_len(at, end, ch);
        let (two, one) = match ch {
            b'~' => (StyleCode::Strike, StyleCode::Strike),
            _ => (StyleCode::Bold, StyleCode::Italic),
        };
        if e.close_two | e.close_one != 0 {
            self.add(two, e.close_two, false);
            self.add(one, e.close_one, false);
            self.restyle();
        }
        let (close, open) = (e.close_used(), e.open_used());
        let lit = len.saturating_sub(close + open);
        self.text(at + close, at + close + lit);
        if e.open_two | e.open_one != 0 {
            self.add(two, e.open_two, true);
            self.add(one, e.open_one, true);
            self.restyle();
        }
        at + len
    }

    fn add(&mut self, code: StyleCode, n: u32, up: bool) {
        if let Some(c) = self.counts.get_mut(code.slot()) {
            *c = if up {
                c.saturating_add(n as usize)
            } else {
                c.saturating_sub(n as usize)
            };
        }
    }

    /// Tag mark `k` at `at`: text and a diagnostic when unpaired (L3), else it opens or
    /// closes its code. Returns where the text resumes.
    fn tag(&mut self, k: usize, at: usize, end: usize, partner: Option<u32>) -> usize {
        let Some((len, tag, _, closing)) = inline::tag_at(self.src, at, end) else {
            return at;
        };
        let Some(partner) = partner else {
            self.text(at, at + len);
            if self.want_notes && self.notes.len() < crate::utf16::MAX_DIAGNOSTICS {
                // L3: unmatched tags are kept as text
                let text = self.src.text(at, at + len);
                let (code, message) = if closing {
                    let m = msg!("closing tag ", &*text, " has no opening tag; kept as text");
                    (DiagnosticCode::UnmatchedClosingTag, m)
                } else {
                    let m = msg!("tag ", &*text, " is never closed; kept as text");
                    (DiagnosticCode::UnclosedTag, m)
                };
                self.notes.push(Note {
                    span: Span::new(at, at + len),
                    code,
                    message,
                });
            }
            return at + len;
        };
        let code = tag.code();
        let me = u32::try_from(k).unwrap_or(u32::MAX);
        if !closing {
            if let Some(stack) = self.s.slots.get_mut(code.slot()) {
                stack.push((me, code));
            }
        } else {
            self.s.marks.end_tag(partner);
            let marks = &self.s.marks;
            if let Some(stack) = self.s.slots.get_mut(code.slot()) {
                while stack.last().is_some_and(|&(o, _)| {
                    matches!(marks.kind(o as usize), MarkKind::Tag { ended: true, .. })
                }) {
                    stack.pop();
                }
            }
        }
        self.restyle();
        at + len
    }

    /// Recomputes the inline codes: delimiter pairs, then the innermost open tag of each
    /// inline slot (tags need not nest, I3).
    fn restyle(&mut self) {
        let mut set = StyleSet::EMPTY;
        for (c, code) in self.counts.iter().zip(StyleCode::FLAGS) {
            if *c > 0 {
                set.insert(code);
            }
        }
        for stack in &self.s.slots {
            if let Some(&(_, code)) = stack.last() {
                set.insert(code);
            }
        }
        self.inline = set;
    }
}
