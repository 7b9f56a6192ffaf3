//! HTML-mode semantics: reads the token stream into text plus runs, tree-less and in linear
//! time — element table H3, attributes and inline CSS H4, nesting H5, block boundaries and
//! whitespace H6, `br` H7, list and indent levels H8, line codes 1.3, diagnostics L3.
//!
//! # Design (L1: linear for every input, no recursion)
//!
//! - Every start tag that opens an element gets an id in an arena of [`Elem`]s; closing an
//!   element only sets its `closed` flag (a tombstone).
//! - Per tag name, a stack of the ids of elements of that name: "the nearest open element of
//!   that name" (H5) is its top live entry, found by lazily popping tombstones.
//! - A stack of open block elements: "block elements opened after it close with it" pops
//!   while the top id is greater than the closed element's id.
//! - Per style *slot* (the flags `b i u s`, size, colour, the `li` list code) a stack of
//!   `(element id, value)` for the open elements with an opinion on that slot; the slot's
//!   value is its top live entry (lazy pop again). H4 removals are entries with value
//!   "off". Counters hold the open `ul`/`ol`, `blockquote` and `pre` elements.
//! - H6 is decided per *run*: the whitespace and tags between two pieces of content (text
//!   that is not whitespace, or a `br`) are buffered — whitespace pieces with the style they
//!   arrived with — and decided once when the run ends.
//!
//! Every element is pushed on and popped off each stack at most once, so the whole pass is
//! amortised O(1) per token and per byte.
//!
//! # Readings where the spec leaves room
//!
//! - H6: whitespace from a character reference is content for the inserted line break, so
//!   `<div>a</div>&#32;<div>b</div>` is `a\n \nb`; kept `pre` whitespace likewise.
//! - H6: only tags are boundaries, so the closing of open elements at the end of input is
//!   none: `<p>a ` keeps its space while `<p>a </p>` drops it.
//! - H6: an inline end tag that closes blocks opened after it (H5) is no boundary, so
//!   `<b><p>x</b>y` is `xy` (the spec's edge reading).
//! - H7 drops the typed line break after a `br` inside `pre` too; HTML's tree-builder rule
//!   that drops a newline right after `<pre>` is not applied (H1 is the tokenizer only, H2).
//! - 1.3: a `\r` (only from a character reference, H1) is part of a line break, and so
//!   carries no line code, exactly when the next emitted character is `\n`.
//! - H5: an `li`'s list is the nearest open `ul`/`ol` when it starts; an `li` outside any
//!   list closes an open `li` that is outside any list too. Text directly in a list (no
//!   `li`) gets the indent of H8 and no list code.
//! - H4: a `style` value is split on every `;` after comment removal (an unterminated
//!   comment runs to the end); `!important` makes any value unrecognised, so the declaration
//!   is ignored. Numbers are ASCII digits with an optional fraction (`10.5`, `.5`; not `5.`,
//!   signs or exponents), the unit right after them; `font-weight` numbers have no unit.
//!   `text-decoration` words other than `underline`, `line-through`, `none` are skipped (so
//!   `underline wavy red` underlines). Colours: `#rrggbb` of any of the five colour codes
//!   of 1.1 (the default `#050a19` included), `rgb(`/`RGB(` with three integer components
//!   0–255 separated by commas, or the four names.
//! - L3: `unclosed_tag` is reported only for elements still open at the end of input, not
//!   for those H5 closes earlier (blocks closed with an inline, an `li` closed by an `li`),
//!   and not for elements whose end tag HTML lets you omit (`li`, `p`, `tr`, …).

use std::collections::HashMap;

use super::token::{StartTag, TokenSink};
use crate::builder::FormattedBuilder;
use crate::utf16::Utf16Cursor;
use crate::{Diagnostic, DiagnosticCode, Formatted, StyleCode, StyleSet};

/// What an element does beyond its style (H3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// `span`, `font`: no effect, no diagnostic.
    Plain,
    /// An element outside the H3 table: no effect, `unsupported_element`.
    Unsupported,
    /// An inline element with a style of its own.
    Inline,
    /// A block element with no level effect (`p`, `div`, `h1`, …).
    Block,
    /// `ul` / `ol` with the list code its items get.
    List(StyleCode),
    /// `li`.
    Item,
    /// `blockquote`.
    Quote,
    /// `pre`.
    Pre,
    /// `br` (handled before an element is ever opened).
    Break,
}

impl Role {
    const fn is_block(self) -> bool {
        matches!(
            self,
            Role::Block | Role::List(_) | Role::Item | Role::Quote | Role::Pre
        )
    }
}

/// The four flag slots, in `StyleCode` order.
const FLAGS: [StyleCode; 4] = [
    StyleCode::Bold,
    StyleCode::Italic,
    StyleCode::Underline,
    StyleCode::Strike,
];
const B: usize = 0;
const I: usize = 1;
const U: usize = 2;
const S: usize = 3;

/// An element's opinion on each style slot: H3 effect, then `color` on `font`, then the
/// `style` declarations in order, the last one winning (H4). `Some(false)` removes a flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Effect {
    flags: [Option<bool>; 4],
    size: Option<StyleCode>,
    colour: Option<StyleCode>,
}

impl Effect {
    fn flag(mut self, k: usize) -> Self {
        if let Some(f) = self.flags.get_mut(k) {
            *f = Some(true);
        }
        self
    }
    fn set_flag(&mut self, k: usize, on: bool) {
        if let Some(f) = self.flags.get_mut(k) {
            *f = Some(on);
        }
    }
    fn size(mut self, c: StyleCode) -> Self {
        self.size = Some(c);
        self
    }
    fn colour(mut self, c: StyleCode) -> Self {
        self.colour = Some(c);
        self
    }
}

/// The H3 table: role and own effect of an element name (already ASCII-lowercased).
fn classify(name: &str) -> (Role, Effect) {
    let e = Effect::default();
    match name {
        "b" | "strong" => (Role::Inline, e.flag(B)),
        "i" | "em" => (Role::Inline, e.flag(I)),
        "u" | "ins" | "underline" => (Role::Inline, e.flag(U)),
        "s" | "strike" | "del" => (Role::Inline, e.flag(S)),
        "h1" | "h2" | "h3" | "h4" => (Role::Block, e.flag(B).size(StyleCode::Large)),
        "h5" | "h6" => (Role::Block, e.flag(B)),
        "big" => (Role::Inline, e.size(StyleCode::Large)),
        "small" => (Role::Inline, e.size(StyleCode::Small)),
        "red" => (Role::Inline, e.colour(StyleCode::Red)),
        "orange" => (Role::Inline, e.colour(StyleCode::Orange)),
        "yellow" => (Role::Inline, e.colour(StyleCode::Yellow)),
        "green" => (Role::Inline, e.colour(StyleCode::Green)),
        "ul" => (Role::List(StyleCode::Bullet), e),
        "ol" => (Role::List(StyleCode::Ordered), e),
        "li" => (Role::Item, e),
        "blockquote" => (Role::Quote, e),
        "pre" => (Role::Pre, e),
        "p" | "div" | "hr" | "section" | "article" | "header" | "footer" | "table" | "tr" => {
            (Role::Block, e)
        }
        "br" => (Role::Break, e),
        "span" | "font" => (Role::Plain, e),
        _ => (Role::Unsupported, e),
    }
}

/// WHATWG's void elements (H5): their start tag opens nothing.
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Elements whose end tag HTML lets you omit (WHATWG "optional tags"): left open at the end
/// of the message they get no `unclosed_tag` diagnostic.
fn end_tag_optional(name: &str) -> bool {
    matches!(
        name,
        "li" | "p"
            | "dt"
            | "dd"
            | "rt"
            | "rp"
            | "optgroup"
            | "option"
            | "colgroup"
            | "caption"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "html"
            | "head"
            | "body"
    )
}

/// One opened element (an arena entry; `closed` is its tombstone).
#[derive(Debug)]
struct Elem {
    /// Index into `Semantics::names`.
    name: usize,
    role: Role,
    closed: bool,
    /// Byte span of the start tag, for `unclosed_tag`.
    span: (usize, usize),
}

/// A piece of the pending run of whitespace and tags (H6).
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// A block element's start or end tag.
    Boundary,
    /// Whitespace, a byte range of `Semantics::pending_text`, with the style it arrived with;
    /// `droppable` when typed literally outside `pre`.
    Space {
        start: usize,
        end: usize,
        style: StyleSet,
        droppable: bool,
    },
}

/// Writes into the builder, keeping line codes off line breaks (1.3). A `\r` is held back
/// one character: only a `\r` right before `\n` is part of a line break.
#[derive(Debug)]
struct Out {
    b: FormattedBuilder,
    cr: Option<StyleSet>,
}

impl Out {
    fn is_empty(&self) -> bool {
        self.cr.is_none() && self.b.text().is_empty()
    }

    fn ends_with_newline(&self) -> bool {
        self.cr.is_none() && self.b.text().ends_with('\n')
    }

    /// Emits the held-back `\r`, as a line break when `before_lf`.
    fn flush_cr(&mut self, before_lf: bool) {
        if let Some(st) = self.cr.take() {
            let st = if before_lf {
                st.without_line_codes()
            } else {
                st
            };
            self.b.push_char('\r', st);
        }
    }

    fn push(&mut self, s: &str, style: StyleSet) {
        let has_line = style.without_line_codes() != style;
        if !has_line && self.cr.is_none() && !s.contains('\r') {
            self.b.push_str(s, style);
            return;
        }
        let mut rest = s;
        while !rest.is_empty() {
            let n = rest.find(['\r', '\n']).unwrap_or(rest.len());
            let (plain, tail) = rest.split_at(n);
            if !plain.is_empty() {
                self.flush_cr(false);
                self.b.push_str(plain, style);
            }
            let mut chars = tail.chars();
            match chars.next() {
                Some('\n') => {
                    self.flush_cr(true);
                    self.b.push_char('\n', style.without_line_codes());
                }
                Some(_) => {
                    self.flush_cr(false);
                    self.cr = Some(style);
                }
                None => {}
            }
            rest = chars.as_str();
        }
    }
}

/// The H6 whitespace characters.
const fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{c}')
}

/// The HTML-mode semantics (spec section 3) as a [`TokenSink`].
#[derive(Debug)]
pub(crate) struct Semantics<'a> {
    input: &'a str,
    out: Out,
    elems: Vec<Elem>,
    /// Interned tag names and, per name, the stack of ids of elements of that name.
    name_ids: HashMap<String, usize>,
    names: Vec<String>,
    by_name: Vec<Vec<usize>>,
    /// Open block elements, ids increasing.
    blocks: Vec<usize>,
    /// Open `ul`/`ol` with their item code (lazy).
    lists: Vec<(usize, StyleCode)>,
    /// Style slots (lazy stacks of `(element id, value)`).
    flags: [Vec<(usize, bool)>; 4],
    size: Vec<(usize, StyleCode)>,
    colour: Vec<(usize, StyleCode)>,
    item: Vec<(usize, StyleCode)>,
    list_depth: usize,
    quote_depth: usize,
    pre_depth: usize,
    /// Current inline codes and line codes (refreshed after every tag).
    inline: StyleSet,
    line: StyleSet,
    /// The pending run of H6.
    pending: Vec<Pending>,
    pending_text: String,
    pending_boundary: bool,
    /// H7: a `br` was the last content and no text came since.
    after_br: bool,
    /// `(byte start, byte end, code, message)`, converted at `finish`.
    diags: Vec<(usize, usize, DiagnosticCode, String)>,
}

/// The top live entry of a lazy slot stack, popping tombstones.
fn top_live<T: Copy>(stack: &mut Vec<(usize, T)>, elems: &[Elem]) -> Option<T> {
    while let Some(&(id, v)) = stack.last() {
        if elems.get(id).is_some_and(|e| !e.closed) {
            return Some(v);
        }
        stack.pop();
    }
    None
}

impl<'a> Semantics<'a> {
    pub(crate) fn new(input: &'a str) -> Self {
        Semantics {
            input,
            out: Out {
                b: FormattedBuilder::with_capacity(input.len()),
                cr: None,
            },
            elems: Vec::new(),
            name_ids: HashMap::new(),
            names: Vec::new(),
            by_name: Vec::new(),
            blocks: Vec::new(),
            lists: Vec::new(),
            flags: Default::default(),
            size: Vec::new(),
            colour: Vec::new(),
            item: Vec::new(),
            list_depth: 0,
            quote_depth: 0,
            pre_depth: 0,
            inline: StyleSet::EMPTY,
            line: StyleSet::EMPTY,
            pending: Vec::new(),
            pending_text: String::new(),
            pending_boundary: false,
            after_br: false,
            diags: Vec::new(),
        }
    }

    /// Ends the input: resolves the last run (no line break at the end, H6), closes what is
    /// still open (H5) and converts diagnostics to UTF-16 positions of the input (L3).
    ///
    /// `unclosed_tag` is reported for every element still open at the end except those
    /// whose end tag HTML lets you omit (`li`, `p`, `tr`, …, see [`end_tag_optional`]).
    pub(crate) fn finish(mut self) -> (Formatted, Vec<Diagnostic>) {
        self.resolve(true);
        self.out.flush_cr(false);
        for e in &self.elems {
            if e.closed {
                continue;
            }
            let name = self.names.get(e.name).map_or("", String::as_str);
            if !end_tag_optional(name) {
                self.diags.push((
                    e.span.0,
                    e.span.1,
                    DiagnosticCode::UnclosedTag,
                    format!("<{name}> is never closed; it was closed at the end of the message"),
                ));
            }
        }
        let mut diags = std::mem::take(&mut self.diags);
        diags.sort_by_key(|d| (d.0, d.1));
        // Every offset asked for, in increasing order, through one forward cursor.
        let mut offsets: Vec<usize> = diags.iter().flat_map(|d| [d.0, d.1.max(d.0)]).collect();
        offsets.sort_unstable();
        offsets.dedup();
        let mut cursor = Utf16Cursor::new(self.input);
        let input = self.input;
        // A span from a faulty tokenizer may end inside a character: round it down (L2).
        let boundary = |mut o: usize| {
            o = o.min(input.len());
            while o > 0 && !input.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        let units: Vec<usize> = offsets
            .iter()
            .map(|&o| cursor.unit_at(boundary(o)))
            .collect();
        let unit_of = |byte: usize| {
            offsets
                .binary_search(&byte)
                .ok()
                .and_then(|k| units.get(k).copied())
                .unwrap_or(0)
        };
        let diagnostics = diags
            .into_iter()
            .map(|(s, e, code, message)| {
                let start = unit_of(s);
                Diagnostic {
                    code,
                    start,
                    len: unit_of(e.max(s)).saturating_sub(start),
                    message,
                }
            })
            .collect();
        (self.out.b.finish(), diagnostics)
    }

    fn diag(&mut self, span: (usize, usize), code: DiagnosticCode, message: String) {
        self.diags.push((span.0, span.1, code, message));
    }

    /// The full style of text here: inline codes plus line codes (H8).
    fn style(&self) -> StyleSet {
        self.inline.with(self.line)
    }

    /// Recomputes the current codes from the slot stacks and counters.
    fn refresh(&mut self) {
        let mut set = StyleSet::EMPTY;
        for (stack, code) in self.flags.iter_mut().zip(FLAGS) {
            if top_live(stack, &self.elems) == Some(true) {
                set.insert(code);
            }
        }
        if let Some(c) = top_live(&mut self.size, &self.elems) {
            set.insert(c);
        }
        if let Some(c) = top_live(&mut self.colour, &self.elems) {
            set.insert(c);
        }
        self.inline = set;
        let mut line = StyleSet::EMPTY;
        if let Some(c) = top_live(&mut self.item, &self.elems) {
            line.insert(c);
        }
        let level = self.list_depth.saturating_sub(1) + self.quote_depth;
        if let Some(c) = StyleCode::indent(level) {
            line.insert(c);
        }
        self.line = line;
    }

    // ---- H6 runs -------------------------------------------------------------------------

    fn boundary(&mut self) {
        self.pending_boundary = true;
        if !matches!(self.pending.last(), Some(Pending::Boundary)) {
            self.pending.push(Pending::Boundary);
        }
    }

    fn space(&mut self, s: &str, droppable: bool) {
        let start = self.pending_text.len();
        self.pending_text.push_str(s);
        self.pending.push(Pending::Space {
            start,
            end: self.pending_text.len(),
            style: self.style(),
            droppable,
        });
    }

    /// H6 line break before content that follows a boundary.
    fn newline_before_content(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with_newline() {
            self.out.flush_cr(true);
            self.out.b.push_char('\n', StyleSet::EMPTY);
        }
    }

    /// Ends the pending run: content follows (`at_end == false`) or the input ends.
    fn resolve(&mut self, at_end: bool) {
        if self.pending.is_empty() {
            return;
        }
        let drop_typed = self.pending_boundary;
        let mut need_newline = false;
        let pending = std::mem::take(&mut self.pending);
        for p in &pending {
            match *p {
                Pending::Boundary => need_newline = true,
                Pending::Space {
                    start,
                    end,
                    style,
                    droppable,
                } => {
                    if droppable && drop_typed {
                        continue;
                    }
                    if need_newline {
                        self.newline_before_content();
                        need_newline = false;
                    }
                    let text = self.pending_text.get(start..end).unwrap_or("");
                    self.out.push(text, style);
                }
            }
        }
        if need_newline && !at_end {
            self.newline_before_content();
        }
        self.pending = pending;
        self.pending.clear();
        self.pending_text.clear();
        self.pending_boundary = false;
    }

    /// Text from the source: whitespace joins the pending run, anything else is content.
    fn feed(&mut self, s: &str, typed: bool) {
        let droppable = typed && self.pre_depth == 0;
        // Whitespace between two non-whitespace characters of one chunk can never reach a
        // boundary (H6: the walk stops at text), so only the chunk's edges go through the
        // pending run and the middle is content as a whole: no per-word work.
        let Some(first) = s.find(|c: char| !is_space(c)) else {
            if !s.is_empty() {
                self.space(s, droppable);
            }
            return;
        };
        let last = s
            .char_indices()
            .rev()
            .find(|&(_, c)| !is_space(c))
            .map_or(s.len(), |(k, c)| k + c.len_utf8());
        if let Some(ws) = s.get(..first).filter(|w| !w.is_empty()) {
            self.space(ws, droppable);
        }
        if let Some(content) = s.get(first..last) {
            self.resolve(false);
            let style = self.style();
            self.out.push(content, style);
        }
        if let Some(ws) = s.get(last..).filter(|w| !w.is_empty()) {
            self.space(ws, droppable);
        }
    }

    /// H7: `br` (or `</br>`) is content and a line break with the ancestors' inline codes.
    fn line_break(&mut self) {
        self.resolve(false);
        self.out.flush_cr(true);
        self.out.b.push_char('\n', self.inline);
        self.after_br = true;
    }

    // ---- H5 elements ---------------------------------------------------------------------

    fn name_id(&mut self, name: &str) -> usize {
        if let Some(&id) = self.name_ids.get(name) {
            return id;
        }
        let id = self.names.len();
        self.names.push(name.to_owned());
        self.by_name.push(Vec::new());
        self.name_ids.insert(name.to_owned(), id);
        id
    }

    /// Tombstones one element and updates the counters.
    fn mark_closed(&mut self, id: usize) {
        let Some(e) = self.elems.get_mut(id) else {
            return;
        };
        if e.closed {
            return;
        }
        e.closed = true;
        match e.role {
            Role::List(_) => self.list_depth = self.list_depth.saturating_sub(1),
            Role::Quote => self.quote_depth = self.quote_depth.saturating_sub(1),
            Role::Pre => self.pre_depth = self.pre_depth.saturating_sub(1),
            _ => {}
        }
    }

    /// Closes element `id` and every block element opened after it (H5).
    fn close(&mut self, id: usize) {
        while let Some(&top) = self.blocks.last() {
            if top < id {
                break;
            }
            self.blocks.pop();
            self.mark_closed(top);
        }
        self.mark_closed(id);
    }

    /// The nearest open element named `nid`, popping tombstones off its stack.
    fn nearest_open(&mut self, nid: usize) -> Option<usize> {
        let stack = self.by_name.get_mut(nid)?;
        while let Some(&id) = stack.last() {
            if self.elems.get(id).is_some_and(|e| !e.closed) {
                return Some(id);
            }
            stack.pop();
        }
        None
    }

    fn open(&mut self, tag: &StartTag<'_>, role: Role, mut effect: Effect) {
        let nid = self.name_id(tag.name);
        // H5: an `li` first closes an open `li` of the same list. The top live `li` is the
        // only candidate: any `li` of the current list was opened after the list, and any
        // `li` opened after it belongs to a list that is still open, a nearer one.
        let list = top_live(&mut self.lists, &self.elems);
        let list_id = self.lists.last().map(|&(id, _)| id);
        if role == Role::Item {
            if let Some(prev) = self.nearest_open(nid) {
                let same_list = match list_id {
                    Some(l) => prev > l,
                    None => true,
                };
                if same_list {
                    self.close(prev);
                }
            }
        }
        let id = self.elems.len();
        self.elems.push(Elem {
            name: nid,
            role,
            closed: false,
            span: tag.span,
        });
        if let Some(stack) = self.by_name.get_mut(nid) {
            stack.push(id);
        }
        if role.is_block() {
            self.blocks.push(id);
        }
        match role {
            Role::List(code) => {
                self.list_depth += 1;
                self.lists.push((id, code));
            }
            Role::Quote => self.quote_depth += 1,
            Role::Pre => self.pre_depth += 1,
            Role::Item => {
                let code = list.unwrap_or(StyleCode::Bullet);
                self.item.push((id, code));
            }
            _ => {}
        }
        // H4: `color` on `font`, then `style`, after the element's own effect.
        if tag.name == "font" {
            if let Some(c) = tag
                .attrs
                .iter()
                .find(|a| a.name == "color")
                .and_then(|a| parse_colour(&a.value))
            {
                effect.colour = Some(c);
            }
        }
        if let Some(a) = tag.attrs.iter().find(|a| a.name == "style") {
            apply_style(&a.value, &mut effect);
        }
        for (k, stack) in self.flags.iter_mut().enumerate() {
            if let Some(Some(on)) = effect.flags.get(k) {
                stack.push((id, *on));
            }
        }
        if let Some(c) = effect.size {
            self.size.push((id, c));
        }
        if let Some(c) = effect.colour {
            self.colour.push((id, c));
        }
    }
}

impl TokenSink for Semantics<'_> {
    fn text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let mut text = text;
        if self.after_br {
            // H7: the first typed line break after a `br`, with only tags between, goes.
            self.after_br = false;
            text = text.strip_prefix('\n').unwrap_or(text);
        }
        self.feed(text, true);
    }

    fn char_ref(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.after_br = false;
        self.feed(text, false);
    }

    fn start_tag(&mut self, tag: &StartTag<'_>) {
        let (role, effect) = classify(tag.name);
        if role == Role::Break {
            self.line_break();
            return;
        }
        if role == Role::Unsupported {
            self.diag(
                tag.span,
                DiagnosticCode::UnsupportedElement,
                format!("<{}> is not supported; its content was kept", tag.name),
            );
        }
        if role.is_block() {
            self.boundary();
        }
        if is_void(tag.name) {
            return;
        }
        self.open(tag, role, effect);
        self.refresh();
    }

    fn end_tag(&mut self, name: &str, span: (usize, usize)) {
        if name == "br" {
            self.line_break();
            return;
        }
        let found = match self.name_ids.get(name) {
            Some(&nid) => self.nearest_open(nid),
            None => None,
        };
        let Some(id) = found else {
            self.diag(
                span,
                DiagnosticCode::UnmatchedClosingTag,
                format!("</{name}> closes no open element and was ignored"),
            );
            return;
        };
        let block = self.elems.get(id).is_some_and(|e| e.role.is_block());
        self.close(id);
        if block {
            self.boundary();
        }
        self.refresh();
    }
}

// ---- H4 inline CSS -----------------------------------------------------------------------

/// CSS whitespace.
const fn is_css_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}')
}

/// Removes `/* … */` comments (an unterminated one runs to the end), as H4 says: first.
fn strip_comments(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains("/*") {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find("/*") {
        let (before, after) = rest.split_at(k);
        out.push_str(before);
        let body = after.get(2..).unwrap_or("");
        rest = match body.find("*/") {
            Some(e) => body.get(e + 2..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Applies a `style` attribute's declarations in order onto `effect` (H4).
fn apply_style(style: &str, effect: &mut Effect) {
    let style = strip_comments(style);
    for decl in style.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim_matches(is_css_space);
        let value = value.trim_matches(is_css_space);
        let is = |p: &str| prop.eq_ignore_ascii_case(p);
        if is("font-weight") {
            if let Some(bold) = parse_weight(value) {
                effect.set_flag(B, bold);
            }
        } else if is("font-style") {
            if ["italic", "oblique"]
                .iter()
                .any(|k| value.eq_ignore_ascii_case(k))
            {
                effect.set_flag(I, true);
            } else if value.eq_ignore_ascii_case("normal") {
                effect.set_flag(I, false);
            }
        } else if is("text-decoration") || is("text-decoration-line") {
            for word in value.split(is_css_space).filter(|w| !w.is_empty()) {
                if word.eq_ignore_ascii_case("underline") {
                    effect.set_flag(U, true);
                } else if word.eq_ignore_ascii_case("line-through") {
                    effect.set_flag(S, true);
                } else if word.eq_ignore_ascii_case("none") {
                    effect.set_flag(U, false);
                    effect.set_flag(S, false);
                }
            }
        } else if is("font-size") {
            if let Some(c) = parse_font_size(value) {
                effect.size = Some(c);
            }
        } else if is("color") {
            if let Some(c) = parse_colour(value) {
                effect.colour = Some(c);
            }
        }
    }
}

/// 10^9: numbers are compared in billionths.
const SCALE: u128 = 1_000_000_000;

/// A non-negative decimal (`12`, `10.5`, `.5`) in billionths, saturating far above any
/// threshold. Truncating past nine decimals keeps every comparison with the thresholds
/// used here exact, as those have at most three decimals.
fn parse_decimal(s: &str) -> Option<u128> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    if int.is_empty() && frac.is_none() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: u128 = 0;
    for b in int.bytes() {
        value = (value * 10 + u128::from(b - b'0')).min(1_000_000_000_000);
    }
    value *= SCALE;
    if let Some(frac) = frac {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut unit = SCALE;
        for b in frac.bytes().take(9) {
            unit /= 10;
            value += u128::from(b - b'0') * unit;
        }
    }
    Some(value)
}

/// `font-weight`: `Some(true)` adds `b`, `Some(false)` removes it, `None` is ignored.
fn parse_weight(v: &str) -> Option<bool> {
    let kw = |k: &str| v.eq_ignore_ascii_case(k);
    if kw("bold") || kw("bolder") {
        Some(true)
    } else if kw("normal") || kw("lighter") {
        Some(false)
    } else {
        parse_decimal(v).map(|n| n >= 600 * SCALE)
    }
}

/// `font-size`: px or pt to the nearest of 13, 15, 18, 20 (ties to the larger), or a keyword.
fn parse_font_size(v: &str) -> Option<StyleCode> {
    const KEYWORDS: [(&str, StyleCode); 9] = [
        ("x-small", StyleCode::Small),
        ("small", StyleCode::Small),
        ("smaller", StyleCode::Small),
        ("medium", StyleCode::Normal),
        ("large", StyleCode::Large),
        ("larger", StyleCode::Large),
        ("x-large", StyleCode::VeryLarge),
        ("xx-large", StyleCode::VeryLarge),
        ("xxx-large", StyleCode::VeryLarge),
    ];
    if v.is_empty() {
        return None;
    }
    if let Some(&(_, c)) = KEYWORDS.iter().find(|(k, _)| v.eq_ignore_ascii_case(k)) {
        return Some(c);
    }
    let split = v.len().checked_sub(2)?;
    let (num, unit) = (v.get(..split)?, v.get(split..)?);
    let n = parse_decimal(num)?;
    // Compare m·n with the midpoints 14, 16.5, 19 px, scaled by the same factor:
    // px: 2n against 28, 33, 38; pt (n·4/3 px): 8n against 84, 99, 114.
    let (m, mids) = if unit.eq_ignore_ascii_case("px") {
        (2, [28, 33, 38])
    } else if unit.eq_ignore_ascii_case("pt") {
        (8, [84, 99, 114])
    } else {
        return None;
    };
    let x = n * m;
    let [a, b, c] = mids.map(|t: u128| t * SCALE);
    Some(if x < a {
        StyleCode::Small
    } else if x < b {
        StyleCode::Normal
    } else if x < c {
        StyleCode::Large
    } else {
        StyleCode::VeryLarge
    })
}

/// The colour rule of H4: the palette only, as `#rrggbb`, `rgb(r, g, b)` or a name.
fn parse_colour(v: &str) -> Option<StyleCode> {
    const PALETTE: [(StyleCode, [u8; 3]); 5] = [
        (StyleCode::DefaultColour, [0x05, 0x0a, 0x19]),
        (StyleCode::Green, [0x15, 0xa8, 0x5f]),
        (StyleCode::Yellow, [0xf7, 0xb5, 0x03]),
        (StyleCode::Orange, [0xf2, 0x78, 0x06]),
        (StyleCode::Red, [0xdb, 0x34, 0x2e]),
    ];
    let v = v.trim_matches(is_css_space);
    let rgb: [u8; 3] = if let Some(hex) = v.strip_prefix('#') {
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |k: usize| {
            hex.get(k..k + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        };
        [byte(0)?, byte(2)?, byte(4)?]
    } else if v.len() > 4 && v.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("rgb(")) {
        let inner = v.get(4..)?.strip_suffix(')')?;
        let mut rgb = [0u8; 3];
        let mut count = 0;
        for part in inner.split(',').map(|p| p.trim_matches(is_css_space)) {
            if part.is_empty() || part.len() > 8 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let n = part
                .parse::<u32>()
                .ok()
                .and_then(|n| u8::try_from(n).ok())?;
            *rgb.get_mut(count)? = n;
            count += 1;
        }
        if count != 3 {
            return None;
        }
        rgb
    } else {
        return [
            ("red", StyleCode::Red),
            ("orange", StyleCode::Orange),
            ("yellow", StyleCode::Yellow),
            ("green", StyleCode::Green),
        ]
        .iter()
        .find(|(n, _)| v.eq_ignore_ascii_case(n))
        .map(|&(_, c)| c);
    };
    PALETTE.iter().find(|(_, p)| *p == rgb).map(|&(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::token::Attribute;
    use serde_json::Value;

    // ---- a test-only, simplified tokenizer ------------------------------------------------

    enum Tok {
        Start(String, Vec<Attribute>, bool),
        End(String),
        Nothing,
    }

    /// `&amp; &lt; &gt; &quot; &apos; &nbsp; &copy;` (the legacy ones also without `;`),
    /// `&#NN;` and `&#xHH;` at `s[i..]` (which starts with `&`).
    fn char_ref_at(s: &str, i: usize) -> Option<(usize, String)> {
        let rest = &s[i + 1..];
        if let Some(num) = rest.strip_prefix('#') {
            let (hex, digits) = match num.strip_prefix(['x', 'X']) {
                Some(h) => (true, h),
                None => (false, num),
            };
            let n = digits
                .find(|c: char| {
                    !(if hex {
                        c.is_ascii_hexdigit()
                    } else {
                        c.is_ascii_digit()
                    })
                })
                .unwrap_or(digits.len());
            if n == 0 {
                return None;
            }
            let mut v: u32 = 0;
            for c in digits[..n].chars() {
                v = v
                    .saturating_mul(if hex { 16 } else { 10 })
                    .saturating_add(c.to_digit(16).unwrap_or(0));
            }
            let c = match v {
                0 => '\u{FFFD}',
                _ => char::from_u32(v).unwrap_or('\u{FFFD}'),
            };
            let semi = usize::from(digits[n..].starts_with(';'));
            let end = i + 1 + (rest.len() - digits.len()) + n + semi;
            return Some((end, c.to_string()));
        }
        const NAMED: [(&str, &str); 13] = [
            ("amp;", "&"),
            ("lt;", "<"),
            ("gt;", ">"),
            ("quot;", "\""),
            ("apos;", "'"),
            ("nbsp;", "\u{a0}"),
            ("copy;", "\u{a9}"),
            ("amp", "&"),
            ("lt", "<"),
            ("gt", ">"),
            ("quot", "\""),
            ("nbsp", "\u{a0}"),
            ("copy", "\u{a9}"),
        ];
        NAMED
            .iter()
            .find(|(n, _)| rest.starts_with(n))
            .map(|(n, v)| (i + 1 + n.len(), (*v).to_owned()))
    }

    fn decode(s: &str) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < s.len() {
            if s.as_bytes()[i] == b'&' {
                if let Some((end, v)) = char_ref_at(s, i) {
                    out.push_str(&v);
                    i = end;
                    continue;
                }
            }
            let c = s[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
        out
    }

    fn is_ws(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\x0c')
    }

    /// A tag, comment or bogus comment at `s[i..]` (which starts with `<`).
    fn tag_at(s: &str, i: usize) -> Option<(usize, Tok)> {
        let b = s.as_bytes();
        let rest = &s[i + 1..];
        let to_gt = |from: usize| s[from..].find('>').map_or(s.len(), |k| from + k + 1);
        if rest.starts_with("!--") {
            let end = s[i + 4..].find("-->").map_or(s.len(), |k| i + 4 + k + 3);
            return Some((end, Tok::Nothing));
        }
        if rest.starts_with('!') || rest.starts_with('?') {
            return Some((to_gt(i + 1), Tok::Nothing));
        }
        let (end_tag, mut j) = if rest.starts_with('/') {
            (true, i + 2)
        } else {
            (false, i + 1)
        };
        match b.get(j) {
            Some(c) if c.is_ascii_alphabetic() => {}
            Some(b'>') if end_tag => return Some((j + 1, Tok::Nothing)),
            Some(_) if end_tag => return Some((to_gt(j), Tok::Nothing)),
            None if end_tag => return None,
            _ => return None,
        }
        let name_start = j;
        while j < b.len() && !is_ws(b[j]) && b[j] != b'/' && b[j] != b'>' {
            j += 1;
        }
        let name = s[name_start..j].to_ascii_lowercase();
        if end_tag {
            return Some(match s[j..].find('>') {
                Some(k) => (j + k + 1, Tok::End(name)),
                None => (s.len(), Tok::Nothing),
            });
        }
        let mut attrs: Vec<Attribute> = Vec::new();
        let mut self_closing = false;
        loop {
            while j < b.len() && is_ws(b[j]) {
                j += 1;
            }
            match b.get(j) {
                None => return Some((s.len(), Tok::Nothing)),
                Some(b'>') => return Some((j + 1, Tok::Start(name, attrs, self_closing))),
                Some(b'/') => {
                    j += 1;
                    self_closing = b.get(j) == Some(&b'>');
                    continue;
                }
                _ => {}
            }
            self_closing = false;
            let a = j;
            j += 1;
            while j < b.len() && !is_ws(b[j]) && !matches!(b[j], b'/' | b'>' | b'=') {
                j += 1;
            }
            let aname = s[a..j].to_ascii_lowercase();
            while j < b.len() && is_ws(b[j]) {
                j += 1;
            }
            let mut value = String::new();
            if b.get(j) == Some(&b'=') {
                j += 1;
                while j < b.len() && is_ws(b[j]) {
                    j += 1;
                }
                match b.get(j) {
                    Some(&q @ (b'"' | b'\'')) => {
                        let v0 = j + 1;
                        let Some(k) = s[v0..].find(q as char) else {
                            return Some((s.len(), Tok::Nothing));
                        };
                        value = decode(&s[v0..v0 + k]);
                        j = v0 + k + 1;
                    }
                    _ => {
                        let v0 = j;
                        while j < b.len() && !is_ws(b[j]) && b[j] != b'>' {
                            j += 1;
                        }
                        value = decode(&s[v0..j]);
                    }
                }
            }
            if !attrs.iter().any(|x| x.name == aname) {
                attrs.push(Attribute { name: aname, value });
            }
        }
    }

    fn tokenize(s: &str, sink: &mut impl TokenSink) {
        let b = s.as_bytes();
        let (mut i, mut t) = (0, 0);
        while i < b.len() {
            let found = match b[i] {
                b'<' => tag_at(s, i).map(|(end, tok)| (end, Some(tok), None)),
                b'&' => char_ref_at(s, i).map(|(end, v)| (end, None, Some(v))),
                _ => None,
            };
            let Some((end, tok, reference)) = found else {
                i += 1;
                continue;
            };
            if t < i {
                sink.text(&s[t..i]);
            }
            match tok {
                Some(Tok::Start(name, attrs, self_closing)) => sink.start_tag(&StartTag {
                    name: &name,
                    attrs: &attrs,
                    self_closing,
                    span: (i, end),
                }),
                Some(Tok::End(name)) => sink.end_tag(&name, (i, end)),
                Some(Tok::Nothing) | None => {}
            }
            if let Some(v) = reference {
                sink.char_ref(&v);
            }
            i = end;
            t = end;
        }
        if t < s.len() {
            sink.text(&s[t..]);
        }
    }

    fn parse(input: &str) -> (Formatted, Vec<Diagnostic>) {
        let src = input.replace("\r\n", "\n").replace('\r', "\n");
        let mut sem = Semantics::new(&src);
        tokenize(&src, &mut sem);
        sem.finish()
    }

    // ---- data-driven vectors -------------------------------------------------------------

    type Runs = Vec<(u64, u64, Vec<String>)>;

    fn runs_of(f: &Formatted) -> Runs {
        f.text_styles
            .iter()
            .map(|r| {
                let st = r.st.iter().map(|c| c.as_str().to_owned()).collect();
                (r.start as u64, r.len as u64, st)
            })
            .collect()
    }

    fn expected_runs(v: &Value) -> Runs {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        let st = r["st"]
                            .as_array()
                            .map(|s| {
                                s.iter()
                                    .filter_map(|c| c.as_str().map(str::to_owned))
                                    .collect()
                            })
                            .unwrap_or_default();
                        (r["start"].as_u64().unwrap(), r["len"].as_u64().unwrap(), st)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Runs every `parse_mode: "html"` line of a JSONL file; returns (passed, failures).
    fn run_jsonl(name: &str, data: &str) -> (usize, Vec<String>) {
        let mut passed = 0;
        let mut failures = Vec::new();
        for (k, line) in data.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}:{}: bad JSON: {e}", k + 1));
            if v["input"]["parse_mode"].as_str() != Some("html") {
                continue;
            }
            let id = v["id"].as_str().unwrap_or("?").to_owned();
            let input = v["input"]["text"].as_str().unwrap();
            let (got, _) = parse(input);
            if let Some(err) = v["expect_error"].as_str() {
                // Only R4 concerns the semantics: the formatted text is empty.
                if err == "empty_after_formatting" && got.text.is_empty() {
                    passed += 1;
                } else if err == "empty_after_formatting" {
                    failures.push(format!(
                        "{name} {id}: expected empty text, got {:?}",
                        got.text
                    ));
                }
                continue;
            }
            let want_text = v["expect"]["text"].as_str().unwrap();
            let want_runs = expected_runs(&v["expect"]["text_styles"]);
            if got.text == want_text && runs_of(&got) == want_runs {
                passed += 1;
            } else {
                failures.push(format!(
                    "{name} {id} ({}): input {input:?}\n   want {want_text:?} {want_runs:?}\n   got  {:?} {:?}",
                    v["rule"],
                    got.text,
                    runs_of(&got)
                ));
            }
        }
        (passed, failures)
    }

    fn check_file(name: &str, data: &str, at_least: usize) {
        let (passed, failures) = run_jsonl(name, data);
        assert!(
            failures.is_empty(),
            "{} of {name} failed:\n{}",
            failures.len(),
            failures.join("\n")
        );
        assert!(passed >= at_least, "{name}: only {passed} vectors ran");
    }

    #[test]
    fn html_semantics_cases() {
        check_file(
            "html_semantics.jsonl",
            include_str!("../../tests/data/html_semantics.jsonl"),
            100,
        );
    }

    #[test]
    fn html_conformance_vectors() {
        check_file(
            "conformance.jsonl",
            include_str!("../../tests/data/conformance.jsonl"),
            82,
        );
    }

    #[test]
    fn html_tdlib_suite() {
        check_file(
            "tdlib-html.jsonl",
            include_str!("../../tests/data/tdlib-html.jsonl"),
            26,
        );
    }

    // ---- L3 diagnostics ------------------------------------------------------------------

    fn diags(input: &str) -> Vec<(&'static str, usize, usize)> {
        parse(input)
            .1
            .iter()
            .map(|d| (d.code.as_str(), d.start, d.len))
            .collect()
    }

    #[test]
    fn html_diagnostics_unmatched_closing_tag() {
        assert_eq!(diags("<i>a</i></b>"), [("unmatched_closing_tag", 8, 4)]);
        assert_eq!(
            diags("a</p>b</li>"),
            [
                ("unmatched_closing_tag", 1, 4),
                ("unmatched_closing_tag", 6, 5)
            ]
        );
        // the second </b> finds no open b
        assert_eq!(diags("<b>a</b></b>"), [("unmatched_closing_tag", 8, 4)]);
        // </br> is a br, never unmatched
        assert_eq!(diags("a</br>b"), []);
        // a void element never opens, so its end tag is unmatched
        assert_eq!(diags("<hr></hr>"), [("unmatched_closing_tag", 4, 5)]);
    }

    #[test]
    fn html_diagnostics_unclosed_tag_in_utf16_units() {
        assert_eq!(diags("😀<b>x"), [("unclosed_tag", 2, 3)]);
        assert_eq!(
            diags("<b>x</i>"),
            [("unclosed_tag", 0, 3), ("unmatched_closing_tag", 4, 4)]
        );
        assert_eq!(
            diags("<div style=\"color:red\">é"),
            [("unclosed_tag", 0, 23)]
        );
        // li, p and tr may omit their end tag in HTML: no diagnostic for them
        assert_eq!(diags("<ul><li>a<li><p>b"), [("unclosed_tag", 0, 4)]);
        assert_eq!(diags("<table><tr>x"), [("unclosed_tag", 0, 7)]);
        // elements closed by H5 before the end are not reported
        assert_eq!(diags("<b><p>x</b>"), []);
        assert_eq!(diags("<b><i>x</b>y"), [("unclosed_tag", 3, 3)]);
    }

    #[test]
    fn html_diagnostics_unsupported_element() {
        assert_eq!(diags("<foo>x</foo>"), [("unsupported_element", 0, 5)]);
        assert_eq!(diags("a<img src=x>b"), [("unsupported_element", 1, 11)]);
        assert_eq!(
            diags("<x>y"),
            [("unsupported_element", 0, 3), ("unclosed_tag", 0, 3)]
        );
        assert_eq!(diags("<span>a</span><font color=red>b</font>"), []);
        let known =
            "<b></b><strong></strong><i></i><em></em><u></u><ins></ins><s></s><strike></strike>\
            <del></del><h1></h1><h2></h2><h3></h3><h4></h4><h5></h5><h6></h6><big></big>\
            <small></small><red></red><orange></orange><yellow></yellow><green></green>\
            <underline></underline><ul></ul><ol></ol><li></li><blockquote></blockquote><p></p>\
            <div></div><pre></pre><hr><section></section><article></article><header></header>\
            <footer></footer><table></table><tr></tr><br>";
        assert_eq!(diags(known), []);
    }

    #[test]
    fn html_diagnostic_spans_inside_a_character_round_down() {
        let input = "\u{e9}\u{1F600}x";
        let mut sem = Semantics::new(input);
        sem.end_tag("b", (1, 4));
        sem.end_tag("i", (3, 99));
        let (_, d) = sem.finish();
        let got: Vec<_> = d.iter().map(|x| (x.start, x.len)).collect();
        assert_eq!(got, [(0, 1), (1, 3)]);
    }

    #[test]
    fn html_no_diagnostics_for_clean_input() {
        let (f, d) = parse("<b>a</b> <i>b</i><br><ul><li>c</li></ul>");
        assert_eq!(f.text, "a b\nc");
        assert!(d.is_empty());
    }

    // ---- L1 linear time, L2 no panic -----------------------------------------------------

    /// Drives `Semantics` directly (no tokenizer cost) with `n` copies of each piece.
    fn drive(pieces: &[(&str, usize)]) -> (Formatted, Vec<Diagnostic>) {
        let mut src = String::new();
        for (p, n) in pieces {
            for _ in 0..*n {
                src.push_str(p);
            }
        }
        parse(&src)
    }

    /// The adversarial shapes of L1, each at `n` repetitions.
    fn shapes(n: usize) -> Vec<Vec<(&'static str, usize)>> {
        vec![
            vec![("<b>", n), ("x", 1), ("</b>", n)],
            vec![("<b>", n), ("</i>", n)],
            vec![("<b>", n), ("<i>", n), ("</b>", n), ("x", 1)],
            vec![("<i><b>", n), ("</i>", n), ("x", 1)],
            vec![("<ul><li>", n), ("x", 1)],
            vec![("<li>x", n)],
            vec![("<div>", n), ("x", 1), ("</div>", n)],
            vec![("<div>", n), ("x", 1), ("</b>", n)],
            vec![("<b><p>", n), ("x", 1), ("</b>", n)],
            vec![("<b>", n), ("<p>", n), ("</b>", n), ("x", 1)],
            vec![("<p> ", n), ("x", 1)],
            vec![("<blockquote>\n", n), ("x", 1), ("</blockquote> ", n)],
            vec![("<span style=\"color:red;font-weight:bold\">", n), ("x", 1)],
            vec![("<b>", n), ("<br>", n), ("x\n", n)],
            vec![("<pre>", n), ("  ", n), ("</pre>", n)],
            vec![("<ol>", n), ("<li>", n), ("</ol>", n), ("x", 1)],
        ]
    }

    #[test]
    fn html_deep_nesting_is_fine() {
        let n = 100_000;
        let (f, _) = drive(&[("<b>", n), ("x", 1), ("</b>", n)]);
        assert_eq!((f.text.as_str(), f.text_styles.len()), ("x", 1));
        let (f, d) = drive(&[("<b>", n), ("<i>", n), ("</b>", n), ("x", 1)]);
        assert_eq!(
            f.text_styles[0]
                .st
                .iter()
                .map(StyleCode::as_str)
                .collect::<Vec<_>>(),
            ["i"]
        );
        assert_eq!(d.len(), n);
        let (f, _) = drive(&[("<ul><li>", n), ("x", 1)]);
        assert_eq!(
            f.text_styles[0]
                .st
                .iter()
                .map(StyleCode::as_str)
                .collect::<Vec<_>>(),
            ["lst_1", "ind_5"]
        );
        let (f, _) = drive(&[("<li>x", n)]);
        assert_eq!(f.text.len(), 2 * n - 1);
    }

    #[test]
    fn html_time_grows_linearly() {
        use std::time::{Duration, Instant};
        let time = |n: usize| {
            (0..2)
                .map(|_| {
                    let t = Instant::now();
                    for shape in shapes(n) {
                        drive(&shape);
                    }
                    t.elapsed()
                })
                .min()
                .unwrap_or_default()
        };
        let small = time(5_000);
        let large = time(40_000);
        // Linear: about 8x. Quadratic would be about 64x. Generous for shared machines.
        assert!(
            large < small * 24 + Duration::from_millis(200),
            "5k: {small:?}, 40k: {large:?}"
        );
    }

    /// A tiny deterministic generator (xorshift) for the no-panic sweep.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[(self.next() % xs.len() as u64) as usize]
        }
    }

    /// Checks canonical form (C1-C3, C6) and 1.3 (no line code on `\n`).
    fn assert_canonical(input: &str, f: &Formatted, d: &[Diagnostic]) {
        let units: Vec<u16> = f.text.encode_utf16().collect();
        let mut prev: Option<&crate::TextStyle> = None;
        for r in &f.text_styles {
            assert!(r.len >= 1 && !r.st.is_empty(), "{input:?}: {r:?}");
            assert!(r.end() <= units.len(), "{input:?}: {r:?}");
            if let Some(p) = prev {
                assert!(p.end() <= r.start, "{input:?}: overlap {p:?} {r:?}");
                assert!(
                    p.end() < r.start || p.st != r.st,
                    "{input:?}: unmerged {p:?} {r:?}"
                );
            }
            for u in &units[r.start..r.end()] {
                if *u == u16::from(b'\n') {
                    assert_eq!(
                        r.st,
                        r.st.without_line_codes(),
                        "{input:?}: line code on \\n"
                    );
                }
            }
            prev = Some(r);
        }
        let len = input.encode_utf16().count();
        for x in d {
            assert!(x.start + x.len <= len, "{input:?}: {x:?}");
        }
    }

    #[test]
    fn html_never_panics_on_token_sequences() {
        const NAMES: [&str; 20] = [
            "b",
            "i",
            "u",
            "s",
            "p",
            "li",
            "ul",
            "ol",
            "pre",
            "br",
            "blockquote",
            "h1",
            "h5",
            "font",
            "span",
            "x",
            "hr",
            "img",
            "div",
            "big",
        ];
        const STYLES: [&str; 12] = [
            "color:red",
            "font-weight:normal",
            "font-size:14px",
            "text-decoration:none",
            "font-style:italic;color:#db342e",
            "/*",
            "color:rgb(1,2",
            ":;:;",
            "font-size:99999999999999999999999999999999999.5pt",
            "font-weight:.",
            "color:#\u{e9}\u{e9}\u{e9}",
            "font-size:\u{e9}px",
        ];
        const TEXT: [&str; 10] = [
            " ",
            "\n",
            "a",
            "\u{1F600}",
            "\r",
            "\t",
            "  \n ",
            "x y",
            "\u{c}",
            "",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let input: String = (0..24).map(|_| rng.pick(&TEXT)).collect();
            let mut sem = Semantics::new(&input);
            for _ in 0..40 {
                let span = ((rng.next() % 40) as usize, (rng.next() % 40) as usize);
                match rng.next() % 5 {
                    0 => {
                        let attrs = [
                            Attribute {
                                name: "style".into(),
                                value: (rng.pick(&STYLES)).into(),
                            },
                            Attribute {
                                name: "color".into(),
                                value: (rng.pick(&STYLES)).into(),
                            },
                        ];
                        let k = (rng.next() % 3) as usize;
                        sem.start_tag(&StartTag {
                            name: rng.pick(&NAMES),
                            attrs: &attrs[..k.min(2)],
                            self_closing: rng.next() % 2 == 0,
                            span,
                        });
                    }
                    1 => sem.end_tag(rng.pick(&NAMES), span),
                    2 => sem.char_ref(rng.pick(&TEXT)),
                    _ => sem.text(rng.pick(&TEXT)),
                }
            }
            let (f, d) = sem.finish();
            assert_canonical(&input, &f, &d);
        }
    }

    #[test]
    fn html_never_panics_on_strings() {
        const BITS: [&str; 22] = [
            "<b>",
            "</b>",
            "<p>",
            "</p>",
            "<li>",
            "<ul>",
            "</ul>",
            "<br>",
            "</br>",
            "<pre>",
            "</pre>",
            " ",
            "\n",
            "\r\n",
            "&#10;",
            "&#32;",
            "a",
            "\u{e9}",
            "\u{1F600}",
            "<i>",
            "</i>",
            "<span style=\"color:red;font-size:20px\">",
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..3000 {
            let input: String = (0..30).map(|_| rng.pick(&BITS)).collect();
            let (f, d) = parse(&input);
            assert_canonical(&input, &f, &d);
        }
    }
}
