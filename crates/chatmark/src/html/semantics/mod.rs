//! HTML-mode semantics: reads the token stream into text plus runs, tree-less and in linear
//! time — nesting H5, block boundaries and whitespace H6, `br` H7, list and indent levels
//! H8, line codes 1.3, diagnostics L3 — over the element table H3 ([`elements`]) and the
//! inline CSS of H4 ([`css`]). Its tests are in `tests.rs` beside it.
//!
//! # Design (L1: linear for every input, no recursion)
//!
//! - Every start tag that opens an element gets an id in an arena of [`Elem`]s; closing an
//!   element only sets its `closed` flag (a tombstone).
//! - Per tag name, a stack of the ids of elements of that name: "the nearest open element of
//!   that name" (H5) is its top live entry, found by lazily popping tombstones.
//! - A stack of open block elements: "block elements opened after it close with it" pops
//!   while the top id is greater than the closed element's id.
//! - Per inline style *slot* ([`StyleCode::slot`]: the flags `b i u s`, size, colour) and
//!   for the `li` list code a stack of
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

mod css;
mod elements;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use super::token::{StartTag, TokenSink};
use crate::builder::FormattedBuilder;
use crate::style::INLINE_SLOTS;
use crate::utf16::{to_diagnostics, Note, Span};
use crate::{Diagnostic, DiagnosticCode, Formatted, StyleCode, StyleSet};
use css::{apply_style, parse_colour};
use elements::{classify, end_tag_optional, is_void, Effect, Role};

/// One opened element (an arena entry; `closed` is its tombstone).
#[derive(Debug)]
struct Elem {
    /// Index into `Semantics::names`.
    name: usize,
    role: Role,
    closed: bool,
    /// Byte span of the start tag, for `unclosed_tag`.
    span: Span,
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
    /// Inline style slots (lazy stacks of `(element id, value)`; `None` removes the code).
    slots: [Vec<(usize, Option<StyleCode>)>; INLINE_SLOTS],
    /// The list code of the open `li`s (lazy).
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
    /// Diagnostics with their messages, converted to UTF-16 positions at `finish`.
    diags: Vec<Note<String>>,
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
                b: FormattedBuilder::with_capacity(input.len(), 0),
                cr: None,
            },
            elems: Vec::new(),
            name_ids: HashMap::new(),
            names: Vec::new(),
            by_name: Vec::new(),
            blocks: Vec::new(),
            lists: Vec::new(),
            slots: Default::default(),
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
                self.diags.push(Note {
                    span: e.span,
                    code: DiagnosticCode::UnclosedTag,
                    detail: format!(
                        "<{name}> is never closed; it was closed at the end of the message"
                    ),
                });
            }
        }
        let diags = std::mem::take(&mut self.diags);
        let diagnostics = to_diagnostics(self.input, diags, |n, _| n.detail);
        (self.out.b.finish(), diagnostics)
    }

    fn diag(&mut self, span: (usize, usize), code: DiagnosticCode, message: String) {
        self.diags.push(Note {
            span: Span::new(span.0, span.1),
            code,
            detail: message,
        });
    }
    /// The full style of text here: inline codes plus line codes (H8).
    fn style(&self) -> StyleSet {
        self.inline.with(self.line)
    }

    /// Recomputes the current codes from the slot stacks and counters.
    fn refresh(&mut self) {
        let mut set = StyleSet::EMPTY;
        for stack in &mut self.slots {
            if let Some(Some(c)) = top_live(stack, &self.elems) {
                set.insert(c);
            }
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
            Role::Plain
            | Role::Unsupported
            | Role::Inline
            | Role::Block
            | Role::Item
            | Role::Break => {}
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
            span: Span::new(tag.span.0, tag.span.1),
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
            Role::Plain | Role::Unsupported | Role::Inline | Role::Block | Role::Break => {}
        }
        // H4: `color` on `font`, then `style`, after the element's own effect.
        if tag.name == "font" {
            if let Some(c) = tag
                .attrs
                .iter()
                .find(|a| a.name == "color")
                .and_then(|a| parse_colour(&a.value))
            {
                effect.set(c);
            }
        }
        if let Some(a) = tag.attrs.iter().find(|a| a.name == "style") {
            apply_style(&a.value, &mut effect);
        }
        for (stack, value) in self.slots.iter_mut().zip(effect.slots) {
            if let Some(v) = value {
                stack.push((id, v));
            }
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
