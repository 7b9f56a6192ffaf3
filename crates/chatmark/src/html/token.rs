//! The HTML token stream (H1): what both tokenizers (our own and html5ever's) produce and
//! what the HTML-mode semantics read; public, so that tests and tools can compare the two
//! tokenizers. Comments, doctypes and processing
//! instructions produce nothing; newlines are already preprocessed (`\r\n`, `\r` → `\n`).

/// One attribute of a start tag, name ASCII-lowercased, value with references decoded (by
/// the public tokenizer; HTML mode's lean reading decodes only the values it uses, `style`
/// and `color`, and leaves the others empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attribute {
    /// The attribute name, ASCII-lowercased.
    pub name: String,
    /// The value, character references decoded (empty for a bare attribute).
    pub value: String,
}

/// A start tag as the tokenizer read it. The public tokenizer drops duplicate attributes (the
/// first one wins, as WHATWG says); HTML mode's lean reading keeps them and its semantics
/// read the first of a name.
#[derive(Clone, Copy, Debug)]
pub struct StartTag<'t> {
    /// The tag name, ASCII-lowercased (NUL replaced by U+FFFD).
    pub name: &'t str,
    /// The attributes in source order.
    pub attrs: &'t [Attribute],
    /// Whether the tag ended with `/>`.
    pub self_closing: bool,
    /// Range of the whole tag in the input, in its code units (bytes of UTF-8, units of
    /// UTF-16), for diagnostics.
    pub span: (usize, usize),
}

/// Receives the token stream, in source order. Consecutive calls of `text` and `char_ref`
/// may split text anywhere between characters; receivers must not rely on chunking.
pub trait TokenSink {
    /// Text typed literally in the source (after newline preprocessing).
    fn text(&mut self, text: &str);
    /// Text produced by a character reference (`&amp;`, `&#32;`): never dropped as
    /// whitespace by H6.
    fn char_ref(&mut self, text: &str);
    /// A start tag.
    fn start_tag(&mut self, tag: &StartTag<'_>);
    /// An end tag, name ASCII-lowercased; `span` is its range in the input's code units.
    fn end_tag(&mut self, name: &str, span: (usize, usize));
}
