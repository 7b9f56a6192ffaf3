//! Markdown mode (spec section 2: P1–P4, F1–F3, I1–I7): one pass over the lines, then per
//! region (the text between fences) one token pass per paragraph, emphasis matched per
//! paragraph, tags paired per region, and one emission sweep into the shared run builder.
//! Nothing recurses and every step is linear in the input (L1).

pub(crate) mod chars;
mod emphasis;
mod inline;
mod lines;
mod unicode;

use crate::builder::FormattedBuilder;
use crate::style::INLINE_SLOTS;
use crate::utf16::{to_diagnostics, Note, Span};
use crate::vocab::{Spelling, Tag};
use crate::{Diagnostic, DiagnosticCode, Formatted, StyleCode, StyleSet};
use emphasis::{Delim, Pair};
use lines::LineKind;

/// Per-flag-slot event counts of a delimiter run (`b i u s`, [`StyleCode::slot`]; the
/// delimiters make `b`, `i` and `s`).
type Counts = [usize; 4];

/// One inline token of a region. Byte range `start..end` of the input.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    /// Index of the line the token sits on (for its line codes).
    line: usize,
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Literal text: plain runs, escaped characters, code spans, unmatched backtick runs.
    Text,
    /// A line break (`\n` or `\r\n`): carries inline codes only (1.3).
    Break,
    /// A `*`, `_` or `~~` run; its matching state is `Parser::runs[index]`.
    Delim(usize),
    /// An I3 tag; `partner` is the index of the matching tag, if any.
    Tag {
        tag: Tag,
        spelling: Spelling,
        closing: bool,
        /// For a matched opening tag: its closing tag has been passed (emission sweep).
        ended: bool,
        partner: Option<usize>,
    },
}

/// Matching state of one delimiter run: `[closing-used | literal | opening-used]`, and how
/// many pairs of each code it closes and opens.
#[derive(Clone, Copy, Debug, Default)]
struct RunState {
    close_used: usize,
    open_used: usize,
    closes: Counts,
    opens: Counts,
}

impl Kind {
    const fn tag(tag: Tag, spelling: Spelling, closing: bool) -> Kind {
        Kind::Tag {
            tag,
            spelling,
            closing,
            partner: None,
            ended: false,
        }
    }
}

impl Token {
    const fn new(kind: Kind, start: usize, end: usize, line: usize) -> Token {
        Token {
            start,
            end,
            line,
            kind,
        }
    }
}

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
    parse(input).0
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
    let (f, notes) = parse(input);
    (f, to_diagnostics_md(input, notes))
}

/// The L3 diagnostics of markdown mode: unmatched tags, kept as text.
fn to_diagnostics_md(input: &str, notes: Vec<Note<()>>) -> Vec<Diagnostic> {
    to_diagnostics(input, notes, |n, tag| match n.code {
        DiagnosticCode::UnclosedTag => format!("tag {tag} is never closed; kept as text"),
        _ => format!("closing tag {tag} has no opening tag; kept as text"),
    })
}

/// The parser's working buffers, kept per thread and reused across calls so that a
/// message costs no allocation beyond its result once the buffers have grown.
#[derive(Default)]
struct Scratch {
    lines: Vec<lines::Line>,
    /// Tokens of the current region.
    tokens: Vec<Token>,
    /// Delimiter runs of the current paragraph.
    delims: Vec<Delim>,
    /// Matching state of the region's delimiter runs, indexed by `Kind::Delim`.
    runs: Vec<RunState>,
    /// Open tags of the current region, per tag and spelling (I3).
    open_tags: [[Vec<usize>; 2]; Tag::COUNT],
    /// The emission sweep's open matched tags, per inline slot.
    active: Active,
}

impl Scratch {
    /// Entries a buffer keeps between calls; a larger one (after a huge message) shrinks.
    const KEEP: usize = 1 << 12;

    fn reset(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            v.clear();
            v.shrink_to(Scratch::KEEP);
        }
        trim(&mut self.lines);
        trim(&mut self.tokens);
        trim(&mut self.delims);
        trim(&mut self.runs);
        self.open_tags.iter_mut().flatten().for_each(trim);
        self.active.counts = Counts::default();
        self.active.tags.iter_mut().for_each(trim);
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::new(Scratch::default());
}

/// Runs the parser with this thread's scratch buffers (fresh ones if they are in use).
fn parse(input: &str) -> (Formatted, Vec<Note<()>>) {
    let run = |scratch: &mut Scratch| {
        let out = Parser::new(input, scratch).run();
        scratch.reset();
        out
    };
    SCRATCH
        .try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => run(&mut scratch),
            Err(_) => run(&mut Scratch::default()),
        })
        .unwrap_or_else(|_| run(&mut Scratch::default()))
}

struct Parser<'a, 's> {
    input: &'a str,
    out: FormattedBuilder,
    s: &'s mut Scratch,
    notes: Vec<Note<()>>,
}

impl<'a, 's> Parser<'a, 's> {
    fn new(input: &'a str, s: &'s mut Scratch) -> Self {
        lines::scan(input, &mut s.lines);
        Parser {
            input,
            out: FormattedBuilder::with_capacity(input.len()),
            s,
            notes: Vec::new(),
        }
    }

    fn run(mut self) -> (Formatted, Vec<Note<()>>) {
        let mut i = 0;
        while let Some(line) = self.s.lines.get(i).copied() {
            match line.kind {
                LineKind::Verbatim => {
                    self.flush_region();
                    let raw = self.input.get(line.start..line.end).unwrap_or("");
                    self.out.push_str(raw, StyleSet::EMPTY);
                    i += 1;
                }
                LineKind::Blank => {
                    if line.end > line.content.1 {
                        self.s
                            .tokens
                            .push(Token::new(Kind::Break, line.content.1, line.end, i));
                    }
                    i += 1;
                }
                LineKind::Text => {
                    let para_end = self
                        .s
                        .lines
                        .get(i..)
                        .and_then(|rest| rest.iter().position(|l| l.kind != LineKind::Text))
                        .map_or(self.s.lines.len(), |k| i + k);
                    self.paragraph(i, para_end);
                    i = para_end;
                }
            }
        }
        self.flush_region();
        (self.out.finish(), self.notes)
    }

    /// Tokenizes one paragraph into the region and matches its emphasis (I4–I6).
    fn paragraph(&mut self, first: usize, end: usize) {
        let lines = self.s.lines.get(first..end).unwrap_or_default();
        let tok_base = self.s.tokens.len();
        self.s.delims.clear();
        inline::tokenize(
            self.input,
            lines,
            first,
            &mut self.s.tokens,
            &mut self.s.delims,
            &mut self.s.runs,
        );
        let (tokens, runs) = (&self.s.tokens, &mut self.s.runs);
        let state = |tok: usize| match tokens.get(tok).map(|t| t.kind) {
            Some(Kind::Delim(r)) => Some(r),
            _ => None,
        };
        emphasis::process(&mut self.s.delims, |p: Pair| {
            let slot = p.code.slot();
            if let Some(r) = state(p.opener).and_then(|r| runs.get_mut(r)) {
                r.open_used += p.used;
                if let Some(n) = r.opens.get_mut(slot) {
                    *n += 1;
                }
            }
            if let Some(r) = state(p.closer).and_then(|r| runs.get_mut(r)) {
                r.close_used += p.used;
                if let Some(n) = r.closes.get_mut(slot) {
                    *n += 1;
                }
            }
        });
        self.pair_tags(tok_base);
    }

    /// Pairs the tags among `tokens[from..]` with the region's open tags (I3).
    fn pair_tags(&mut self, from: usize) {
        for k in from..self.s.tokens.len() {
            let Some(Token {
                kind:
                    Kind::Tag {
                        tag,
                        spelling,
                        closing,
                        ..
                    },
                ..
            }) = self.s.tokens.get(k).copied()
            else {
                continue;
            };
            let Some(stack) = self
                .s
                .open_tags
                .get_mut(tag.index())
                .and_then(|s| s.get_mut(spelling.index()))
            else {
                continue;
            };
            if !closing {
                stack.push(k);
            } else if let Some(opener) = stack.pop() {
                for (a, b) in [(opener, k), (k, opener)] {
                    if let Some(Kind::Tag { partner, .. }) =
                        self.s.tokens.get_mut(a).map(|t| &mut t.kind)
                    {
                        *partner = Some(b);
                    }
                }
            }
        }
    }

    /// Emits the region's tokens with their styles and clears it (1.3 combining).
    fn flush_region(&mut self) {
        let mut tokens = core::mem::take(&mut self.s.tokens);
        let mut active = core::mem::take(&mut self.s.active);
        let mut inline = StyleSet::EMPTY;
        let mut dirty = true;
        for k in 0..tokens.len() {
            let Some(tok) = tokens.get(k).copied() else {
                break;
            };
            let run = match tok.kind {
                Kind::Delim(r) => self.s.runs.get(r).copied().unwrap_or_default(),
                Kind::Text | Kind::Break | Kind::Tag { .. } => RunState::default(),
            };
            active.close(&mut tokens, tok.kind, run);
            // The inline set changes only at delimiter and tag tokens (their events come
            // before their text and after it): recompute it there and right after.
            let eventful = matches!(tok.kind, Kind::Delim(_) | Kind::Tag { .. });
            if eventful || dirty {
                inline = active.style(&tokens);
            }
            dirty = eventful;
            self.emit(k, tok, run, inline, &mut active);
        }
        tokens.clear();
        self.s.tokens = tokens;
        active.counts = Counts::default();
        active.tags.iter_mut().for_each(Vec::clear);
        self.s.active = active;
        self.s.runs.clear();
        self.s.open_tags.iter_mut().flatten().for_each(Vec::clear);
    }

    /// Writes token `k` (its literal text, if any) with `inline` and its line's codes, then
    /// applies the events that follow its text: the opens of a delimiter run or a matched
    /// opening tag. An unmatched tag is text and a diagnostic (L3).
    fn emit(&mut self, k: usize, tok: Token, run: RunState, inline: StyleSet, active: &mut Active) {
        let line_codes = self
            .s
            .lines
            .get(tok.line)
            .map_or(StyleSet::EMPTY, |l| l.codes);
        let raw = self.input.get(tok.start..tok.end).unwrap_or("");
        match tok.kind {
            Kind::Text => self.out.push_str(raw, inline.with(line_codes)),
            Kind::Break => self.out.push_str(raw, inline),
            Kind::Delim(_) => {
                let lit = raw.len().saturating_sub(run.close_used + run.open_used);
                let s = raw.get(run.close_used..run.close_used + lit).unwrap_or("");
                self.out.push_str(s, inline.with(line_codes));
                for (c, d) in active.counts.iter_mut().zip(run.opens) {
                    *c += d;
                }
            }
            Kind::Tag {
                tag,
                closing,
                partner,
                ..
            } => match partner {
                Some(_) if !closing => {
                    if let Some(stack) = active.tags.get_mut(tag.code().slot()) {
                        stack.push(k);
                    }
                }
                Some(_) => {}
                None => {
                    self.out.push_str(raw, inline.with(line_codes));
                    self.notes.push(Note {
                        span: Span::new(tok.start, tok.end),
                        code: if closing {
                            DiagnosticCode::UnmatchedClosingTag
                        } else {
                            DiagnosticCode::UnclosedTag
                        },
                        detail: (),
                    });
                }
            },
        }
    }
}

/// The inline state of the emission sweep: open delimiter pairs per flag slot, and per
/// inline slot the matched opening tags still open, by opening order; the innermost (last
/// opened, still open) tag of a slot wins (1.3), and tags need not nest (I3).
#[derive(Debug, Default)]
struct Active {
    counts: Counts,
    tags: [Vec<usize>; INLINE_SLOTS],
}

impl Active {
    /// Applies the events that come before a token's text: the closes of a delimiter run,
    /// or a matched closing tag (its opener ends; ended openers leave the top of its slot).
    fn close(&mut self, tokens: &mut [Token], kind: Kind, run: RunState) {
        match kind {
            Kind::Delim(_) => {
                for (c, d) in self.counts.iter_mut().zip(run.closes) {
                    *c = c.saturating_sub(d);
                }
            }
            Kind::Tag {
                tag,
                closing: true,
                partner: Some(opener),
                ..
            } => {
                if let Some(Kind::Tag { ended, .. }) = tokens.get_mut(opener).map(|t| &mut t.kind) {
                    *ended = true;
                }
                if let Some(stack) = self.tags.get_mut(tag.code().slot()) {
                    while stack.last().is_some_and(|&o| {
                        matches!(
                            tokens.get(o).map(|t| t.kind),
                            Some(Kind::Tag { ended: true, .. })
                        )
                    }) {
                        stack.pop();
                    }
                }
            }
            Kind::Text | Kind::Break | Kind::Tag { .. } => {}
        }
    }

    /// The inline codes in force.
    fn style(&self, tokens: &[Token]) -> StyleSet {
        let mut set = StyleSet::EMPTY;
        for (c, code) in self.counts.iter().zip(StyleCode::FLAGS) {
            if *c > 0 {
                set.insert(code);
            }
        }
        for stack in &self.tags {
            if let Some(Kind::Tag { tag, .. }) =
                stack.last().and_then(|&o| tokens.get(o)).map(|t| t.kind)
            {
                set.insert(tag.code());
            }
        }
        set
    }
}
