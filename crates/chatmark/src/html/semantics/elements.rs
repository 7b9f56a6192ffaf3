//! The H3 element table: what each element name does (its role for H5–H8 and its own
//! style), WHATWG's void elements (H5) and the elements whose end tag may be omitted (L3).

use crate::style::INLINE_SLOTS;
use crate::vocab::Tag;
use crate::StyleCode;

/// What an element does beyond its style (H3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
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
    pub(super) const fn is_block(self) -> bool {
        matches!(
            self,
            Role::Block | Role::List(_) | Role::Item | Role::Quote | Role::Pre
        )
    }
}

/// An element's opinion on each inline style slot ([`StyleCode::slot`]): its H3 effect,
/// then `color` on `font`, then its `style` declarations in order, the last one winning
/// (H4). `Some(Some(code))` puts `code` in the slot, `Some(None)` removes the slot's code
/// (a flag turned off), `None` leaves the slot to the ancestors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Effect {
    pub(super) slots: [Option<Option<StyleCode>>; INLINE_SLOTS],
}

impl Effect {
    /// The effect with `code` added.
    fn with(mut self, code: StyleCode) -> Self {
        self.set(code);
        self
    }

    /// Puts `code` in its slot.
    pub(super) fn set(&mut self, code: StyleCode) {
        if let Some(s) = self.slots.get_mut(code.slot()) {
            *s = Some(Some(code));
        }
    }

    /// Removes the code of `code`'s slot (H4 `font-weight: normal` and the like).
    pub(super) fn clear(&mut self, code: StyleCode) {
        if let Some(s) = self.slots.get_mut(code.slot()) {
            *s = Some(None);
        }
    }
}

/// The H3 table: role and own effect of an element name (already ASCII-lowercased). The I3
/// tags are elements of the same name and effect ("the dialect's angle spelling").
pub(super) fn classify(name: &str) -> (Role, Effect) {
    let e = Effect::default();
    if let Some(tag) = Tag::from_name(name.as_bytes()) {
        return (Role::Inline, e.with(tag.code()));
    }
    match name {
        "b" | "strong" => (Role::Inline, e.with(StyleCode::Bold)),
        "i" | "em" => (Role::Inline, e.with(StyleCode::Italic)),
        "u" | "ins" => (Role::Inline, e.with(StyleCode::Underline)),
        "s" | "strike" | "del" => (Role::Inline, e.with(StyleCode::Strike)),
        "h1" | "h2" | "h3" | "h4" => (Role::Block, e.with(StyleCode::Bold).with(StyleCode::Large)),
        "h5" | "h6" => (Role::Block, e.with(StyleCode::Bold)),
        "small" => (Role::Inline, e.with(StyleCode::Small)),
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
pub(super) fn is_void(name: &str) -> bool {
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
pub(super) fn end_tag_optional(name: &str) -> bool {
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
