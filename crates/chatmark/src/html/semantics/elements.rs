//! The H3 element table: what each element name does (its role for H5–H8 and its own
//! style), WHATWG's void elements (H5) and the elements whose end tag may be omitted (L3).

use crate::vocab::style::INLINE_SLOTS;
use crate::vocab::Tag;
use crate::StyleCode;

/// What an element does beyond its style (H3).
///
/// A plain byte (no payload, so no niche to decode): the semantics test roles several
/// times per tag. The block roles come last, so [`Role::is_block`] is one compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Role {
    /// `span`, `font`: no effect, no diagnostic.
    Plain,
    /// An element outside the H3 table: no effect, `unsupported_element`.
    Unsupported,
    /// An inline element with a style of its own.
    Inline,
    /// `br` (handled before an element is ever opened).
    Break,
    /// A block element with no level effect (`p`, `div`, `h1`, …).
    Block,
    /// `ul`: its items get [`StyleCode::Bullet`].
    BulletList,
    /// `ol`: its items get [`StyleCode::Ordered`].
    OrderedList,
    /// `li`.
    Item,
    /// `blockquote`.
    Quote,
    /// `pre`.
    Pre,
}

impl Role {
    /// Whether the element is a block (H6 boundaries, H5 closing with an inline).
    pub(super) const fn is_block(self) -> bool {
        self as u8 >= Role::Block as u8
    }

    /// The list code of a list's items, for `ul` and `ol`.
    pub(super) const fn list_code(self) -> Option<StyleCode> {
        match self {
            Role::BulletList => Some(StyleCode::Bullet),
            Role::OrderedList => Some(StyleCode::Ordered),
            _ => None,
        }
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
    /// No effect: every slot left to the ancestors.
    pub(super) const NONE: Self = Self {
        slots: [None; INLINE_SLOTS],
    };

    /// The effect with `code` added.
    #[cfg(test)]
    pub(super) fn with(mut self, code: StyleCode) -> Self {
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

/// The element names of the H3 table other than the I3 tags (and `font`, for its `color`).
const ELEMENTS: [&str; 33] = [
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "small",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "p",
    "div",
    "hr",
    "section",
    "article",
    "header",
    "footer",
    "table",
    "tr",
    "br",
    "span",
    "font",
];

/// Id of the first I3 tag element: a tag's id is this plus its [`Tag::index`], in
/// [`Tag::ALL`] order, so a new tag of the vocabulary is an element with no edit here.
const TAG_BASE: u32 = ELEMENTS.len() as u32;

/// The element names the semantics knows by id (H3, and `font` for its `color`): an id is
/// an index here. The H3 elements, then the I3 tags as elements of the same name and
/// effect ("the dialect's angle spelling"). Other names are interned per message.
// Indexing in a const initialiser cannot panic at run time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
pub(super) const KNOWN: [&str; ELEMENTS.len() + Tag::COUNT] = {
    let mut all = [""; ELEMENTS.len() + Tag::COUNT];
    let mut k = 0;
    while k < ELEMENTS.len() {
        all[k] = ELEMENTS[k];
        k += 1;
    }
    let mut t = 0;
    while t < Tag::COUNT {
        all[ELEMENTS.len() + t] = Tag::ALL[t].name();
        t += 1;
    }
    all
};

/// Id of `br` in [`KNOWN`].
pub(super) const BR: u32 = 30;
/// Id of `hr` in [`KNOWN`] (the known void element besides `br`).
pub(super) const HR: u32 = 23;
/// Id of `font` in [`KNOWN`].
pub(super) const FONT: u32 = 32;

/// The id of a known element name (already ASCII-lowercased): its index in [`KNOWN`],
/// matched by length, then bytes (no hashing, no allocation); an I3 tag's name through the
/// vocabulary.
#[inline]
pub(super) fn known(name: &str) -> Option<u32> {
    element(name).or_else(|| Some(TAG_BASE + Tag::from_name(name.as_bytes())?.index() as u32))
}

/// The id of an H3 element other than the I3 tags, in [`ELEMENTS`].
#[inline]
fn element(name: &str) -> Option<u32> {
    Some(match name.len() {
        1 => match name {
            "b" => 0,
            "i" => 2,
            "u" => 4,
            "s" => 6,
            "p" => 21,
            _ => return None,
        },
        2 => match name {
            "em" => 3,
            "h1" => 9,
            "h2" => 10,
            "h3" => 11,
            "h4" => 12,
            "h5" => 13,
            "h6" => 14,
            "ul" => 16,
            "ol" => 17,
            "li" => 18,
            "hr" => 23,
            "tr" => 29,
            "br" => 30,
            _ => return None,
        },
        3 => match name {
            "ins" => 5,
            "del" => 8,
            "pre" => 20,
            "div" => 22,
            _ => return None,
        },
        4 => match name {
            "span" => 31,
            "font" => 32,
            _ => return None,
        },
        5 => match name {
            "small" => 15,
            "table" => 28,
            _ => return None,
        },
        6 => match name {
            "strong" => 1,
            "strike" => 7,
            "header" => 26,
            "footer" => 27,
            _ => return None,
        },
        7 => match name {
            "section" => 24,
            "article" => 25,
            _ => return None,
        },
        10 => match name {
            "blockquote" => 19,
            _ => return None,
        },
        _ => return None,
    })
}

/// The H3 table: role and own effect of a known element (an id of [`KNOWN`]); `None`
/// (any other name) is [`Role::Unsupported`]. The I3 tags are elements of the same name and
/// effect ("the dialect's angle spelling"). A look in [`CLASSES`], which the compiler fills.
#[inline]
pub(super) fn classify(id: Option<u32>) -> (Role, Effect) {
    id.and_then(|k| CLASSES.get(k as usize))
        .copied()
        .unwrap_or((Role::Unsupported, Effect::NONE))
}

/// [`classify`] of every id of [`KNOWN`], evaluated at compile time.
// Indexing in a static's initialiser cannot panic at run time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
static CLASSES: [(Role, Effect); KNOWN.len()] = {
    /// `e` with `code` in its slot.
    const fn with(mut e: Effect, code: StyleCode) -> Effect {
        e.slots[code.slot()] = Some(Some(code));
        e
    }
    /// The H3 table by id.
    const fn class_of(id: u32) -> (Role, Effect) {
        let e = Effect::NONE;
        match id {
            0 | 1 => (Role::Inline, with(e, StyleCode::Bold)),
            2 | 3 => (Role::Inline, with(e, StyleCode::Italic)),
            4 | 5 => (Role::Inline, with(e, StyleCode::Underline)),
            6..=8 => (Role::Inline, with(e, StyleCode::Strike)),
            9..=12 => (
                Role::Block,
                with(with(e, StyleCode::Bold), StyleCode::Large),
            ),
            13 | 14 => (Role::Block, with(e, StyleCode::Bold)),
            15 => (Role::Inline, with(e, StyleCode::Small)),
            16 => (Role::BulletList, e),
            17 => (Role::OrderedList, e),
            18 => (Role::Item, e),
            19 => (Role::Quote, e),
            20 => (Role::Pre, e),
            21..=29 => (Role::Block, e),
            30 => (Role::Break, e),
            31 | 32 => (Role::Plain, e),
            _ if id >= TAG_BASE && ((id - TAG_BASE) as usize) < Tag::COUNT => (
                Role::Inline,
                with(e, Tag::ALL[(id - TAG_BASE) as usize].code()),
            ),
            _ => (Role::Unsupported, e),
        }
    }
    let mut all = [(Role::Unsupported, Effect::NONE); KNOWN.len()];
    let mut k = 0;
    while k < KNOWN.len() {
        all[k] = class_of(k as u32);
        k += 1;
    }
    all
};

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
