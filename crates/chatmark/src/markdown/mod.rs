//! Markdown mode (spec section 2: P1–P4, F1–F3, I1–I7) in two passes over the message. The
//! analysis pass reads the lines (prefixes, fences), tokenizes each paragraph into the
//! online emphasis matcher (I4–I6) and pairs the tags of each region (I3), leaving one
//! [`Mark`] (8 bytes) per markup token: delimiter runs with the pairs they take part in,
//! tags with their partners, escapes. Plain text is never stored. The emission pass reads
//! the lines again and walks the marks, copying the text between them and writing runs
//! straight into the shared run builder, sized once from what the analysis counted.
//! Nothing recurses and both passes are linear in the input (L1). A message with no byte
//! that can begin a construct skips both ([`plain`]).

pub(crate) mod chars;
mod emphasis;
mod inline;
mod lines;
mod plain;
mod unicode;

use crate::builder::FormattedBuilder;
use crate::msg::msg;
use crate::style::INLINE_SLOTS;
use crate::utf16::{to_diagnostics, Note, Span};
use crate::vocab::{Spelling, Tag};
use crate::{Diagnostic, DiagnosticCode, Formatted, StyleCode, StyleSet};
use emphasis::{Mark, MarkKind, Marks, Matcher};
use inline::{Backticks, DelimRun, Sink};
use lines::{LineKind, Lines};

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
    parse(input, false).0
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
    let (f, notes) = parse(input, true);
    (f, to_diagnostics_md(input, notes))
}

/// The L3 diagnostics of markdown mode: unmatched tags, kept as text.
fn to_diagnostics_md(input: &str, notes: Vec<Note<()>>) -> Vec<Diagnostic> {
    to_diagnostics(input, notes, |n, tag| match n.code {
        DiagnosticCode::UnclosedTag => msg!("tag ", tag, " is never closed; kept as text"),
        _ => msg!("closing tag ", tag, " has no opening tag; kept as text"),
    })
}

/// The parser's working buffers, kept per thread and reused across calls so that a
/// message costs no allocation beyond its result once the buffers have grown.
#[derive(Default)]
struct Scratch {
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
        marks: Marks::NEW,
        matcher: Matcher::NEW,
        open_tags: [const { [Vec::new(), Vec::new()] }; Tag::COUNT],
        ticks: Vec::new(),
        slots: [const { Vec::new() }; INLINE_SLOTS],
    };

    fn reset(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            v.clear();
            v.shrink_to(Scratch::KEEP);
        }
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

/// Runs the parser with this thread's scratch buffers (fresh ones if they are in use);
/// diagnostics are collected only when `notes` is asked for.
fn parse(input: &str, notes: bool) -> (Formatted, Vec<Note<()>>) {
    if plain::is_plain(input.as_bytes()) {
        let text = input.to_owned();
        let f = Formatted {
            text,
            text_styles: Vec::new(),
        };
        return (f, Vec::new());
    }
    let run = |scratch: &mut Scratch| {
        let out = run(input, scratch, notes);
        scratch.reset();
        out
    };
    crate::builder::with_scratch(&SCRATCH, run)
}

fn run(input: &str, s: &mut Scratch, want_notes: bool) -> (Formatted, Vec<Note<()>>) {
    // Marks hold 32-bit positions: a message past 4 GiB (far beyond any limit) stays text.
    if u32::try_from(input.len()).is_err() {
        let mut out = FormattedBuilder::with_capacity(input.len(), 0);
        out.push_str(input, StyleSet::EMPTY);
        return (out.finish(), Vec::new());
    }
    let runs = analyze(input, s);
    let mut emit = Emit {
        input,
        out: FormattedBuilder::with_capacity(input.len(), runs.min(input.len())),
        s,
        next: 0,
        counts: [0; 4],
        inline: StyleSet::EMPTY,
        codes: StyleSet::EMPTY,
        notes: Vec::new(),
        want_notes,
    };
    for line in Lines::new(input) {
        match line.kind {
            LineKind::Verbatim => {
                let raw = input.get(line.start..line.end).unwrap_or("");
                emit.out.push_str(raw, StyleSet::EMPTY);
            }
            LineKind::Blank => {
                let raw = input.get(line.content.1..line.end).unwrap_or("");
                emit.out.push_str(raw, emit.inline);
            }
            LineKind::Text => {
                emit.codes = line.codes;
                emit.content(line.content.0, line.content.1);
                let raw = input.get(line.content.1..line.end).unwrap_or("");
                emit.out.push_str(raw, emit.inline);
            }
        }
    }
    (emit.out.finish(), emit.notes)
}

/// The analysis pass: matches every paragraph's delimiter runs and pairs every region's
/// tags into the scratch marks; returns the number of runs the emission pass most likely
/// writes (one per pair, per line with line codes and per verbatim line, one more), so the
/// result is allocated once; nested pairs may need more, and the vector then grows.
fn analyze(input: &str, s: &mut Scratch) -> usize {
    let mut lines = Lines::new(input);
    let mut bound = 1usize;
    let mut ticks = core::mem::take(&mut s.ticks);
    let mut a = Analyze { s, bound: 0 };
    while let Some(line) = lines.peek() {
        match line.kind {
            LineKind::Verbatim => {
                lines.next();
                bound += 1;
                // F3: tags pair only within a region
                a.s.open_tags.iter_mut().flatten().for_each(Vec::clear);
            }
            LineKind::Blank => {
                lines.next();
            }
            LineKind::Text => {
                a.s.matcher.reset();
                inline::paragraph(input, &mut lines, &mut Backticks::new(&mut ticks), &mut a);
            }
        }
    }
    bound = bound.saturating_add(a.bound);
    s.ticks = ticks;
    bound.saturating_add(s.marks.pairs())
}

/// The analysis pass's sink.
struct Analyze<'s> {
    s: &'s mut Scratch,
    /// Runs the emission may start at lines with line codes.
    bound: usize,
}

impl Sink for Analyze<'_> {
    fn line(&mut self, codes: StyleSet) {
        if !codes.is_empty() {
            self.bound = self.bound.saturating_add(1);
        }
    }

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
struct Emit<'a, 's> {
    input: &'a str,
    out: FormattedBuilder,
    s: &'s mut Scratch,
    /// Index of the next mark.
    next: usize,
    /// Open delimiter pairs per flag slot (`b i u s`).
    counts: [usize; 4],
    /// The inline codes in force, and the current line's codes.
    inline: StyleSet,
    codes: StyleSet,
    notes: Vec<Note<()>>,
    want_notes: bool,
}

impl<'a> Emit<'a, '_> {
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
            let set = self.inline.with(self.codes);
            self.out.push_str(self.raw(start, end), set);
        }
    }

    fn raw(&self, start: usize, end: usize) -> &'a str {
        self.input.get(start..end).unwrap_or("")
    }

    /// A delimiter run at `at`: its closes, its literal middle, its opens
    /// (`[closing-used | literal | opening-used]`). Returns where the text resumes.
    fn delim(&mut self, at: usize, end: usize, e: emphasis::Events) -> usize {
        let bytes = self.input.as_bytes();
        let ch = bytes.get(at).copied().unwrap_or(b'*');
        let len = inline::run_len(bytes, at, end, ch);
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
        let Some((len, tag, _, closing)) = inline::tag_at(self.input.as_bytes(), at, end) else {
            return at;
        };
        let Some(partner) = partner else {
            self.text(at, at + len);
            if self.want_notes && self.notes.len() < crate::utf16::MAX_DIAGNOSTICS {
                self.notes.push(Note {
                    span: Span::new(at, at + len),
                    code: if closing {
                        DiagnosticCode::UnmatchedClosingTag
                    } else {
                        DiagnosticCode::UnclosedTag
                    },
                    detail: (),
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
