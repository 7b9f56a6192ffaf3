//! The dialect's vocabulary beyond the wire codes of [`StyleCode`]: the I3 tags (also H3
//! elements) with their two spellings, how the markdown dialect writes each inline code,
//! and the palette and size tables that the markdown parser, HTML `style` / `<font color>`
//! (H4) and both renderers (W1, W2) read. The tags are declared once, in `tags!`; the codes
//! once, in `style.rs`. [`row`] matches every code exhaustively, so a new code does not
//! compile until it says how the dialect and the renderers write it; [`PALETTE`] and
//! [`SIZES`] are lists, which tests check against the code table (a new colour without its
//! palette row fails `cargo test`, not the build).

pub(crate) mod style;

use crate::StyleCode;

/// The I3 tags, one row each: variant, name and the code it adds. [`Tag`] with its
/// `COUNT`, `ALL`, `name`, `code`, `from_name` and `LONGEST_NAME` is generated from it, and
/// the HTML element table and the npm package's toolbar read it, so a new tag is one row.
macro_rules! tags {
    ($($variant:ident = $name:literal => $code:ident;)*) => {
        /// An I3 tag of the markdown dialect, `{name}` or `<name>`; also an HTML element (H3).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Tag {
            $(#[doc = concat!("`{", $name, "}`")] $variant,)*
        }

        impl Tag {
            /// Every tag, in declaration order.
            #[cfg_attr(not(feature = "html"), allow(dead_code))]
            pub(crate) const ALL: [Tag; [$(Tag::$variant),*].len()] = [$(Tag::$variant),*];

            /// Number of tags.
            pub(crate) const COUNT: usize = Tag::ALL.len();

            /// The name between the brackets (lower case, I3), also the element name (H3)
            /// and, for a colour, its name in the dialects (H4 `color: red`).
            pub(crate) const fn name(self) -> &'static str {
                match self {
                    $(Tag::$variant => $name,)*
                }
            }

            /// The code the tag adds (I3).
            pub(crate) const fn code(self) -> StyleCode {
                match self {
                    $(Tag::$variant => StyleCode::$code,)*
                }
            }

            /// The tag named `name` exactly (I3 names are lower case; H3 lowercases first).
            #[cfg_attr(not(feature = "html"), allow(dead_code))]
            pub(crate) fn from_name(name: &[u8]) -> Option<Tag> {
                if name.len() > Tag::LONGEST_NAME {
                    return None;
                }
                Tag::from_key(name_key(name), name.len())
            }

            /// Length in bytes of the longest name (the I3 scan looks no further).
            pub(crate) const LONGEST_NAME: usize = {
                let mut longest = 0;
                $(if $name.len() > longest {
                    longest = $name.len();
                })*
                longest
            };
        }
    };
}

tags! {
    Red = "red" => Red;
    Orange = "orange" => Orange;
    Yellow = "yellow" => Yellow;
    Green = "green" => Green;
    Big = "big" => Large;
    Underline = "underline" => Underline;
}

impl Tag {
    /// Position of the tag in the declaration order, for per-tag tables.
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The tag whose name's bytes, packed by [`name_key`], are `key`, `len` bytes long:
    /// integer compares instead of a string compare per tag (the markdown scan reads every
    /// `{` and `<` as a possible tag, I3).
    pub(crate) fn from_key(key: u128, len: usize) -> Option<Tag> {
        Tag::from_key_and_word(key, key as u64, len)
    }

    /// [`Tag::from_key`] where the bytes from the name's start are also at hand unmasked
    /// (`word`, the first eight, whatever follows the name): the one tag it can be is
    /// read from the [`HASH_PREFIX`] bytes that every name has, which do not wait for the
    /// name's end to be found; only the compare that confirms it does (a shorter chain of
    /// dependent loads for the markdown scan's `name_in_chunk`).
    #[inline]
    pub(crate) fn from_key_and_word(key: u128, word: u64, len: usize) -> Option<Tag> {
        // the one tag the key can be (a perfect hash of the names), then its key compared
        let k = usize::from(BY_HASH.get(key_hash(word, HASH_MUL)).copied().unwrap_or(0));
        let (tag, want) = (Tag::ALL.get(k)?, KEYS.get(k)?);
        (*want == (key, len)).then_some(*tag)
    }
}

/// Bytes of a name that [`key_hash`] reads: as many as the shortest name has, up to eight.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
const HASH_PREFIX: usize = {
    let mut shortest = 8;
    let mut k = 0;
    while k < Tag::COUNT {
        if KEYS[k].1 < shortest {
            shortest = KEYS[k].1;
        }
        k += 1;
    }
    shortest
};

// A name of no byte would leave nothing to hash.
const _: () = assert!(HASH_PREFIX > 0, "a tag name is empty");

/// The low [`HASH_PREFIX`] bytes of a word.
const PREFIX_MASK: u64 = u64::MAX >> (64 - 8 * HASH_PREFIX);

/// Bits of [`key_hash`]: a table of at least twice as many slots as there are tags.
const HASH_BITS: u32 = (2 * Tag::COUNT).next_power_of_two().trailing_zeros();

/// A name's slot in [`BY_HASH`]: its first [`HASH_PREFIX`] bytes (the low bytes of
/// `word`) times `mul`, the top [`HASH_BITS`] bits. The names differ in those bytes, or
/// [`HASH_MUL`] would find no perfect hash and the build would fail; the whole key is
/// compared after.
#[inline]
const fn key_hash(word: u64, mul: u64) -> usize {
    ((word & PREFIX_MASK).wrapping_mul(mul) >> (64 - HASH_BITS)) as usize
}

/// The first odd multiplier of a pseudo-random sequence that gives every tag's key a slot
/// of its own, found at compile time: [`key_hash`] is then a perfect hash of the names.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
const HASH_MUL: u64 = {
    let mut mul: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut tries = 0;
    loop {
        assert!(tries < 1000, "no perfect hash of the tag names");
        let mut taken = [false; 1 << HASH_BITS];
        let mut k = 0;
        while k < Tag::COUNT && !taken[key_hash(KEYS[k].0 as u64, mul)] {
            taken[key_hash(KEYS[k].0 as u64, mul)] = true;
            k += 1;
        }
        if k == Tag::COUNT {
            break mul;
        }
        // the next odd candidate, from a linear congruential sequence
        mul = mul
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407)
            | 1;
        tries += 1;
    }
};

/// Per [`key_hash`] slot, the index of the tag whose key lands there (or of any tag, whose
/// key then fails the compare).
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static BY_HASH: [u8; 1 << HASH_BITS] = {
    let mut t = [0u8; 1 << HASH_BITS];
    let mut k = 0;
    while k < Tag::COUNT {
        t[key_hash(KEYS[k].0 as u64, HASH_MUL)] = k as u8;
        k += 1;
    }
    t
};

// BY_HASH holds tag indexes as bytes.
const _: () = assert!(Tag::COUNT <= 256);

/// A name's first sixteen bytes packed into an integer, the first byte lowest.
// A const fn (the key table is built at compile time): indexes are below `name.len()`.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn name_key(name: &[u8]) -> u128 {
    let mut key = 0;
    let mut i = 0;
    while i < name.len() && i < 16 {
        key |= (name[i] as u128) << (8 * i);
        i += 1;
    }
    key
}

// Keys hold sixteen bytes: a longer tag name would need a wider key.
const _: () = assert!(Tag::LONGEST_NAME <= 16);

/// Every tag's name key and length, in declaration order.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
const KEYS: [(u128, usize); Tag::COUNT] = {
    let mut keys = [(0, 0); Tag::COUNT];
    let mut k = 0;
    while k < Tag::COUNT {
        let name = Tag::ALL[k].name().as_bytes();
        let mut i = 0;
        while i < name.len() {
            // the markdown scan stops reading a name at any other byte (I3)
            assert!(
                name[i].is_ascii_lowercase(),
                "tag names are lower-case ASCII letters"
            );
            i += 1;
        }
        keys[k] = (name_key(name), name.len());
        k += 1;
    }
    keys
};

/// The two spellings of an I3 tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// `{name}` … `{/name}`.
    Brace,
    /// `<name>` … `</name>`.
    Angle,
}

impl Spelling {
    /// The spelling whose tags open with `b`.
    pub(crate) const fn opened_by(b: u8) -> Option<Spelling> {
        match b {
            b'{' => Some(Spelling::Brace),
            b'<' => Some(Spelling::Angle),
            _ => None,
        }
    }

    /// The bracket that ends a tag of this spelling.
    pub(crate) const fn close_bracket(self) -> u8 {
        match self {
            Spelling::Brace => b'}',
            Spelling::Angle => b'>',
        }
    }

    /// Position in `[Brace, Angle]`, for per-spelling tables.
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// How the markdown dialect writes an inline code, if it can (W2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Markup {
    /// A delimiter pair (I4, I5).
    Delim(&'static str),
    /// A tag pair (I3).
    Tag(Tag),
    /// No inline markdown spelling: a line code (a line prefix, P3, P4) or a code that
    /// `to_markdown` reports as lost.
    Absent,
}

/// What the dialects and renderers do with one code: its row of the vocabulary table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// Its markdown spelling (W2).
    pub markdown: Markup,
    /// The element the HTML renderer writes (W1): an inline code's own element or `span`
    /// (styled from [`PALETTE`] or [`SIZES`]), a list code's list; none for an indent.
    pub element: &'static str,
    /// The list marker of a list code (P3), written after the indent.
    pub list_marker: Option<&'static str>,
}

impl Row {
    const fn inline(markdown: Markup, element: &'static str) -> Row {
        Row {
            markdown,
            element,
            list_marker: None,
        }
    }

    const fn list(marker: &'static str, element: &'static str) -> Row {
        Row {
            markdown: Markup::Absent,
            element,
            list_marker: Some(marker),
        }
    }

    const INDENT: Row = Row {
        markdown: Markup::Absent,
        element: "",
        list_marker: None,
    };
}

/// The vocabulary table: the row of every code, in table order.
pub(crate) const fn row(code: StyleCode) -> Row {
    use Markup::{Absent as Lost, Delim};
    match code {
        StyleCode::Bold => Row::inline(Delim("**"), "b"),
        StyleCode::Italic => Row::inline(Delim("*"), "i"),
        StyleCode::Underline => Row::inline(Markup::Tag(Tag::Underline), "u"),
        StyleCode::Strike => Row::inline(Delim("~~"), "s"),
        StyleCode::Small | StyleCode::Normal => Row::inline(Lost, "span"),
        StyleCode::Large => Row::inline(Markup::Tag(Tag::Big), "span"),
        StyleCode::VeryLarge | StyleCode::DefaultColour => Row::inline(Lost, "span"),
        StyleCode::Green => Row::inline(Markup::Tag(Tag::Green), "span"),
        StyleCode::Yellow => Row::inline(Markup::Tag(Tag::Yellow), "span"),
        StyleCode::Orange => Row::inline(Markup::Tag(Tag::Orange), "span"),
        StyleCode::Red => Row::inline(Markup::Tag(Tag::Red), "span"),
        StyleCode::Bullet => Row::list("- ", "ul"),
        StyleCode::Ordered => Row::list("1. ", "ol"),
        StyleCode::Indent1
        | StyleCode::Indent2
        | StyleCode::Indent3
        | StyleCode::Indent4
        | StyleCode::Indent5 => Row::INDENT,
    }
}

/// The markdown spelling of `code`.
pub(crate) const fn markup(code: StyleCode) -> Markup {
    row(code).markdown
}

/// One colour of the palette (spec 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Colour {
    /// Its code, `c_` and the hex of `rgb`.
    pub code: StyleCode,
    /// Its tag, whose name is also the colour's name in H4 (the default colour has none).
    pub tag: Option<Tag>,
    /// Red, green, blue: `#rrggbb` in H4 and in the HTML renderer (W1).
    pub rgb: [u8; 3],
}

/// The palette, in table order.
#[rustfmt::skip]
pub(crate) const PALETTE: [Colour; 5] = [
    Colour { code: StyleCode::DefaultColour, tag: None, rgb: [0x05, 0x0a, 0x19] },
    Colour { code: StyleCode::Green, tag: Some(Tag::Green), rgb: [0x15, 0xa8, 0x5f] },
    Colour { code: StyleCode::Yellow, tag: Some(Tag::Yellow), rgb: [0xf7, 0xb5, 0x03] },
    Colour { code: StyleCode::Orange, tag: Some(Tag::Orange), rgb: [0xf2, 0x78, 0x06] },
    Colour { code: StyleCode::Red, tag: Some(Tag::Red), rgb: [0xdb, 0x34, 0x2e] },
];

/// The sizes with their CSS pixel size (H4 `font-size`, W1), smallest first.
pub(crate) const SIZES: [(StyleCode, u32); 4] = [
    (StyleCode::Small, 13),
    (StyleCode::Normal, 15),
    (StyleCode::Large, 18),
    (StyleCode::VeryLarge, 20),
];

/// Appends `#rrggbb` (lower-case hex).
pub(crate) fn push_hex(out: &mut String, rgb: [u8; 3]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('#');
    for b in rgb {
        for nibble in [b >> 4, b & 0xf] {
            if let Some(&h) = HEX.get(usize::from(nibble)) {
                out.push(char::from(h));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Family, StyleSet};

    #[test]
    fn every_tag_is_named_and_spelled_once() {
        // ALL lists every tag: the last declared one closes it
        assert_eq!(Tag::Underline.index() + 1, Tag::COUNT);
        for (k, t) in Tag::ALL.into_iter().enumerate() {
            assert_eq!(t.index(), k);
            assert_eq!(Tag::from_name(t.name().as_bytes()), Some(t));
            assert!(t.name().len() <= Tag::LONGEST_NAME);
            assert_eq!(markup(t.code()), Markup::Tag(t), "{t:?}");
        }
    }

    /// I3, H3: the perfect hash finds every name, and nothing else: each name with a byte
    /// changed, cut short, run on or doubled, and the names' bytes in other orders, read
    /// as a linear search over the names reads them.
    #[test]
    fn names_are_found_by_hash_exactly_i3() {
        let linear = |name: &[u8]| Tag::ALL.into_iter().find(|t| t.name().as_bytes() == name);
        let mut rng = crate::rng::Rng(0xC2B2_AE3D_27D4_EB4F);
        let mut found = 0;
        for k in 0..50_000 {
            let t = Tag::ALL[k % Tag::COUNT];
            let mut name = t.name().as_bytes().to_vec();
            match rng.below(6) {
                0 => {
                    let at = rng.below(name.len());
                    name[at] = b'a' + rng.below(26) as u8;
                }
                1 => name.truncate(rng.below(name.len())),
                2 => name.push(b'a' + rng.below(26) as u8),
                3 => name.extend_from_slice(Tag::ALL[rng.below(Tag::COUNT)].name().as_bytes()),
                4 => {
                    for i in (1..name.len()).rev() {
                        name.swap(i, rng.below(i + 1));
                    }
                }
                _ => {}
            }
            let want = linear(&name);
            assert_eq!(
                Tag::from_name(&name),
                want,
                "{:?}",
                String::from_utf8_lossy(&name)
            );
            found += usize::from(want.is_some());
        }
        assert!(found > 5_000, "{found}");
    }

    #[test]
    fn palette_codes_spell_their_rgb_1_1() {
        let colours: Vec<_> = StyleCode::ALL
            .into_iter()
            .filter(|c| c.family() == Family::Colour)
            .collect();
        assert_eq!(colours, PALETTE.map(|c| c.code));
        for c in PALETTE {
            let mut hex = String::new();
            push_hex(&mut hex, c.rgb);
            assert_eq!(c.code.as_str().strip_prefix("c_"), hex.strip_prefix('#'));
            if let Some(t) = c.tag {
                assert_eq!(t.code(), c.code);
            }
        }
        let sizes: Vec<_> = StyleCode::ALL
            .into_iter()
            .filter(|c| c.family() == Family::Size)
            .collect();
        assert_eq!(sizes, SIZES.map(|s| s.0));
        for (c, px) in SIZES {
            assert_eq!(c.as_str(), format!("f_{px}"));
        }
    }

    #[test]
    fn rows_fit_their_family() {
        for c in StyleCode::ALL {
            let r = row(c);
            assert_eq!(r.list_marker.is_some(), c.family() == Family::List, "{c}");
            assert_eq!(r.element.is_empty(), c.family() == Family::Indent, "{c}");
            if StyleSet::of(c).without_line_codes().is_empty() {
                assert_eq!(r.markdown, Markup::Absent, "{c}: line codes are prefixes");
            }
        }
    }
}
