//! CommonMark import (spec section 9, M1–M11): text written for CommonMark 0.31.2 with
//! GitHub's tables, strikethrough and task lists — what language models and READMEs write —
//! read by pulldown-cmark (those three extensions and nothing else) and turned into plain
//! text plus canonical runs, the closest the platform can show.
//!
//! pulldown-cmark's event stream is flat; this module walks it once, keeping the open
//! blocks on a stack of its own (no recursion per nesting level, L1), and writes every
//! character into the one run builder, so the result is canonical by construction (M11).
//! How the document becomes text and codes:
//!
//! - M1 layout: a block's first content writes the separator the block before it left
//!   pending (`\n\n`, or `\n` inside a tight list and between table rows), so empty blocks
//!   leave no lines and the result starts and ends with content; soft and hard breaks are
//!   `\n`. Tightness is pulldown-cmark's: a loose list's paragraphs come as `Paragraph`
//!   events, a tight list's as bare inline content. A list with no paragraph at all shows
//!   neither, and is judged by CommonMark's definition on the source (a blank line between
//!   its items or between the blocks of an item, [`loose`]); its separators are written as
//!   `\n` and widened at the end if it turns out loose.
//! - M2 `b` `i` `s` from strong, emphasis and strikethrough, as inline codes (they cover the
//!   line breaks inside them, 1.3); a code span is its content between single backticks.
//! - M3 headings, M4 list items (`lst_*` on an item's first line, `ind_d`/`ind_(d+1)`),
//!   M5 quotes (one indent level each) are line codes: computed per line, never on a line
//!   break.
//! - M6 code blocks are copied between ```` ``` ```` lines, without codes.
//! - M7 links gain ` (URL)` for an absolute `http:`, `https:` or `mailto:` destination that
//!   differs from their text; images are their alt text; M8 tables are rows of cells joined
//!   by ` | `, the header bold; M9 a thematic break is `———`; M10 HTML tags are removed
//!   (see [`html`]).
//!
//! The text limit of R1 is not applied: a caller that sends the result splits it (spec
//! section 8).

mod html;
mod loose;

use pulldown_cmark::{
    CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd,
};

use crate::builder::RunBuilder;
use crate::text::utf16::{push_utf16, utf16_len};
use crate::{Formatted, FormattedUtf16, StyleCode, StyleSet, TextStyle};

use html::{BlockHtml, Piece};

/// The parser's extensions: GitHub's tables, strikethrough and task lists (spec section 9),
/// nothing else.
const OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS);

/// M9: what a thematic break becomes.
const THEMATIC_BREAK: &str = "\u{2014}\u{2014}\u{2014}";

/// Reads `text` as CommonMark (with GitHub's tables, strikethrough and task lists) and
/// returns the closest text plus canonical runs the platform can show (spec section 9,
/// M1–M11). Never panics; linear in the input; the text limit (R1) is not applied.
///
/// # Examples
///
/// ```
/// let f = chatmark::from_commonmark("## Steps\n\n1. Install **Rust**\n2. See [the book](https://doc.rust-lang.org/book/)");
/// assert_eq!(f.text, "Steps\n\nInstall Rust\nSee the book (https://doc.rust-lang.org/book/)");
/// let codes: Vec<String> = f.text_styles.iter().map(|r| r.st.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" ")).collect();
/// assert_eq!(codes, ["b", "lst_2", "b lst_2", "lst_2"]);
/// ```
pub fn from_commonmark(text: &str) -> Formatted {
    let mut out = Formatted::default();
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        out = import(text, scratch);
    });
    out
}

/// The walk over `text`'s events, with `scratch`'s working memory. Never inlined: the loop
/// is compiled as one whole, whatever its caller.
#[inline(never)]
fn import(text: &str, scratch: &mut Scratch) -> Formatted {
    let mut import = Import::new(text, scratch);
    for event in Parser::new_ext(text, OPTIONS) {
        import.event(event);
    }
    import.finish(scratch)
}

/// The walk's working memory kept between calls on a thread (its block stack and pending
/// line breaks), so that importing a message allocates only its result (and what
/// pulldown-cmark allocates).
#[derive(Debug, Default)]
struct Scratch {
    stack: Vec<Frame>,
    breaks: Vec<StyleSet>,
}

impl Scratch {
    /// Entries a buffer keeps between calls; a larger one (after a deep document) shrinks.
    const KEEP: usize = 4096;
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const {
        core::cell::RefCell::new(Scratch { stack: Vec::new(), breaks: Vec::new() })
    };
}

/// [`from_commonmark`] of UTF-16 text (a JavaScript string's units), lone surrogates read
/// as U+FFFD (L2), with the result's text in UTF-16 units too.
///
/// # Examples
///
/// ```
/// let mut input: Vec<u16> = "*é* ".encode_utf16().collect();
/// input.push(0xd800); // a lone surrogate
/// let f = chatmark::from_commonmark_utf16(&input);
/// assert_eq!(f.text, "é \u{fffd}".encode_utf16().collect::<Vec<u16>>());
/// assert_eq!((f.text_styles[0].start, f.text_styles[0].len), (0, 1));
/// ```
pub fn from_commonmark_utf16(units: &[u16]) -> FormattedUtf16 {
    let f = from_commonmark(&String::from_utf16_lossy(units));
    let mut text = Vec::with_capacity(f.text.len());
    push_utf16(&mut text, &f.text);
    FormattedUtf16 {
        text,
        text_styles: f.text_styles,
    }
}

/// The separator a block leaves for the next one's first content (M1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    None,
    /// `\n`: table rows.
    Line,
    /// `\n\n`: blocks of the document and of quotes.
    Blank,
    /// Between items of the list at this stack index, or blocks of one of its items: `\n`
    /// when it is tight, `\n\n` when loose.
    List(usize),
}

/// What pulldown-cmark's events have shown of a list's tightness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tightness {
    /// No paragraph seen directly in an item yet.
    Unknown,
    Tight,
    Loose,
}

/// An open block on the walk's stack.
#[derive(Clone, Copy, Debug)]
enum Frame {
    Quote,
    List {
        code: StyleCode,
        tight: Tightness,
        /// Its number among the document's lists, in order of their start.
        ordinal: usize,
        /// Its slot in `Import::loose_slots` once a separator of its was written before
        /// its tightness was known.
        slot: Option<usize>,
    },
    Item {
        /// The enclosing item's first-line state and list code, restored at its end.
        saved_first: bool,
        saved_code: StyleCode,
        /// `Import::lines` when it began.
        lines: usize,
    },
    /// A tight list item's paragraph, which pulldown-cmark does not mark.
    TightPara,
    /// A paragraph, heading, code block, HTML block or table cell.
    Leaf,
    Table,
    Row {
        cells: usize,
    },
}

/// A `\n` written as a separator of a list whose tightness was not known yet: it becomes
/// `\n\n` if the list turns out loose.
#[derive(Clone, Copy, Debug)]
struct Patch {
    byte: usize,
    unit: usize,
    slot: usize,
}

/// An open link: where its text began in the output, and its destination.
#[derive(Debug)]
struct Link<'a> {
    mark: usize,
    dest: pulldown_cmark::CowStr<'a>,
    auto: bool,
}

/// The walk over one document's events.
struct Import<'a> {
    src: &'a str,
    text: String,
    runs: RunBuilder,
    /// The text from this byte on is written with `span_set` and not yet counted into
    /// `runs`: UTF-16 units are counted once per change of style, not per piece.
    span_from: usize,
    span_set: StyleSet,
    stack: Vec<Frame>,
    links: Vec<Link<'a>>,
    /// Open strong, emphasis and strikethrough spans, and images.
    strong: usize,
    emphasis: usize,
    strike: usize,
    image: usize,
    /// In a table's header row: its text is bold (M8).
    header: bool,
    /// The inline codes those make (M2, M8).
    inline: StyleSet,
    /// The codes of the heading being read (M3).
    heading: StyleSet,
    quotes: usize,
    items: usize,
    /// Whether the innermost item has not written a line yet (M4), and its list's code.
    item_first: bool,
    item_code: StyleCode,
    /// In a code block (M6): its text is copied without codes.
    in_code: bool,
    html: BlockHtml,
    /// Whether the HTML block being read has written a line (its line ends are pending).
    html_lines: bool,
    /// Spaces and tabs held back at the end of an HTML block's line.
    html_held: String,
    /// The separator left pending, and the line breaks (with their inline codes) read since
    /// the last content of the block: written only when content follows.
    pending: Sep,
    breaks: Vec<StyleSet>,
    /// The current line's line codes, and whether it has content.
    line_codes: StyleSet,
    /// The inline codes of the last content written (a `\r` that turns out to be part of a
    /// line break keeps only those, 1.3).
    last_inline: StyleSet,
    line_open: bool,
    /// Lines begun so far.
    lines: usize,
    /// Lists begun so far.
    lists: usize,
    patches: Vec<Patch>,
    /// Per list that has patches: whether it turned out loose.
    loose_slots: Vec<bool>,
    /// The slots of lists whose events did not show their tightness, with the lists'
    /// ordinals: judged on the source at the end ([`loose::blank_separated_lists`]).
    unknown: Vec<(usize, usize)>,
}

impl<'a> Import<'a> {
    fn new(src: &'a str, scratch: &mut Scratch) -> Self {
        let mut runs = RunBuilder::default();
        // about one run per 40 bytes of answers written by models
        runs.reserve(src.len() / 40 + 4);
        Import {
            src,
            text: String::with_capacity(src.len()),
            runs,
            span_from: 0,
            span_set: StyleSet::EMPTY,
            stack: core::mem::take(&mut scratch.stack),
            links: Vec::new(),
            strong: 0,
            emphasis: 0,
            strike: 0,
            image: 0,
            header: false,
            inline: StyleSet::EMPTY,
            heading: StyleSet::EMPTY,
            quotes: 0,
            items: 0,
            item_first: false,
            item_code: StyleCode::Bullet,
            in_code: false,
            html: BlockHtml::default(),
            html_lines: false,
            html_held: String::new(),
            pending: Sep::None,
            breaks: core::mem::take(&mut scratch.breaks),
            line_codes: StyleSet::EMPTY,
            last_inline: StyleSet::EMPTY,
            line_open: false,
            lines: 0,
            lists: 0,
            patches: Vec::new(),
            loose_slots: Vec::new(),
            unknown: Vec::new(),
        }
    }

    #[inline(always)]
    fn event(&mut self, event: Event<'a>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                self.inline();
                match t {
                    _ if self.in_code => self.raw(&t),
                    // a slice of one source line: no line break in it
                    CowStr::Borrowed(t) => self.write_in_line(t),
                    // decoded text (`&#10;` may be a line break)
                    t => self.write(&t),
                }
            }
            Event::Code(t) => {
                self.inline();
                if self.image > 0 {
                    // an image's alt text is plain (M7), as CommonMark renders it
                    self.write(&t);
                } else {
                    self.code_span(&t);
                }
            }
            Event::InlineHtml(t) => {
                self.inline();
                if html::is_br(t.as_bytes()) {
                    self.line_break();
                }
            }
            Event::Html(t) => self.html_chunk(&t),
            Event::SoftBreak | Event::HardBreak => {
                self.inline();
                self.line_break();
            }
            Event::Rule => {
                self.block_start();
                self.write(THEMATIC_BREAK);
                self.block_end();
            }
            Event::TaskListMarker(done) => {
                self.inline();
                self.write(if done { "\u{2611} " } else { "\u{2610} " });
            }
            // not produced with this parser's options; read as text if ever they are
            Event::InlineMath(t) | Event::DisplayMath(t) | Event::FootnoteReference(t) => {
                self.inline();
                self.write(&t);
            }
        }
    }

    #[inline(always)]
    fn start(&mut self, tag: Tag<'a>) {
        match tag {
            Tag::Paragraph => {
                // a paragraph directly in an item: pulldown-cmark marks only a loose list's
                if let Some(list) = self.item_list() {
                    self.set_tight(list, Tightness::Loose);
                }
                self.block_start();
                self.stack.push(Frame::Leaf);
            }
            Tag::Heading { level, .. } => {
                self.block_start();
                self.stack.push(Frame::Leaf);
                self.heading = StyleSet::of(StyleCode::Bold);
                if level == HeadingLevel::H1 {
                    self.heading.insert(StyleCode::Large);
                }
            }
            Tag::BlockQuote(_) => {
                self.block_start();
                self.stack.push(Frame::Quote);
                self.quotes += 1;
            }
            Tag::CodeBlock(kind) => {
                self.block_start();
                self.stack.push(Frame::Leaf);
                // the fence takes the item's first line, without codes (M6)
                self.open_line();
                self.raw("```");
                if let CodeBlockKind::Fenced(info) = kind {
                    self.raw(&info);
                }
                self.raw("\n");
                self.in_code = true;
            }
            Tag::HtmlBlock => {
                self.block_start();
                self.stack.push(Frame::Leaf);
                self.html = BlockHtml::default();
                self.html_lines = false;
                self.html_held.clear();
            }
            Tag::List(first) => {
                self.block_start();
                self.stack.push(Frame::List {
                    code: if first.is_some() {
                        StyleCode::Ordered
                    } else {
                        StyleCode::Bullet
                    },
                    tight: Tightness::Unknown,
                    ordinal: self.lists,
                    slot: None,
                });
                self.lists += 1;
            }
            Tag::Item => {
                self.block_start();
                let code = match self.stack.last() {
                    Some(Frame::List { code, .. }) => *code,
                    _ => StyleCode::Bullet,
                };
                self.stack.push(Frame::Item {
                    saved_first: self.item_first,
                    saved_code: self.item_code,
                    lines: self.lines,
                });
                self.items += 1;
                self.item_first = true;
                self.item_code = code;
            }
            Tag::Table(_) => {
                self.block_start();
                self.stack.push(Frame::Table);
            }
            Tag::TableHead | Tag::TableRow => {
                self.header = matches!(tag, Tag::TableHead);
                self.update_inline();
                self.stack.push(Frame::Row { cells: 0 });
            }
            Tag::TableCell => {
                let later = match self.stack.last_mut() {
                    Some(Frame::Row { cells }) => {
                        *cells += 1;
                        *cells > 1
                    }
                    _ => false,
                };
                if later {
                    self.write(" | ");
                }
                self.stack.push(Frame::Leaf);
            }
            Tag::Emphasis | Tag::Strong | Tag::Strikethrough => {
                self.inline();
                if self.image == 0 {
                    match tag {
                        Tag::Emphasis => self.emphasis += 1,
                        Tag::Strong => self.strong += 1,
                        _ => self.strike += 1,
                    }
                    self.update_inline();
                }
            }
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                self.inline();
                self.links.push(Link {
                    mark: self.text.len(),
                    dest: dest_url,
                    auto: matches!(link_type, LinkType::Autolink | LinkType::Email),
                });
            }
            Tag::Image { .. } => {
                self.inline();
                self.image += 1;
            }
            // not produced with these options
            _ => {}
        }
    }

    #[inline(always)]
    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::TableCell => {
                self.stack.pop();
                if matches!(tag, TagEnd::Paragraph) {
                    self.block_end();
                }
            }
            TagEnd::Heading(_) => {
                self.stack.pop();
                self.heading = StyleSet::EMPTY;
                self.block_end();
            }
            TagEnd::CodeBlock => {
                self.stack.pop();
                self.in_code = false;
                if !self.text.ends_with('\n') {
                    self.raw("\n");
                }
                self.raw("```");
                self.block_end();
            }
            TagEnd::HtmlBlock => {
                self.stack.pop();
                self.block_end();
            }
            TagEnd::BlockQuote(_) => {
                self.stack.pop();
                self.quotes = self.quotes.saturating_sub(1);
                self.container_end();
            }
            TagEnd::List(_) => {
                self.end_tight_para();
                if let Some(Frame::List {
                    tight,
                    ordinal,
                    slot: Some(slot),
                    ..
                }) = self.stack.pop()
                {
                    match tight {
                        Tightness::Unknown => self.unknown.push((slot, ordinal)),
                        t => {
                            if let Some(loose) = self.loose_slots.get_mut(slot) {
                                *loose = t == Tightness::Loose;
                            }
                        }
                    }
                }
                self.container_end();
            }
            TagEnd::Item => {
                self.end_tight_para();
                if let Some(Frame::Item {
                    saved_first,
                    saved_code,
                    lines,
                    ..
                }) = self.stack.pop()
                {
                    // an item that wrote a line wrote the enclosing item's first line too
                    self.item_first = saved_first && lines == self.lines;
                    self.item_code = saved_code;
                }
                self.items = self.items.saturating_sub(1);
                self.container_end();
            }
            TagEnd::Table => {
                self.stack.pop();
                self.block_end();
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                self.stack.pop();
                self.header = false;
                self.update_inline();
                self.line_open = false;
                self.breaks.clear();
                self.pending = Sep::Line;
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough if self.image == 0 => {
                match tag {
                    TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
                    TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
                    _ => self.strike = self.strike.saturating_sub(1),
                }
                self.update_inline();
            }
            TagEnd::Link => self.link_end(),
            TagEnd::Image => self.image = self.image.saturating_sub(1),
            _ => {}
        }
    }

    /// The stack index of the list whose item is the innermost open block, if one is.
    fn item_list(&self) -> Option<usize> {
        match self.stack.last() {
            Some(Frame::Item { .. }) => self.stack.len().checked_sub(2),
            _ => None,
        }
    }

    /// Records what the events showed of the tightness of the list at `index`.
    fn set_tight(&mut self, index: usize, seen: Tightness) {
        if let Some(Frame::List { tight, .. }) = self.stack.get_mut(index) {
            if *tight == Tightness::Unknown {
                *tight = seen;
            }
        }
    }

    /// Inline content is next: directly in an item, it begins a tight paragraph, which
    /// shows that the item's list is tight.
    #[inline]
    fn inline(&mut self) {
        if let Some(list) = self.item_list() {
            self.set_tight(list, Tightness::Tight);
            self.stack.push(Frame::TightPara);
        }
    }

    /// A block begins: a tight paragraph in progress ends first.
    fn block_start(&mut self) {
        self.end_tight_para();
    }

    /// Ends the tight paragraph in progress, if one is.
    fn end_tight_para(&mut self) {
        if matches!(self.stack.last(), Some(Frame::TightPara)) {
            self.stack.pop();
            self.block_end();
        }
    }

    /// A leaf block ended: its trailing line breaks are dropped, and the next block's
    /// content will be separated from it as its container says (M1).
    fn block_end(&mut self) {
        self.container_end();
    }

    /// A block ended: the separator is the one of the container it was in.
    fn container_end(&mut self) {
        self.line_open = false;
        self.breaks.clear();
        self.html_lines = false;
        self.pending = match self.stack.last() {
            Some(Frame::List { .. }) => Sep::List(self.stack.len() - 1),
            Some(Frame::Item { .. }) => Sep::List(self.stack.len().saturating_sub(2)),
            Some(Frame::Table) => Sep::Line,
            _ => Sep::Blank,
        };
    }

    /// The line codes of a line beginning now (P4, M3–M5).
    fn line_codes(&self) -> StyleSet {
        let mut set = self.heading;
        let mut level = self.quotes + self.items;
        if self.item_first && self.items > 0 {
            set.insert(self.item_code);
            level -= 1;
        }
        if let Some(indent) = StyleCode::indent(level) {
            set.insert(indent);
        }
        set
    }

    /// Sets the inline codes in effect from the open spans (M2, M8's bold header).
    fn update_inline(&mut self) {
        let mut set = StyleSet::EMPTY;
        if self.strong > 0 || self.header {
            set.insert(StyleCode::Bold);
        }
        if self.emphasis > 0 {
            set.insert(StyleCode::Italic);
        }
        if self.strike > 0 {
            set.insert(StyleCode::Strike);
        }
        self.inline = set;
    }

    /// Content is about to be written: writes what is pending before it, and begins a line
    /// if none is open.
    #[inline]
    fn open_line(&mut self) {
        if self.line_open {
            return;
        }
        if self.pending != Sep::None || !self.breaks.is_empty() {
            self.flush();
        }
        self.line_codes = self.line_codes();
        self.item_first = false;
        self.lines += 1;
        self.line_open = true;
    }

    /// Writes the pending separator and line breaks (none at the start of the text: M1).
    #[cold]
    fn flush(&mut self) {
        let before = self.text.len();
        if before > 0 {
            self.before_line_break();
            match self.pending {
                Sep::None => {}
                Sep::Line => self.push("\n", StyleSet::EMPTY),
                Sep::Blank => self.push("\n\n", StyleSet::EMPTY),
                Sep::List(index) => self.list_separator(index),
            }
            for k in 0..self.breaks.len() {
                let set = self.breaks.get(k).copied().unwrap_or_default();
                self.push("\n", set);
            }
        }
        self.pending = Sep::None;
        self.breaks.clear();
        // a link's text begins after what was pending
        if let Some(link) = self.links.last_mut() {
            if link.mark == before {
                link.mark = self.text.len();
            }
        }
    }

    /// The separator of the list at stack index `index`: `\n\n` when loose, `\n` when
    /// tight, and `\n` with a patch when not known yet.
    fn list_separator(&mut self, index: usize) {
        let next_slot = self.loose_slots.len();
        let slot = match self.stack.get_mut(index) {
            Some(Frame::List {
                tight: Tightness::Loose,
                ..
            }) => return self.push("\n\n", StyleSet::EMPTY),
            Some(Frame::List {
                tight: Tightness::Unknown,
                slot,
                ..
            }) => *slot.get_or_insert(next_slot),
            _ => return self.push("\n", StyleSet::EMPTY),
        };
        if slot == next_slot {
            self.loose_slots.push(false);
        }
        self.settle();
        self.patches.push(Patch {
            byte: self.text.len(),
            unit: self.runs.position(),
            slot,
        });
        self.push("\n", StyleSet::EMPTY);
    }

    /// A line break is written next: a `\r` just before it is part of it, so it keeps only
    /// its inline codes (1.3).
    fn before_line_break(&mut self) {
        if self.text.ends_with('\r') {
            self.settle();
            self.runs.restyle_last(self.last_inline);
        }
    }

    /// Appends `s` with `set`, as it is.
    #[inline]
    fn push(&mut self, s: &str, set: StyleSet) {
        if set != self.span_set {
            self.settle();
            self.span_set = set;
        }
        self.text.push_str(s);
    }

    /// Counts the text written since the last change of style into the run builder.
    fn settle(&mut self) {
        let units = utf16_len(self.text.get(self.span_from..).unwrap_or_default());
        self.runs.advance(units, self.span_set);
        self.span_from = self.text.len();
    }

    /// Appends text without codes (M6).
    fn raw(&mut self, s: &str) {
        self.push(s, StyleSet::EMPTY);
    }

    /// Writes content: the line's line codes and the inline codes in effect (1.3: the line
    /// codes never cover a line break, the inline codes do).
    fn write(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.open_line();
        let inline = self.inline;
        self.last_inline = inline;
        if !s.as_bytes().contains(&b'\n') {
            return self.push(s, self.line_codes.with_flags_of(inline));
        }
        // a line break in text (`&#10;`): the next piece is a line of its own
        let mut rest = s;
        while let Some((line, after)) = rest.split_once('\n') {
            if !line.is_empty() {
                self.open_line();
                self.push(line, self.line_codes.with_flags_of(inline));
            }
            self.before_line_break();
            self.push("\n", inline);
            self.line_open = false;
            rest = after;
        }
        if !rest.is_empty() {
            self.open_line();
            self.push(rest, self.line_codes.with_flags_of(inline));
        }
    }

    /// Writes content that holds no line break (a slice of one source line).
    #[inline]
    fn write_in_line(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.open_line();
        self.last_inline = self.inline;
        self.push(s, self.line_codes.with_flags_of(self.inline));
    }

    /// A soft or hard break, or a `br` (M1, M10): pending until content follows in the block.
    fn line_break(&mut self) {
        if self.image > 0 {
            // in alt text, a line break is a space (as CommonMark renders alt text)
            return self.write(" ");
        }
        self.breaks.push(self.inline);
        self.line_open = false;
    }

    /// A code span: its content between single backticks (M2).
    fn code_span(&mut self, content: &str) {
        self.open_line();
        self.last_inline = self.inline;
        let set = self.line_codes.with_flags_of(self.inline);
        // CommonMark turns a code span's line breaks into spaces: it holds none
        self.push("`", set);
        self.push(content, set);
        self.push("`", set);
    }

    /// One chunk of an HTML block: its text between tags, each line without the spaces and
    /// tabs that begin and end it, empty lines left out (M10).
    fn html_chunk(&mut self, chunk: &str) {
        let mut reader = core::mem::take(&mut self.html);
        // spaces and tabs after the line's last text so far: written if more text follows
        let mut held = core::mem::take(&mut self.html_held);
        reader.feed(chunk, |piece| match piece {
            Piece::Text(t) => {
                let t = if self.line_open {
                    t
                } else {
                    t.trim_start_matches([' ', '\t'])
                };
                let body = t.trim_end_matches([' ', '\t']);
                if body.is_empty() {
                    if self.line_open {
                        held.push_str(t);
                    }
                    return;
                }
                if !self.line_open && self.html_lines {
                    self.breaks.push(StyleSet::EMPTY);
                }
                self.html_lines = true;
                if !held.is_empty() {
                    self.write(&held);
                    held.clear();
                }
                self.write(body);
                held.push_str(t.get(body.len()..).unwrap_or_default());
            }
            Piece::LineEnd => {
                held.clear();
                self.line_open = false;
            }
        });
        self.html = reader;
        self.html_held = held;
    }

    /// A link ends: ` (URL)` follows its text when the destination is an absolute
    /// `http:`, `https:` or `mailto:` URL that differs from the text (M7).
    fn link_end(&mut self) {
        let Some(link) = self.links.pop() else { return };
        if link.auto || self.image > 0 || !is_absolute(&link.dest) {
            return;
        }
        let shown = self.text.get(link.mark..).unwrap_or_default();
        if shown == &*link.dest {
            return;
        }
        if shown.is_empty() {
            // nothing to show but the destination
            return self.write(&link.dest);
        }
        self.write_in_line(" (");
        self.write(&link.dest);
        self.write_in_line(")");
    }

    /// The text and runs, with the separators of lists found loose widened (M1) and the
    /// whitespace lines at the start and end removed; the working memory goes back to
    /// `scratch`.
    fn finish(mut self, scratch: &mut Scratch) -> Formatted {
        self.settle();
        let Import {
            src,
            mut text,
            runs,
            mut stack,
            mut breaks,
            patches,
            mut loose_slots,
            unknown,
            ..
        } = self;
        stack.clear();
        stack.shrink_to(Scratch::KEEP);
        breaks.clear();
        breaks.shrink_to(Scratch::KEEP);
        scratch.stack = stack;
        scratch.breaks = breaks;
        let mut runs = runs.finish();
        if !unknown.is_empty() {
            // lists whose events showed no paragraph: CommonMark's definition, on the source
            let blank = loose::blank_separated_lists(src);
            for (slot, ordinal) in unknown {
                if let Some(loose) = loose_slots.get_mut(slot) {
                    *loose = blank.get(ordinal).copied().unwrap_or(false);
                }
            }
        }
        if loose_slots.iter().any(|&loose| loose) {
            (text, runs) = widen(&text, runs, &patches, &loose_slots);
        }
        trim_whitespace_lines(text, runs)
    }
}

/// Whether a link destination is an absolute `http:`, `https:` or `mailto:` URL (M7;
/// schemes are case-insensitive).
fn is_absolute(dest: &str) -> bool {
    ["http:", "https:", "mailto:"].iter().any(|scheme| {
        dest.len() > scheme.len()
            && dest
                .as_bytes()
                .get(..scheme.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(scheme.as_bytes()))
    })
}

/// Inserts a `\n` at each patch of a list that turned out loose, shifting the runs after it.
fn widen(
    text: &str,
    runs: Vec<TextStyle>,
    patches: &[Patch],
    loose: &[bool],
) -> (String, Vec<TextStyle>) {
    let active: Vec<&Patch> = patches
        .iter()
        .filter(|p| loose.get(p.slot).copied().unwrap_or(false))
        .collect();
    let mut out = String::with_capacity(text.len() + active.len());
    let mut from = 0;
    for p in &active {
        out.push_str(text.get(from..p.byte).unwrap_or_default());
        out.push('\n');
        from = p.byte;
    }
    out.push_str(text.get(from..).unwrap_or_default());
    // a patch is an unstyled `\n`: no run covers it, and a run after it moves by the
    // patches before its start
    let mut k = 0;
    let runs = runs
        .into_iter()
        .map(|mut r| {
            while active.get(k).is_some_and(|p| p.unit < r.start) {
                k += 1;
            }
            r.start += k;
            r
        })
        .collect();
    (out, runs)
}

/// Removes whole lines of whitespace at the start and at the end of the text (M1),
/// cutting the runs to what is left.
fn trim_whitespace_lines(text: String, runs: Vec<TextStyle>) -> Formatted {
    let blank = |line: &str| line.chars().all(char::is_whitespace);
    // the start: after the last line break of the leading whitespace
    let lead = text.len() - text.trim_start_matches(char::is_whitespace).len();
    let start = text
        .get(..lead)
        .and_then(|w| w.rfind('\n'))
        .map_or(0, |k| k + 1);
    // the end: at the first line break of the trailing whitespace
    let trail = text.trim_end_matches(char::is_whitespace).len();
    let end = text
        .get(trail..)
        .and_then(|w| w.find('\n'))
        .map_or(text.len(), |k| trail + k);
    if blank(&text) {
        return Formatted::default();
    }
    if start == 0 && end == text.len() {
        return Formatted {
            text,
            text_styles: runs,
        };
    }
    let skip = utf16_len(text.get(..start).unwrap_or_default());
    let kept = text.get(start..end).unwrap_or_default().to_owned();
    let len = utf16_len(&kept);
    let text_styles = runs
        .into_iter()
        .filter_map(|r| {
            let from = r.start.saturating_sub(skip).min(len);
            let to = r.end().saturating_sub(skip).min(len);
            (to > from).then_some(TextStyle {
                start: from,
                len: to - from,
                st: r.st,
            })
        })
        .collect();
    Formatted {
        text: kept,
        text_styles,
    }
}

#[cfg(test)]
mod tests;
