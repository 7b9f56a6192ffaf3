//! chatmark's own HTML tokenizer (H1): the WHATWG tokenizer, always in the data state.
//!
//! It is never switched to the RCDATA, RAWTEXT, script data or PLAINTEXT states (there is no
//! tree builder to ask for it), so `<script>x</script>` is a start tag, text and an end tag.
//! It covers input preprocessing (`\r\n` and `\r` become `\n`), the tag states, every comment
//! state, bogus comments, DOCTYPEs (which vanish: they end at the first `>`), and character
//! references exactly as HTML5 decodes them, in data and in attribute values.
//!
//! Literal text goes to [`TokenSink::text`] as slices of the input (batched, no per-character
//! calls); what a character reference produced goes to [`TokenSink::char_ref`]. Time is
//! linear in the input in every case, nothing recurses, and no input panics: the scanner works
//! on code units (every unit it stops at is ASCII, so every slice boundary is a char boundary)
//! and reads them with `get`.
//!
//! It reads UTF-8 (a `&str`) or UTF-16 units, monomorphised over the unit (HTML mode's UTF-16
//! entry points: a JavaScript string is never transcoded), and tells HTML mode's semantics
//! literal text as ranges of the source (a crate-private sink), which they copy in the
//! source's encoding.
//!
//! This file is the state machine (the data state and the tag states); character references
//! are in `char_ref`, what vanishes (comments, doctypes, processing instructions) in
//! `comment`, and the units' tests in `scan`; the data state's search for `<`, `&` and `\r`
//! the crate's byte search (its `Html` set of stop bytes).

#[cfg(feature = "html5ever")]
pub use super::html5ever_backend::tokenize as tokenize_html5ever;

mod char_ref;
mod comment;
mod scan;

use super::names::Names;
use super::token::{Attribute, StartTag, TokenSink};
use crate::text::search::{find_inline, Html};
use crate::text::source::{Source, TypedSource};
use crate::text::unit::Unit;
use char_ref::char_ref;
use comment::{after_gt, skip_comment};
use scan::{byte_at, name_byte};

/// Tokenizes `input` in the WHATWG data state into `sink` (H1).
///
/// Literal text goes to `sink.text` (after newline preprocessing), text produced by a
/// character reference to `sink.char_ref`; comments, doctypes and processing instructions
/// produce nothing; a tag cut off by the end of the input produces nothing.
///
/// # Examples
///
/// ```
/// use chatmark::html::token::{StartTag, TokenSink};
/// use chatmark::html::tokenizer::tokenize;
///
/// #[derive(Default)]
/// struct Log(Vec<String>);
/// impl TokenSink for Log {
///     fn text(&mut self, t: &str) { self.0.push(format!("text {t:?}")); }
///     fn char_ref(&mut self, t: &str) { self.0.push(format!("ref {t:?}")); }
///     fn start_tag(&mut self, tag: &StartTag<'_>) { self.0.push(format!("<{}>", tag.name)); }
///     fn end_tag(&mut self, name: &str, _span: (usize, usize)) { self.0.push(format!("</{name}>")); }
/// }
///
/// let mut log = Log::default();
/// tokenize("<B>a&amp;b</b><!-- gone -->", &mut log);
/// assert_eq!(log.0, ["<b>", "text \"a\"", "ref \"&\"", "text \"b\"", "</b>"]);
/// ```
pub fn tokenize<S: TokenSink>(input: &str, sink: &mut S) {
    Tokenizer::new(input, &mut Buffers::default(), false).run(&mut Public(sink));
}

/// [`tokenize`] as HTML mode reads it, over a UTF-8 or UTF-16 source, with reused buffers:
/// only the first `style` and `color` attribute values are decoded (others are empty) and
/// duplicate attributes are kept (the semantics read the first of a name).
pub(crate) fn tokenize_lean<'a, T: TypedSource<'a>, S: Sink>(
    input: T,
    sink: &mut S,
    buffers: &mut Buffers,
) {
    Tokenizer::new(input, buffers, true).run(sink);
}

/// What the tokenizer writes to: a [`TokenSink`] that is told literal text as ranges of the
/// source, which HTML mode's semantics copy without a slice of their own in either encoding.
pub(crate) trait Sink {
    /// The literal text `from..to` of `src` (newlines preprocessed).
    fn literal(&mut self, src: Source<'_>, from: usize, to: usize);
    /// A `\r` alone, which preprocessing makes a `\n`.
    fn newline(&mut self);
    /// As [`TokenSink::char_ref`].
    fn char_ref(&mut self, text: &str);
    /// As [`TokenSink::start_tag`].
    fn start_tag(&mut self, tag: &StartTag<'_>);
    /// As [`TokenSink::end_tag`].
    fn end_tag(&mut self, name: &str, span: (usize, usize));
}

/// A [`TokenSink`] as the tokenizer's [`Sink`]: literal text as slices of the input.
struct Public<'s, S>(&'s mut S);

impl<S: TokenSink> Sink for Public<'_, S> {
    fn literal(&mut self, src: Source<'_>, from: usize, to: usize) {
        self.0.text(&src.text(from, to));
    }

    fn newline(&mut self) {
        self.0.text("\n");
    }

    fn char_ref(&mut self, text: &str) {
        self.0.char_ref(text);
    }

    fn start_tag(&mut self, tag: &StartTag<'_>) {
        self.0.start_tag(tag);
    }

    fn end_tag(&mut self, name: &str, span: (usize, usize)) {
        self.0.end_tag(name, span);
    }
}

/// Whitespace in the tag states: tab, LF, FF, space, and CR (which preprocessing turns into LF).
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b' ' | b'\r')
}

/// The tag states of the WHATWG tokenizer.
#[derive(Clone, Copy, Debug)]
enum TagState {
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    AttrValueQuoted(u8),
    AttrValueUnquoted,
    AfterAttrValueQuoted,
    SelfClosingStartTag,
}

/// What one step of the tag states does.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Go to the state, past the byte.
    Next(TagState),
    /// Go to the state and read on at the index (the same byte, or the end of a run).
    At(TagState, usize),
    /// The tag ends: the index after its `>`, and whether it was `/>`.
    Done(usize, bool),
}

/// The tokenizer's buffers, reused from tag to tag and, in HTML mode, from message to
/// message (kept per thread with the semantics' ones).
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    tag_name: String,
    /// Attribute slots; the first `n_attrs` belong to the current tag, the others keep their
    /// allocations for later tags.
    attrs: Vec<Attribute>,
    /// Which of the current tag's attributes survive duplicate detection.
    keep: Vec<bool>,
    /// The names of a tag with many attributes, for duplicate detection.
    names: Names,
}

impl Buffers {
    /// Attribute slots (and other entries) kept between messages.
    const KEEP: usize = 64;

    /// Empty buffers, as a constant (the per-thread scratch is const-initialised).
    pub(crate) const NEW: Self = Self {
        tag_name: String::new(),
        attrs: Vec::new(),
        keep: Vec::new(),
        names: Names::NEW,
    };

    /// The largest capacity of its buffers, in entries or bytes (for the scratch-trimming
    /// test).
    #[cfg(test)]
    pub(crate) fn largest(&self) -> usize {
        let strings = self
            .attrs
            .iter()
            .map(|a| a.name.capacity().max(a.value.capacity()));
        [
            self.tag_name.capacity(),
            self.attrs.capacity(),
            self.keep.capacity(),
            self.names.largest(),
        ]
        .into_iter()
        .chain(strings)
        .fold(0, usize::max)
    }

    /// Gives back what a huge tag made the buffers grow.
    pub(crate) fn reset(&mut self) {
        self.tag_name.clear();
        self.tag_name.shrink_to(Self::KEEP);
        self.names.reset(Self::KEEP);
        self.attrs.truncate(Self::KEEP);
        for a in &mut self.attrs {
            a.name.shrink_to(Self::KEEP);
            a.value.shrink_to(Self::KEEP * 16);
        }
        self.attrs.shrink_to(Self::KEEP);
        self.keep.clear();
        self.keep.shrink_to(Self::KEEP);
    }
}

/// The tokenizer: the input and the buffers reused from tag to tag.
struct Tokenizer<'a, 'b, T: TypedSource<'a>> {
    text: T,
    units: &'a [T::Unit],
    b: &'b mut Buffers,
    n_attrs: usize,
    /// HTML mode's reading: only the values of the first `style` and `color` attributes
    /// are decoded (the only ones the semantics read, H4), and duplicates are not dropped
    /// (the semantics take the first of a name, which is the one dropping keeps).
    lean: bool,
    /// Whether the current attribute's value is decoded.
    keep_value: bool,
}

impl<'a, 'b, T: TypedSource<'a>> Tokenizer<'a, 'b, T> {
    fn new(text: T, b: &'b mut Buffers, lean: bool) -> Self {
        Tokenizer {
            text,
            units: text.units(),
            b,
            n_attrs: 0,
            lean,
            keep_value: true,
        }
    }

    /// The unit at `i` as a byte.
    #[inline(always)]
    fn at(&self, i: usize) -> Option<u8> {
        byte_at(self.units, i)
    }

    /// The name `a..b` (lower-case ASCII letters and digits, the fast paths' names) as a
    /// `&str`: a slice of UTF-8 input, or UTF-16 input's copied into the name buffer.
    fn ascii_name(&mut self, a: usize, b: usize) -> &str {
        self.text.ascii_name(a, b, &mut self.b.tag_name)
    }

    /// The data state: the main loop.
    fn run<S: Sink>(&mut self, sink: &mut S) {
        let units = self.units;
        let len = units.len();
        // Literal text from `text_start` up to `pos` is pending, emitted in one call.
        let mut text_start = 0;
        let mut pos = 0;
        while pos < len {
            pos = find_inline::<Html, _>(units, pos);
            if pos >= len {
                break;
            }
            match self.at(pos) {
                Some(b'\r') => {
                    self.flush(sink, text_start, pos);
                    if self.at(pos + 1) == Some(b'\n') {
                        // `\r\n`: the `\n` starts the next text slice.
                        text_start = pos + 1;
                    } else {
                        sink.newline();
                        text_start = pos + 1;
                    }
                    pos += 1;
                }
                Some(b'&') => match char_ref(units, pos + 1, false) {
                    Some((exp, end)) => {
                        self.flush(sink, text_start, pos);
                        exp.with_str(|s| sink.char_ref(s));
                        pos = end;
                        text_start = end;
                    }
                    None => pos += 1, // a literal `&`
                },
                Some(b'<') => match self.markup(pos, sink, text_start) {
                    Some(end) => {
                        pos = end;
                        text_start = end;
                    }
                    None => pos += 1, // a literal `<`
                },
                _ => break,
            }
        }
        self.flush(sink, text_start, len);
    }

    fn flush<S: Sink>(&self, sink: &mut S, a: usize, b: usize) {
        if a < b {
            sink.literal(self.text.source(), a, b);
        }
    }

    /// Handles the `<` at `lt` (tag open state). Returns the index after the markup it
    /// consumed (having flushed the pending text from `text_start` and emitted any tag), or
    /// `None` when the `<` is literal text.
    fn markup<S: Sink>(&mut self, lt: usize, sink: &mut S, text_start: usize) -> Option<usize> {
        let units = self.units;
        let end = match self.at(lt + 1) {
            Some(b'!') => {
                let is = |k: usize, want: &[u8]| {
                    (0..want.len()).all(|j| {
                        let b = self.at(k + j).unwrap_or(0);
                        want.get(j).is_some_and(|w| b.eq_ignore_ascii_case(w))
                    })
                };
                if is(lt + 2, b"--") {
                    skip_comment(units, lt + 4)
                } else if is(lt + 2, b"doctype") {
                    // Every DOCTYPE state ends at the first `>`; doctypes produce nothing.
                    after_gt(units, lt + 9)
                } else {
                    // Bogus comment, `<![CDATA[` included (no foreign content here).
                    after_gt(units, lt + 2)
                }
            }
            Some(b'/') => match self.at(lt + 2) {
                Some(b) if b.is_ascii_alphabetic() => {
                    self.flush(sink, text_start, lt);
                    if let Some(name_end) = self.simple_tag(lt + 2) {
                        sink.end_tag(self.ascii_name(lt + 2, name_end), (lt, name_end + 1));
                        return Some(name_end + 1);
                    }
                    match self.tag(lt + 2) {
                        Some((end, _)) => {
                            sink.end_tag(&self.b.tag_name, (lt, end));
                            return Some(end);
                        }
                        None => return Some(units.len()), // EOF in tag: nothing
                    }
                }
                Some(b'>') => lt + 3, // `</>` is ignored
                None => return None,  // `</` then EOF: text
                Some(_) => after_gt(units, lt + 2),
            },
            Some(b) if b.is_ascii_alphabetic() => {
                self.flush(sink, text_start, lt);
                if let Some(name_end) = self.simple_tag(lt + 1) {
                    let tag = StartTag {
                        name: self.ascii_name(lt + 1, name_end),
                        attrs: &[],
                        self_closing: false,
                        span: (lt, name_end + 1),
                    };
                    sink.start_tag(&tag);
                    return Some(name_end + 1);
                }
                if self.lean {
                    if let Some((name_end, end)) = self.simple_attr_tag(lt + 1) {
                        let n = self.n_attrs.min(self.b.attrs.len());
                        let name = self.text.ascii_name(lt + 1, name_end, &mut self.b.tag_name);
                        let tag = StartTag {
                            name,
                            attrs: self.b.attrs.get(..n).unwrap_or_default(),
                            self_closing: false,
                            span: (lt, end),
                        };
                        sink.start_tag(&tag);
                        return Some(end);
                    }
                }
                match self.tag(lt + 1) {
                    Some((end, self_closing)) => {
                        if !self.lean {
                            self.dedup_attrs();
                        }
                        let n = self.n_attrs.min(self.b.attrs.len());
                        let tag = StartTag {
                            name: &self.b.tag_name,
                            attrs: self.b.attrs.get(..n).unwrap_or_default(),
                            self_closing,
                            span: (lt, end),
                        };
                        sink.start_tag(&tag);
                        return Some(end);
                    }
                    None => return Some(units.len()),
                }
            }
            Some(b'?') => after_gt(units, lt + 1), // bogus comment
            _ => return None,
        };
        self.flush(sink, text_start, lt);
        Some(end)
    }

    /// The fast path of the tag states: a name of lower-case ASCII letters and digits right
    /// followed by `>` (the name is then the input slice as it is). Returns the index of the
    /// `>`, or `None` for any other tag (read by [`Self::tag`]).
    #[inline]
    fn simple_tag(&self, from: usize) -> Option<usize> {
        let rest = self.units.get(from..)?;
        let n = rest.iter().take_while(|c| name_byte(c.byte())).count();
        (byte_at(rest, n) == Some(b'>')).then_some(from + n)
    }

    /// The fast path for a start tag with plain attributes, in HTML mode (lean): a name as
    /// for [`Self::simple_tag`], then any number of ` name="value"` (the name lower-case
    /// letters and `-`, the value free of `"`, `&`, `\r` and NUL, so taken as it is), then
    /// `>`. Fills the attribute slots as the tag states would and returns the name's end and
    /// the index after the `>`; `None` for any other tag (read by [`Self::tag`], which
    /// starts the slots over).
    fn simple_attr_tag(&mut self, from: usize) -> Option<(usize, usize)> {
        let units = self.units;
        let text = self.text;
        let n = units
            .get(from..)?
            .iter()
            .take_while(|c| name_byte(c.byte()))
            .count();
        let name_end = from + n;
        let mut i = name_end;
        self.n_attrs = 0;
        loop {
            match self.at(i)? {
                b'>' => return Some((name_end, i + 1)),
                b' ' => i += 1,
                _ => return None,
            }
            let a_len = units
                .get(i..)?
                .iter()
                .take_while(|c| matches!(c.byte(), b'a'..=b'z' | b'-'))
                .count();
            let a_end = i + a_len;
            if a_len == 0 || self.at(a_end) != Some(b'=') || self.at(a_end + 1) != Some(b'"') {
                return None;
            }
            let v_start = a_end + 2;
            let v_len = units
                .get(v_start..)?
                .iter()
                .position(|c| matches!(c.byte(), b'"' | b'&' | b'\r' | 0))?;
            let v_end = v_start + v_len;
            if self.at(v_end) != Some(b'"') {
                return None;
            }
            self.new_attr();
            if let Some(a) = self.cur_attr() {
                text.push_text(i, a_end, &mut a.name);
            }
            self.start_value();
            if let Some(v) = self.cur_value() {
                text.push_text(v_start, v_end, v);
            }
            i = v_end + 1;
        }
    }

    /// Starts a new attribute, reusing a slot; [`Self::cur_attr`] then reaches it.
    fn new_attr(&mut self) {
        if let Some(slot) = self.b.attrs.get_mut(self.n_attrs) {
            slot.name.clear();
            slot.value.clear();
        } else {
            self.b.attrs.push(Attribute::default());
        }
        self.n_attrs += 1;
    }

    /// The current attribute (the last one started).
    fn cur_attr(&mut self) -> Option<&mut Attribute> {
        let i = self.n_attrs.checked_sub(1)?;
        self.b.attrs.get_mut(i)
    }

    /// The current attribute's value is about to be read: decides whether it is decoded
    /// (always, unless lean: then only for the first `style` or `color`).
    fn start_value(&mut self) {
        self.keep_value = !self.lean || {
            let n = self.n_attrs.min(self.b.attrs.len());
            let live = self.b.attrs.get(..n).unwrap_or_default();
            match live.split_last() {
                Some((cur, before)) => {
                    (cur.name == "style" || cur.name == "color")
                        && !before.iter().any(|a| a.name == cur.name)
                }
                None => false,
            }
        };
    }

    /// The current attribute's value when it is decoded.
    fn cur_value(&mut self) -> Option<&mut String> {
        if !self.keep_value {
            return None;
        }
        self.cur_attr().map(|a| &mut a.value)
    }

    /// Reads a tag whose name starts at `from`, through the tag states, into `tag_name` and
    /// the attribute slots. Returns the index after its `>` and whether it ended with `/>`,
    /// or `None` when the input ends inside it.
    fn tag(&mut self, from: usize) -> Option<(usize, bool)> {
        self.b.tag_name.clear();
        self.n_attrs = 0;
        let mut st = TagState::TagName;
        let mut i = from;
        loop {
            let b = self.at(i)?; // EOF in a tag: the tag is dropped
            let step = match st {
                TagState::TagName
                | TagState::BeforeAttrName
                | TagState::AttrName
                | TagState::AfterAttrName => self.name_step(st, b, i),
                TagState::BeforeAttrValue
                | TagState::AttrValueQuoted(_)
                | TagState::AttrValueUnquoted
                | TagState::AfterAttrValueQuoted
                | TagState::SelfClosingStartTag => self.value_step(st, b, i),
            };
            match step {
                Step::Next(next) => {
                    st = next;
                    i += 1;
                }
                Step::At(next, at) => {
                    st = next;
                    i = at;
                }
                Step::Done(end, self_closing) => return Some((end, self_closing)),
            }
        }
    }

    /// One step of the tag-name and attribute-name states at byte `b`, index `i`.
    #[inline(always)]
    fn name_step(&mut self, st: TagState, b: u8, i: usize) -> Step {
        match st {
            TagState::TagName => match b {
                b if is_ws(b) => Step::Next(TagState::BeforeAttrName),
                b'/' => Step::Next(TagState::SelfClosingStartTag),
                b'>' => Step::Done(i + 1, false),
                _ => {
                    let end = self.run_end(i, |b| is_ws(b) || b == b'/' || b == b'>');
                    self.text.push_name(i, end, &mut self.b.tag_name);
                    Step::At(st, end)
                }
            },
            TagState::BeforeAttrName => match b {
                b if is_ws(b) => Step::Next(st),
                b'/' | b'>' => Step::At(TagState::AfterAttrName, i),
                b'=' => {
                    self.new_attr();
                    if let Some(a) = self.cur_attr() {
                        a.name.push('=');
                    }
                    Step::Next(TagState::AttrName)
                }
                _ => {
                    self.new_attr();
                    Step::At(TagState::AttrName, i)
                }
            },
            TagState::AttrName => match b {
                b if is_ws(b) || b == b'/' || b == b'>' => Step::At(TagState::AfterAttrName, i),
                b'=' => {
                    self.start_value();
                    Step::Next(TagState::BeforeAttrValue)
                }
                _ => {
                    let end = self.run_end(i, |b| is_ws(b) || matches!(b, b'/' | b'>' | b'='));
                    let text = self.text;
                    if let Some(a) = self.cur_attr() {
                        text.push_name(i, end, &mut a.name);
                    }
                    Step::At(st, end)
                }
            },
            TagState::AfterAttrName => match b {
                b if is_ws(b) => Step::Next(st),
                b'/' => Step::Next(TagState::SelfClosingStartTag),
                b'=' => {
                    self.start_value();
                    Step::Next(TagState::BeforeAttrValue)
                }
                b'>' => Step::Done(i + 1, false),
                _ => {
                    self.new_attr();
                    Step::At(TagState::AttrName, i)
                }
            },
            TagState::BeforeAttrValue
            | TagState::AttrValueQuoted(_)
            | TagState::AttrValueUnquoted
            | TagState::AfterAttrValueQuoted
            | TagState::SelfClosingStartTag => self.value_step(st, b, i),
        }
    }

    /// One step of the attribute-value and self-closing states at byte `b`, index `i`.
    #[inline(always)]
    fn value_step(&mut self, st: TagState, b: u8, i: usize) -> Step {
        match st {
            TagState::BeforeAttrValue => match b {
                b if is_ws(b) => Step::Next(st),
                b'"' | b'\'' => Step::Next(TagState::AttrValueQuoted(b)),
                b'>' => Step::Done(i + 1, false),
                _ => Step::At(TagState::AttrValueUnquoted, i),
            },
            TagState::AttrValueQuoted(q) => match b {
                b if b == q => Step::Next(TagState::AfterAttrValueQuoted),
                b'&' => Step::At(st, self.value_char_ref(i)),
                b'\r' => {
                    if let Some(v) = self.cur_value() {
                        v.push('\n');
                    }
                    let crlf = self.at(i + 1) == Some(b'\n');
                    Step::At(st, i + 1 + usize::from(crlf))
                }
                _ => {
                    let end = self.run_end(i, |b| b == q || b == b'&' || b == b'\r');
                    self.push_value(i, end);
                    Step::At(st, end)
                }
            },
            TagState::AttrValueUnquoted => match b {
                b if is_ws(b) => Step::Next(TagState::BeforeAttrName),
                b'&' => Step::At(st, self.value_char_ref(i)),
                b'>' => Step::Done(i + 1, false),
                _ => {
                    let end = self.run_end(i, |b| is_ws(b) || b == b'&' || b == b'>');
                    self.push_value(i, end);
                    Step::At(st, end)
                }
            },
            TagState::AfterAttrValueQuoted => match b {
                b if is_ws(b) => Step::Next(TagState::BeforeAttrName),
                b'/' => Step::Next(TagState::SelfClosingStartTag),
                b'>' => Step::Done(i + 1, false),
                _ => Step::At(TagState::BeforeAttrName, i),
            },
            TagState::SelfClosingStartTag => match b {
                b'>' => Step::Done(i + 1, true),
                _ => Step::At(TagState::BeforeAttrName, i),
            },
            TagState::TagName
            | TagState::BeforeAttrName
            | TagState::AttrName
            | TagState::AfterAttrName => self.name_step(st, b, i),
        }
    }

    /// Appends `bytes[a..b]` to the current attribute's value.
    fn push_value(&mut self, a: usize, b: usize) {
        let text = self.text;
        if let Some(v) = self.cur_value() {
            text.push_value(a, b, v);
        }
    }

    /// The end of the run of bytes from `from` (which is not a stop byte) up to the first
    /// byte for which `stop` holds, or the end of the input. Stop bytes are all ASCII.
    fn run_end(&self, from: usize, stop: impl Fn(u8) -> bool) -> usize {
        let rest = self.units.get(from..).unwrap_or_default();
        from + rest
            .iter()
            .position(|c| stop(c.byte()))
            .unwrap_or(rest.len())
    }

    /// A `&` at `amp` inside an attribute value: appends the reference's expansion (or the
    /// literal `&`) to the current value and returns the index to go on from.
    fn value_char_ref(&mut self, amp: usize) -> usize {
        let found = char_ref(self.units, amp + 1, true);
        let end = found.map_or(amp + 1, |(_, end)| end);
        if let Some(v) = self.cur_value() {
            match found {
                Some((exp, _)) => exp.with_str(|s| v.push_str(s)),
                None => v.push('&'),
            }
        }
        end
    }

    /// Drops the attributes of the current tag whose name an earlier one already has, in
    /// linear time: pairwise for a few attributes, through a set of names for many.
    fn dedup_attrs(&mut self) {
        let n = self.n_attrs.min(self.b.attrs.len());
        let Some(live) = self.b.attrs.get(..n) else {
            return;
        };
        self.b.keep.clear();
        if n <= 16 {
            for (i, a) in live.iter().enumerate() {
                let dup = live
                    .get(..i)
                    .unwrap_or_default()
                    .iter()
                    .any(|b| b.name == a.name);
                self.b.keep.push(!dup);
            }
        } else {
            // the set of names HTML mode interns tag names with: linear, one table
            self.b.names.clear();
            for a in live {
                self.b.keep.push(self.b.names.intern(&a.name).1);
            }
        }
        if self.b.keep.iter().all(|&k| k) {
            return;
        }
        // Compact in place, keeping the dropped slots' allocations after the live ones.
        let mut w = 0;
        for r in 0..n {
            if self.b.keep.get(r).copied().unwrap_or(false) {
                // w <= r < n <= attrs.len(): both in bounds
                crate::sort::swap(&mut self.b.attrs, w, r);
                w += 1;
            }
        }
        self.n_attrs = w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token stream as the tokenizer's [`Sink`] sees it, positions in UTF-16 units
    /// (`units` maps a source position to them).
    struct Record<'u> {
        units: &'u dyn Fn(usize) -> usize,
        log: Vec<String>,
    }

    impl Sink for Record<'_> {
        fn literal(&mut self, src: Source<'_>, from: usize, to: usize) {
            let (a, b) = ((self.units)(from), (self.units)(to));
            self.log
                .push(format!("text {a}..{b} {:?}", src.text(from, to)));
        }

        fn newline(&mut self) {
            self.log.push("newline".into());
        }

        fn char_ref(&mut self, text: &str) {
            self.log.push(format!("ref {text:?}"));
        }

        fn start_tag(&mut self, tag: &StartTag<'_>) {
            let (a, b) = ((self.units)(tag.span.0), (self.units)(tag.span.1));
            let attrs: Vec<_> = tag.attrs.iter().map(|x| (&x.name, &x.value)).collect();
            let closing = tag.self_closing;
            self.log
                .push(format!("<{} {attrs:?} {closing} {a}..{b}>", tag.name));
        }

        fn end_tag(&mut self, name: &str, span: (usize, usize)) {
            let (a, b) = ((self.units)(span.0), (self.units)(span.1));
            self.log.push(format!("</{name} {a}..{b}>"));
        }
    }

    /// The tokens of `input` read as UTF-8 and as UTF-16, lean or not.
    fn both(input: &str, lean: bool) -> (Vec<String>, Vec<String>) {
        let mut unit_of = vec![0; input.len() + 1];
        let mut u = 0;
        for (k, c) in input.char_indices() {
            unit_of[k] = u;
            u += c.len_utf16();
        }
        unit_of[input.len()] = u;
        let by_byte = |k: usize| unit_of[k.min(input.len())];
        let same = |k: usize| k;
        let mut a = Record {
            units: &by_byte,
            log: Vec::new(),
        };
        Tokenizer::new(input, &mut Buffers::default(), lean).run(&mut a);
        let wide: Vec<u16> = input.encode_utf16().collect();
        let mut b = Record {
            units: &same,
            log: Vec::new(),
        };
        Tokenizer::new(wide.as_slice(), &mut Buffers::default(), lean).run(&mut b);
        (a.log, b.log)
    }

    /// The UTF-16 tokenizer gives the UTF-8 one's tokens (positions in UTF-16 units) on
    /// random markup with non-ASCII text in every place a unit is read as a byte (H1): tag
    /// and attribute names, values, references, comments; and a unit whose low byte is
    /// markup (U+013C ends in `<`, U+0126 in `&`) is never taken for it.
    #[test]
    fn utf16_reads_what_utf8_reads_h1() {
        let pieces = [
            "<",
            ">",
            "</",
            "/>",
            "<b>",
            "</b>",
            "<p class=x>",
            "<span style=\"color:red\">",
            "<a href='x&amp;y'>",
            "<é>",
            "</é>",
            "<x\u{13c}>",
            "&",
            "&amp;",
            "&amp",
            "&#x41;",
            "&#1234567;",
            "&notin;",
            "&noti",
            "\u{126}",
            "\u{13c}",
            "é",
            "😀",
            "\r",
            "\r\n",
            "\n",
            " ",
            "=",
            "\"",
            "'",
            "<!--",
            "-->",
            "<!doctype x>",
            "<?x>",
            "\0",
            "a",
            "bc",
            "<B CLASS=\"é\">",
            "<input disabled>",
            "<br/>",
        ];
        let mut rng = crate::rng::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..20_000 {
            let input = rng.text(16, &pieces, &[], 1);
            for lean in [false, true] {
                let (a, b) = both(&input, lean);
                assert_eq!(a, b, "{input:?} lean {lean}");
            }
        }
    }

    /// The same over every input of the vendored html5lib tokenizer suites (H1).
    #[test]
    fn utf16_reads_the_html5lib_inputs_as_utf8_does_h1() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/html5lib/");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "test") {
                continue;
            }
            let data: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for case in data["tests"].as_array().unwrap() {
                let input = case["input"].as_str().unwrap();
                for lean in [false, true] {
                    let (a, b) = both(input, lean);
                    assert_eq!(a, b, "{input:?} lean {lean}");
                }
                n += 1;
            }
        }
        assert!(n > 6000, "only {n} html5lib inputs read");
    }
}
