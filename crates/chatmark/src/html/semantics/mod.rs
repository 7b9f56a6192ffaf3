//! HTML-mode semantics: reads the token stream into text plus runs, tree-less and in linear
//! time — nesting H5, block boundaries and whitespace H6, `br` H7, list and indent levels
//! H8, line codes 1.3, diagnostics L3 — over the element table H3 ([`elements`]) and the
//! inline CSS of H4 ([`css`]). Its tests are in `tests.rs` beside it.
//!
//! # Design (L1: linear for every input, no recursion)
//!
//! - Every start tag that opens an element gets an id in an arena of [`Elem`]s (16 bytes:
//!   `u32` name id, link and span); closing an element only sets its `closed` bit (a
//!   tombstone).
//! - Per tag name, a stack of the ids of elements of that name, linked through the elements
//!   (`prev`): "the nearest open element of that name" (H5) is its top live entry, found by
//!   lazily popping tombstones. Known names have fixed ids ([`elements::known`]: length,
//!   then bytes); other names are interned per message in a small open-addressing table.
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
//! amortised O(1) per token and per byte. All the working buffers live in a per-thread
//! [`Scratch`] reused across messages (trimmed after a large one), and the result is sized
//! once from a count of `<` and `\n`, so a message costs its text and its runs and,
//! rarely, one growth of the runs. Diagnostics are collected only when asked for: at most
//! [`MAX_DIAGNOSTICS`] found while reading, and as many elements left unclosed at the end
//! (the first ones by position are all `to_diagnostics` reports).
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
mod out;
#[cfg(test)]
mod tests;

use super::names::Names;
use super::token::{StartTag, TokenSink};
use super::tokenizer::Sink;
use crate::builder::FormattedBuilder;
use crate::diagnostics::msg::msg;
use crate::diagnostics::{to_diagnostics, Note, Span, MAX_DIAGNOSTICS};
use crate::sort::sat32;
use crate::text::source::{units, Source};
use crate::text::unit::Unit;
use crate::vocab::style::INLINE_SLOTS;
use crate::{Diagnostic, DiagnosticCode, StyleCode, StyleSet};
use css::{apply_style, parse_colour};
use elements::{classify, end_tag_optional, is_void, known, Effect, Role, BR, FONT, HR, KNOWN};
use out::{newline_before_content, Out};
#[cfg(test)]
use out::{scan, scan_in};

/// The `closed` bit of [`Elem::prev`].
const CLOSED: u32 = 1 << 31;
/// No element (`u32` links; element ids stay below it).
const NONE: u32 = CLOSED - 1;
/// Number of known names ([`KNOWN`]); interned names get ids from here on.
const N_KNOWN: u32 = KNOWN.len() as u32;

/// One opened element (an arena entry; the `closed` bit is its tombstone).
#[derive(Clone, Copy, Debug)]
struct Elem {
    /// Name id: an index of [`KNOWN`], or [`N_KNOWN`] plus an interned name's index.
    name: u32,
    /// The previous element of the same name (the per-name stack's link, [`NONE`] at the
    /// bottom), with [`CLOSED`] set once the element is closed.
    prev: u32,
    /// Byte span of the start tag, for `unclosed_tag`.
    start: u32,
    end: u32,
}

impl Elem {
    fn closed(self) -> bool {
        self.prev & CLOSED != 0
    }
}

/// The role of a name id.
fn role_of(name: u32) -> Role {
    classify((name < N_KNOWN).then_some(name)).0
}

/// A piece of the pending run of whitespace and tags (H6).
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// A block element's start or end tag.
    Boundary,
    /// Whitespace, a byte range of `Scratch::pending_text`, with the style it arrived with;
    /// `droppable` when typed literally outside `pre`.
    Space {
        start: u32,
        end: u32,
        style: StyleSet,
        droppable: bool,
    },
}

/// The semantics' working buffers, kept per thread and reused across messages.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    elems: Vec<Elem>,
    /// Per name id: the newest element of that name ([`NONE`] if none).
    heads: Vec<u32>,
    names: Names,
    /// Open block elements, ids increasing.
    blocks: Vec<u32>,
    /// Open `ul`/`ol` with their item code (lazy).
    lists: Vec<(u32, StyleCode)>,
    /// Inline style slots (lazy stacks of `(element id, value)`; `None` removes the code).
    slots: [Vec<(u32, Option<StyleCode>)>; INLINE_SLOTS],
    /// The list code of the open `li`s (lazy).
    item: Vec<(u32, StyleCode)>,
    /// The pending run of H6.
    pending: Vec<Pending>,
    pending_text: String,
}

impl Scratch {
    /// Entries a buffer keeps between messages; a larger one (after a huge message) shrinks.
    const KEEP: usize = 1 << 12;

    /// Empty buffers, as a constant: the thread-local needs no lazy initialisation code.
    pub(crate) const NEW: Self = Self {
        elems: Vec::new(),
        heads: Vec::new(),
        names: Names::NEW,
        blocks: Vec::new(),
        lists: Vec::new(),
        slots: [const { Vec::new() }; INLINE_SLOTS],
        item: Vec::new(),
        pending: Vec::new(),
        pending_text: String::new(),
    };

    /// Empties every buffer.
    fn clear(&mut self) {
        self.elems.clear();
        self.heads.clear();
        self.names.clear();
        self.blocks.clear();
        self.lists.clear();
        self.slots.iter_mut().for_each(Vec::clear);
        self.item.clear();
        self.pending.clear();
        self.pending_text.clear();
    }

    /// The largest capacity of its buffers, in entries (for the scratch-trimming test).
    #[cfg(test)]
    pub(crate) fn largest(&self) -> usize {
        let slots = self.slots.iter().map(Vec::capacity).max().unwrap_or(0);
        [
            self.elems.capacity(),
            self.heads.capacity(),
            self.names.largest(),
            self.blocks.capacity(),
            self.lists.capacity(),
            slots,
            self.item.capacity(),
            self.pending.capacity(),
            self.pending_text.capacity(),
        ]
        .into_iter()
        .fold(0, usize::max)
    }

    /// Empties every buffer, giving back what a huge message made them grow.
    pub(crate) fn reset(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            v.clear();
            v.shrink_to(Scratch::KEEP);
        }
        trim(&mut self.elems);
        trim(&mut self.heads);
        self.names.reset(Scratch::KEEP);
        trim(&mut self.blocks);
        trim(&mut self.lists);
        self.slots.iter_mut().for_each(trim);
        trim(&mut self.item);
        trim(&mut self.pending);
        self.pending_text.clear();
        self.pending_text.shrink_to(Scratch::KEEP);
    }
}

/// The H6 whitespace characters (all ASCII, so a byte test is a character test).
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c')
}

/// Counts `<` and `\n` bytes (vectorised: byte-wide counters per 128-byte chunk).
fn count_lt_nl<U: Unit + PartialEq + From<u8>>(units: &[U]) -> (usize, usize) {
    let (lt_unit, nl_unit) = (U::from(b'<'), U::from(b'\n'));
    let (mut lt, mut nl) = (0, 0);
    for chunk in units.chunks(128) {
        let (a, b) = chunk.iter().fold((0u8, 0u8), |(a, b), x| {
            (
                a.wrapping_add(u8::from(*x == lt_unit)),
                b.wrapping_add(u8::from(*x == nl_unit)),
            )
        });
        lt += usize::from(a);
        nl += usize::from(b);
    }
    (lt, nl)
}

/// The HTML-mode semantics (spec section 3) as a [`TokenSink`].
#[derive(Debug)]
pub(crate) struct Semantics<'a, 's> {
    input: Source<'a>,
    out: Out<'s>,
    s: &'s mut Scratch,
    list_depth: usize,
    quote_depth: usize,
    pre_depth: usize,
    /// Current inline codes and line codes (refreshed after every tag).
    inline: StyleSet,
    line: StyleSet,
    pending_boundary: bool,
    /// H7: a `br` was the last content and no text came since.
    after_br: bool,
    /// Whether diagnostics are collected at all.
    want_notes: bool,
    /// Diagnostics found while reading (at most [`MAX_DIAGNOSTICS`], in source order),
    /// converted to UTF-16 positions at `finish`.
    diags: Vec<Note>,
}

/// The top live entry of a lazy slot stack, popping tombstones.
fn top_live<T: Copy>(stack: &mut Vec<(u32, T)>, elems: &[Elem]) -> Option<T> {
    while let Some(&(id, v)) = stack.last() {
        if elems.get(id as usize).is_some_and(|e| !e.closed()) {
            return Some(v);
        }
        stack.pop();
    }
    None
}

impl<'a, 's> Semantics<'a, 's> {
    /// Semantics for `input` over `scratch` (emptied first), writing into `out`; diagnostics
    /// are collected when `want_notes`.
    pub(crate) fn new(
        input: Source<'a>,
        scratch: &'s mut Scratch,
        want_notes: bool,
        out: &'s mut FormattedBuilder,
    ) -> Self {
        scratch.clear();
        scratch.heads.resize(KNOWN.len(), NONE);
        // Sized once: runs are at most one per tag or line break (plus one), capped at one
        // per 16 bytes (dense markup may grow them once); elements at most one per `<`,
        // reserved so that a long input never holds a doubled arena. Short messages skip
        // the count: one run per 16 bytes is plenty there, and the arena is scratch.
        let runs = input.len() / 16 + 1;
        let runs = if input.len() > Scratch::KEEP {
            let (lt, nl) = units!(input, u => count_lt_nl(u));
            scratch.elems.reserve_exact(lt);
            runs.min(lt + nl + 1)
        } else {
            runs
        };
        out.reserve_runs(runs);
        Semantics {
            input,
            out: Out { b: out, cr: None },
            s: scratch,
            list_depth: 0,
            quote_depth: 0,
            pre_depth: 0,
            inline: StyleSet::EMPTY,
            line: StyleSet::EMPTY,
            pending_boundary: false,
            after_br: false,
            want_notes,
            diags: Vec::new(),
        }
    }

    /// The name of a name id.
    fn name_of(&self, id: u32) -> &str {
        match KNOWN.get(id as usize) {
            Some(n) => n,
            None => self.s.names.name((id - N_KNOWN) as usize),
        }
    }

    /// Ends the input: resolves the last run (no line break at the end, H6), closes what is
    /// still open (H5) and converts diagnostics to UTF-16 positions of the input (L3).
    ///
    /// `unclosed_tag` is reported for every element still open at the end except those
    /// whose end tag HTML lets you omit (`li`, `p`, `tr`, …, see [`end_tag_optional`]); at
    /// most [`MAX_DIAGNOSTICS`] of them, the first ones (which with the first ones read
    /// include the first ones by position, all that `to_diagnostics` keeps).
    pub(crate) fn finish(mut self) -> Vec<Diagnostic> {
        self.resolve(true);
        self.out.flush_cr(false);
        if !self.want_notes {
            return Vec::new();
        }
        let mut unclosed = 0;
        for e in &self.s.elems {
            if e.closed() || unclosed >= MAX_DIAGNOSTICS {
                continue;
            }
            let name = self.name_of(e.name);
            if !end_tag_optional(name) {
                unclosed += 1;
                self.diags.push(Note {
                    span: Span::new(e.start as usize, e.end as usize),
                    code: DiagnosticCode::UnclosedTag,
                    message: msg!(
                        "<",
                        name,
                        "> is never closed; it was closed at the end of the message"
                    ),
                });
            }
        }
        let diags = std::mem::take(&mut self.diags);
        to_diagnostics(self.input, diags)
    }

    /// Records a diagnostic (if asked for and fewer than [`MAX_DIAGNOSTICS`] so far); its
    /// message is written only then.
    fn diag(
        &mut self,
        span: (usize, usize),
        code: DiagnosticCode,
        message: impl FnOnce() -> String,
    ) {
        if self.want_notes && self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(Note {
                span: Span::new(span.0, span.1),
                code,
                message: message(),
            });
        }
    }

    /// The full style of text here: inline codes plus line codes (H8).
    fn style(&self) -> StyleSet {
        self.inline.with_line_codes(self.line)
    }

    /// Recomputes the current codes from the slot stacks and counters.
    fn refresh(&mut self) {
        let mut set = StyleSet::EMPTY;
        let elems = &self.s.elems;
        for stack in &mut self.s.slots {
            if let Some(Some(c)) = top_live(stack, elems) {
                set.insert(c);
            }
        }
        self.inline = set;
        let mut line = StyleSet::EMPTY;
        if let Some(c) = top_live(&mut self.s.item, elems) {
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
        if !matches!(self.s.pending.last(), Some(Pending::Boundary)) {
            self.s.pending.push(Pending::Boundary);
        }
    }

    /// Whitespace `a..b` of `src` (ASCII, H6) joins the pending run.
    fn space(&mut self, src: Source<'_>, a: usize, b: usize, droppable: bool) {
        let start = sat32(self.s.pending_text.len());
        let text = &mut self.s.pending_text;
        match src {
            // mostly one space: a byte pushed, not a copy call
            Source::Utf8(t) => match t.as_bytes().get(a..b).unwrap_or_default() {
                &[c] => text.push(char::from(c)),
                _ => text.push_str(t.get(a..b).unwrap_or_default()),
            },
            // H6 whitespace is ASCII
            Source::Utf16(u) => text.extend(
                u.get(a..b)
                    .unwrap_or_default()
                    .iter()
                    .map(|&c| char::from(c.min(0x7f) as u8)),
            ),
        }
        let style = self.style();
        self.s.pending.push(Pending::Space {
            start,
            end: sat32(self.s.pending_text.len()),
            style,
            droppable,
        });
    }

    /// Ends the pending run: content follows (`at_end == false`) or the input ends.
    #[inline]
    fn resolve(&mut self, at_end: bool) {
        if !self.s.pending.is_empty() {
            self.resolve_pending(at_end);
        }
    }

    #[inline(never)]
    fn resolve_pending(&mut self, at_end: bool) {
        let drop_typed = self.pending_boundary;
        let mut need_newline = false;
        let s = &mut *self.s;
        for p in &s.pending {
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
                        newline_before_content(&mut self.out);
                        need_newline = false;
                    }
                    let has_line = style.without_line_codes() != style;
                    let text = s
                        .pending_text
                        .get(start as usize..end as usize)
                        .unwrap_or_default();
                    self.out.push_space(text, style, has_line);
                }
            }
        }
        if need_newline && !at_end {
            newline_before_content(&mut self.out);
        }
        s.pending.clear();
        s.pending_text.clear();
        self.pending_boundary = false;
    }

    /// Text `a..b` of `src`: whitespace joins the pending run, anything else is content.
    #[inline]
    fn feed(&mut self, src: Source<'_>, a: usize, b: usize, typed: bool) {
        let droppable = typed && self.pre_depth == 0;
        // Whitespace between two non-whitespace characters of one chunk can never reach a
        // boundary (H6: the walk stops at text), so only the chunk's edges go through the
        // pending run and the middle is content as a whole: no per-word work. The H6
        // whitespace is ASCII, so the edges are found on units read as bytes.
        let Some((first, last)) = content_edges(src, a, b) else {
            if b > a {
                self.space(src, a, b, droppable);
            }
            return;
        };
        if self.s.pending.is_empty() {
            // Nothing pending: leading whitespace would join the run and be resolved by
            // this content at once, with the same style, so it goes out with it.
            let style = self.style();
            self.out.push(src, a, last, style, !self.line.is_empty());
        } else {
            if first > a {
                self.space(src, a, first, droppable);
            }
            self.resolve_pending(false);
            let style = self.style();
            self.out
                .push(src, first, last, style, !self.line.is_empty());
        }
        if last < b {
            self.space(src, last, b, droppable);
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

    /// The id of a tag name: its [`KNOWN`] index, or an interned one.
    fn name_id(&mut self, known: Option<u32>, name: &str) -> u32 {
        if let Some(k) = known {
            return k;
        }
        let (i, new) = self.s.names.intern(name);
        if new {
            self.s.heads.push(NONE);
        }
        N_KNOWN.saturating_add(i)
    }

    /// Tombstones one element and updates the counters.
    fn mark_closed(&mut self, id: u32) {
        let Some(e) = self.s.elems.get_mut(id as usize) else {
            return;
        };
        if e.closed() {
            return;
        }
        e.prev |= CLOSED;
        match role_of(e.name) {
            Role::BulletList | Role::OrderedList => {
                self.list_depth = self.list_depth.saturating_sub(1);
            }
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
    fn close(&mut self, id: u32) {
        while let Some(&top) = self.s.blocks.last() {
            if top < id {
                break;
            }
            self.s.blocks.pop();
            self.mark_closed(top);
        }
        self.mark_closed(id);
    }

    /// The nearest open element named `nid`, popping tombstones off its stack.
    fn nearest_open(&mut self, nid: u32) -> Option<u32> {
        let head = self.s.heads.get_mut(nid as usize)?;
        while *head != NONE {
            let e = *self.s.elems.get(*head as usize)?;
            if !e.closed() {
                return Some(*head);
            }
            *head = e.prev & !CLOSED;
        }
        None
    }

    fn open(&mut self, tag: &StartTag<'_>, nid: u32, role: Role, mut effect: Effect) {
        // H5: an `li` first closes an open `li` of the same list. The top live `li` is the
        // only candidate: any `li` of the current list was opened after the list, and any
        // `li` opened after it belongs to a list that is still open, a nearer one.
        let mut item_code = StyleCode::Bullet;
        if role == Role::Item {
            let list = top_live(&mut self.s.lists, &self.s.elems);
            let list_id = self.s.lists.last().map(|&(id, _)| id);
            item_code = list.unwrap_or(StyleCode::Bullet);
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
        let id = sat32(self.s.elems.len()).min(NONE - 1);
        let Some(head) = self.s.heads.get_mut(nid as usize) else {
            return;
        };
        let prev = *head;
        *head = id;
        self.s.elems.push(Elem {
            name: nid,
            prev,
            start: sat32(tag.span.0),
            end: sat32(tag.span.1),
        });
        if role.is_block() {
            self.s.blocks.push(id);
        }
        match role {
            Role::BulletList | Role::OrderedList => {
                self.list_depth += 1;
                self.s
                    .lists
                    .push((id, role.list_code().unwrap_or(StyleCode::Bullet)));
            }
            Role::Quote => self.quote_depth += 1,
            Role::Pre => self.pre_depth += 1,
            Role::Item => self.s.item.push((id, item_code)),
            Role::Plain | Role::Unsupported | Role::Inline | Role::Block | Role::Break => {}
        }
        // H4: `color` on `font`, then `style`, after the element's own effect.
        if !tag.attrs.is_empty() {
            if nid == FONT {
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
        }
        // The new element is the top of every slot it has an opinion on, so the current
        // codes change by its effect alone; list levels and items (an `li` may close
        // elements first) take the full recomputation.
        let mut full = matches!(
            role,
            Role::BulletList | Role::OrderedList | Role::Item | Role::Quote
        );
        for (k, (stack, value)) in self.s.slots.iter_mut().zip(effect.slots).enumerate() {
            match value {
                Some(Some(code)) => {
                    stack.push((id, Some(code)));
                    self.inline.insert(code);
                }
                Some(None) => {
                    stack.push((id, None));
                    match StyleCode::FLAGS.get(k) {
                        Some(&flag) => self.inline.remove(flag),
                        None => full = true,
                    }
                }
                None => {}
            }
        }
        if full {
            self.refresh();
        }
    }
}

/// The first and one past the last unit of `a..b` of `src` that is not H6 whitespace, if
/// any.
#[inline]
fn content_edges(src: Source<'_>, a: usize, b: usize) -> Option<(usize, usize)> {
    fn edges<U: Unit>(units: &[U], a: usize) -> Option<(usize, usize)> {
        let first = units.iter().position(|c| !is_space(c.byte()))?;
        let last = units.iter().rposition(|c| !is_space(c.byte()))?;
        Some((a + first, a + last + 1))
    }
    units!(src, u => edges(u.get(a..b).unwrap_or_default(), a))
}

impl Semantics<'_, '_> {
    /// Typed text `a..b` of `src`.
    #[inline]
    fn literal_text(&mut self, src: Source<'_>, mut a: usize, b: usize) {
        if b <= a {
            return;
        }
        if self.after_br {
            // H7: the first typed line break after a `br`, with only tags between, goes.
            self.after_br = false;
            if src.byte(a) == Some(b'\n') {
                a += 1;
            }
        }
        self.feed(src, a, b, true);
    }
}

impl Sink for Semantics<'_, '_> {
    #[inline]
    fn literal(&mut self, src: Source<'_>, from: usize, to: usize) {
        self.literal_text(src, from, to);
    }

    fn newline(&mut self) {
        self.literal_text(Source::Utf8("\n"), 0, 1);
    }

    fn char_ref(&mut self, text: &str) {
        TokenSink::char_ref(self, text);
    }

    fn start_tag(&mut self, tag: &StartTag<'_>) {
        TokenSink::start_tag(self, tag);
    }

    fn end_tag(&mut self, name: &str, span: (usize, usize)) {
        TokenSink::end_tag(self, name, span);
    }
}

impl TokenSink for Semantics<'_, '_> {
    #[inline]
    fn text(&mut self, text: &str) {
        self.literal_text(Source::Utf8(text), 0, text.len());
    }

    fn char_ref(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.after_br = false;
        self.feed(Source::Utf8(text), 0, text.len(), false);
    }

    fn start_tag(&mut self, tag: &StartTag<'_>) {
        let known = known(tag.name);
        let (role, effect) = classify(known);
        if role == Role::Break {
            self.line_break();
            return;
        }
        if role == Role::Unsupported {
            self.diag(tag.span, DiagnosticCode::UnsupportedElement, || {
                msg!("<", tag.name, "> is not supported; its content was kept")
            });
        }
        if role.is_block() {
            self.boundary();
        }
        let void = match known {
            Some(k) => k == HR,
            None => is_void(tag.name),
        };
        if void {
            return;
        }
        let nid = self.name_id(known, tag.name);
        self.open(tag, nid, role, effect);
    }

    fn end_tag(&mut self, name: &str, span: (usize, usize)) {
        let known = known(name);
        if known == Some(BR) {
            self.line_break();
            return;
        }
        let nid = match known {
            Some(k) => Some(k),
            None => self.s.names.get(name).map(|i| N_KNOWN.saturating_add(i)),
        };
        let Some(id) = nid.and_then(|nid| self.nearest_open(nid)) else {
            self.diag(span, DiagnosticCode::UnmatchedClosingTag, || {
                msg!("</", name, "> closes no open element and was ignored")
            });
            return;
        };
        let block = self
            .s
            .elems
            .get(id as usize)
            .is_some_and(|e| role_of(e.name).is_block());
        self.close(id);
        if block {
            self.boundary();
        }
        self.refresh();
    }
}
