//! Style codes and style sets: the closed code table of spec 1.1 and the canonical
//! per-family set of C4 (one code per family, table order on output).

use core::fmt;
use core::str::FromStr;

/// The code table of spec 1.1, the one hand-written home of the wire codes: each row is a
/// variant, its wire spelling, its family and a word for its doc. [`StyleCode`], its
/// [`ALL`](StyleCode::ALL), [`as_str`](StyleCode::as_str), [`family`](StyleCode::family) and
/// its `FromStr` are generated from it here; the npm package's code list, `StyleCode` type
/// and family masks are generated from those by `tools/regen` (`src/generate.rs`).
/// Rows are in table order (C4): flags, then size, colour, list and indent.
macro_rules! style_codes {
    ($($variant:ident = $wire:literal, $family:ident, $doc:literal;)*) => {
        /// One wire style code of the closed set (spec 1.1), such as `b` or `c_db342e`.
        ///
        /// # Examples
        ///
        /// ```
        /// use chatmark::StyleCode;
        /// let red: StyleCode = "c_db342e".parse().unwrap();
        /// assert_eq!(red, StyleCode::Red);
        /// assert_eq!(red.to_string(), "c_db342e");
        /// assert!("B".parse::<StyleCode>().is_err()); // codes are case-sensitive (N2)
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum StyleCode {
            $(#[doc = concat!("`", $wire, "` ", $doc, ".")] $variant,)*
        }

        impl StyleCode {
            /// Every code, in canonical (table) order.
            ///
            /// # Examples
            ///
            /// ```
            /// assert_eq!(chatmark::StyleCode::ALL.len(), 20);
            /// assert_eq!(chatmark::StyleCode::ALL[0].as_str(), "b");
            /// ```
            pub const ALL: [StyleCode; [$(StyleCode::$variant),*].len()] = [$(StyleCode::$variant),*];

            /// The wire spelling of the code.
            ///
            /// # Examples
            ///
            /// ```
            /// assert_eq!(chatmark::StyleCode::Indent3.as_str(), "ind_3");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(StyleCode::$variant => $wire,)*
                }
            }

            /// The family the code belongs to.
            ///
            /// # Examples
            ///
            /// ```
            /// assert_eq!(chatmark::StyleCode::Ordered.family(), chatmark::Family::List);
            /// ```
            pub const fn family(self) -> Family {
                match self {
                    $(StyleCode::$variant => Family::$family,)*
                }
            }
        }

        impl FromStr for StyleCode {
            type Err = UnknownStyleCode;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                // a match, not a search of ALL: the compiler dispatches on length and bytes
                Ok(match s {
                    $($wire => StyleCode::$variant,)*
                    _ => return Err(UnknownStyleCode(s.to_owned())),
                })
            }
        }
    };
}

style_codes! {
    Bold = "b", Flag, "bold";
    Italic = "i", Flag, "italic";
    Underline = "u", Flag, "underline";
    Strike = "s", Flag, "strike";
    Small = "f_13", Size, "small";
    Normal = "f_15", Size, "normal size";
    Large = "f_18", Size, "large";
    VeryLarge = "f_20", Size, "very large";
    DefaultColour = "c_050a19", Colour, "default colour";
    Green = "c_15a85f", Colour, "green";
    Yellow = "c_f7b503", Colour, "yellow";
    Orange = "c_f27806", Colour, "orange";
    Red = "c_db342e", Colour, "red";
    Bullet = "lst_1", List, "bullet list item";
    Ordered = "lst_2", List, "ordered list item";
    Indent1 = "ind_1", Indent, "indent level 1";
    Indent2 = "ind_2", Indent, "indent level 2";
    Indent3 = "ind_3", Indent, "indent level 3";
    Indent4 = "ind_4", Indent, "indent level 4";
    Indent5 = "ind_5", Indent, "indent level 5";
}

/// The style families of spec 1.1: at most one code of each of the last four per run.
///
/// # Examples
///
/// ```
/// use chatmark::{Family, StyleCode};
/// assert_eq!(StyleCode::Red.family(), Family::Colour);
/// assert_eq!(StyleCode::Bold.family(), Family::Flag);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `b i u s`: independent flags.
    Flag,
    /// `f_*`.
    Size,
    /// `c_*`.
    Colour,
    /// `lst_*`.
    List,
    /// `ind_*`.
    Indent,
}

impl StyleCode {
    /// The flag codes (`b i u s`), in table order: slots `0..4`.
    pub(crate) const FLAGS: [StyleCode; 4] = [
        StyleCode::Bold,
        StyleCode::Italic,
        StyleCode::Underline,
        StyleCode::Strike,
    ];

    /// The code's style slot, the one slot index of the crate: each flag has its own
    /// (`b i u s` = 0..4), then one per single-code family (size 4, colour 5, list 6,
    /// indent 7). A set holds at most one code per slot; the inline slots come first.
    pub(crate) const fn slot(self) -> usize {
        match self.family() {
            Family::Flag => self.index() as usize,
            Family::Size => 4,
            Family::Colour => 5,
            Family::List => 6,
            Family::Indent => 7,
        }
    }

    /// The level of an indent code (1..=5), the inverse of [`StyleCode::indent`].
    pub(crate) const fn indent_level(self) -> Option<usize> {
        match self.family() {
            Family::Indent => Some((self.index() - StyleCode::Indent1.index()) as usize + 1),
            Family::Flag | Family::Size | Family::Colour | Family::List => None,
        }
    }

    /// Whether the code is a line code for client runs and HTML (`lst_*`, `ind_*`, spec 1.3).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark::StyleCode::Bullet.is_line_code());
    /// assert!(!chatmark::StyleCode::Bold.is_line_code());
    /// ```
    pub const fn is_line_code(self) -> bool {
        matches!(self.family(), Family::List | Family::Indent)
    }

    /// The indent code for `level` (1..=5; larger levels cap at 5, 0 gives `None`), as P4 and H8 say.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::StyleCode;
    /// assert_eq!(StyleCode::indent(7), Some(StyleCode::Indent5));
    /// assert_eq!(StyleCode::indent(0), None);
    /// ```
    pub const fn indent(level: usize) -> Option<StyleCode> {
        match level {
            0 => None,
            1 => Some(StyleCode::Indent1),
            2 => Some(StyleCode::Indent2),
            3 => Some(StyleCode::Indent3),
            4 => Some(StyleCode::Indent4),
            _ => Some(StyleCode::Indent5),
        }
    }

    /// Position in the table, 0..20.
    pub(crate) const fn index(self) -> u8 {
        self as u8
    }
}

/// Number of style slots ([`StyleCode::slot`]).
pub(crate) const SLOTS: usize = 8;
/// The inline slots (`b i u s`, size, colour) are `0..INLINE_SLOTS`; the line slots follow.
pub(crate) const INLINE_SLOTS: usize = 6;

// The slots are the flags, then one per single-code family (size, colour, list, indent).
const _: () = assert!(StyleCode::FLAGS.len() + 4 == SLOTS);

impl fmt::Display for StyleCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a string that is not one of the closed set of codes.
///
/// # Examples
///
/// ```
/// let err = "zz".parse::<chatmark::StyleCode>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown style code \"zz\"");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown style code {}", crate::diagnostics::msg::Quoted(.0))]
pub struct UnknownStyleCode(pub String);

/// A set of style codes with at most one code per family, iterated in canonical order (C4).
///
/// Inserting a code of a family that already has one replaces it (the later or inner code
/// wins, spec 1.3).
///
/// # Examples
///
/// ```
/// use chatmark::{StyleCode, StyleSet};
/// let mut set = StyleSet::EMPTY;
/// set.insert(StyleCode::Red);
/// set.insert(StyleCode::Bold);
/// set.insert(StyleCode::Green); // replaces red
/// let codes: Vec<&str> = set.iter().map(|c| c.as_str()).collect();
/// assert_eq!(codes, ["b", "c_15a85f"]);
/// ```
// One integer: equality, emptiness and merging are a few word operations (SWAR) on the
// parsers' hot paths, where five fields took a compare or a branch each.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StyleSet(u64);

/// A byte lane of [`StyleSet`]'s word per family: the flags' bits (`b i u s`) in the lowest,
/// then per single-code family its code's table index plus one, 0 for none.
const fn lane(family: Family) -> u32 {
    match family {
        Family::Flag => 0,
        Family::Size => 8,
        Family::Colour => 16,
        Family::List => 24,
        Family::Indent => 32,
    }
}

/// A set prepared to be laid over others ([`StyleSet::overlay`]): its codes and the lanes
/// they take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overlay {
    take: u64,
    set: u64,
}

impl Overlay {
    /// The overlay of the empty set: it leaves a set as it is.
    pub(crate) const NONE: Overlay = Overlay { take: 0, set: 0 };

    /// The set the overlay was made from.
    #[inline]
    pub(crate) const fn set(self) -> StyleSet {
        StyleSet(self.set)
    }
}

/// The flags' lane.
const FLAG_LANE: u64 = 0xff;
/// The line codes' lanes (list and indent).
const LINE_LANES: u64 = 0xffff << 24;
/// `0x7f` and `0x80` in every byte.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = 0x8080_8080_8080_8080;

impl core::fmt::Debug for StyleSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.as_str()))
            .finish()
    }
}

impl StyleSet {
    /// The value in `family`'s lane (for a single-code family: its code's index plus one).
    const fn lane_value(self, family: Family) -> u8 {
        (self.0 >> lane(family)) as u8
    }
}

impl StyleSet {
    /// The set with no code.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark::StyleSet::EMPTY.is_empty());
    /// ```
    pub const EMPTY: StyleSet = StyleSet(0);

    /// A set holding one code.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// assert!(StyleSet::of(StyleCode::Bold).contains(StyleCode::Bold));
    /// ```
    pub const fn of(code: StyleCode) -> StyleSet {
        let mut s = StyleSet::EMPTY;
        s.insert(code);
        s
    }

    /// Whether the set holds no code.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(!chatmark::StyleSet::of(chatmark::StyleCode::Italic).is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// This set with the flags (`b i u s`) of `other` added: the markdown parser's inline
    /// codes, open tags' codes plus the delimiter pairs' flags, with no other family to
    /// merge.
    pub(crate) const fn with_flags_of(self, other: StyleSet) -> StyleSet {
        StyleSet(self.0 | (other.0 & FLAG_LANE))
    }

    /// The set as a bit mask: bit `k` for the `k`-th code of the table of spec 1.1
    /// ([`StyleCode::ALL`]), the compact form the npm package passes across its boundary.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let mut set = StyleSet::of(StyleCode::Bold);
    /// set.insert(StyleCode::Red);
    /// assert_eq!(set.bits(), 1 << 0 | 1 << 12);
    /// assert_eq!(StyleSet::EMPTY.bits(), 0);
    /// ```
    pub const fn bits(self) -> u32 {
        /// A family's bit: its field holds the code's table index plus one, 0 for none.
        const fn bit(v: u8) -> u32 {
            if v == 0 {
                0
            } else {
                1 << (v - 1)
            }
        }
        (self.0 & FLAG_LANE) as u32
            | bit(self.lane_value(Family::Size))
            | bit(self.lane_value(Family::Colour))
            | bit(self.lane_value(Family::List))
            | bit(self.lane_value(Family::Indent))
    }

    /// Adds `code`, replacing any other code of its family.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let mut s = StyleSet::of(StyleCode::Small);
    /// s.insert(StyleCode::VeryLarge);
    /// assert_eq!(s.get(chatmark::Family::Size), Some(StyleCode::VeryLarge));
    /// ```
    pub const fn insert(&mut self, code: StyleCode) {
        match code.family() {
            Family::Flag => self.0 |= 1 << code.index(),
            family => {
                let at = lane(family);
                self.0 = (self.0 & !(0xff << at)) | ((code.index() as u64 + 1) << at);
            }
        }
    }

    /// Removes `code` if present (a different code of the same family stays).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let mut s = StyleSet::of(StyleCode::Bold);
    /// s.remove(StyleCode::Bold);
    /// assert!(s.is_empty());
    /// ```
    pub const fn remove(&mut self, code: StyleCode) {
        match code.family() {
            Family::Flag => self.0 &= !(1 << code.index()),
            family => {
                if self.lane_value(family) == code.index() + 1 {
                    self.0 &= !(0xff << lane(family));
                }
            }
        }
    }

    /// Whether `code` is in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// assert!(!StyleSet::of(StyleCode::Red).contains(StyleCode::Green));
    /// ```
    pub const fn contains(&self, code: StyleCode) -> bool {
        match code.family() {
            Family::Flag => self.0 & (1 << code.index()) != 0,
            family => self.lane_value(family) == code.index() + 1,
        }
    }

    /// The code of a single-code family, if any (`None` for [`Family::Flag`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{Family, StyleCode, StyleSet};
    /// assert_eq!(StyleSet::of(StyleCode::Ordered).get(Family::List), Some(StyleCode::Ordered));
    /// assert_eq!(StyleSet::EMPTY.get(Family::Colour), None);
    /// ```
    pub fn get(&self, family: Family) -> Option<StyleCode> {
        let v = match family {
            Family::Flag => 0,
            family => self.lane_value(family),
        };
        StyleCode::ALL.get(usize::from(v).checked_sub(1)?).copied()
    }

    /// Every code of `other` added on top of `self` (`other` wins within a family).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let s = StyleSet::of(StyleCode::Red).with(StyleSet::of(StyleCode::Green));
    /// assert!(s.contains(StyleCode::Green) && !s.contains(StyleCode::Red));
    /// ```
    #[must_use]
    pub const fn with(self, other: StyleSet) -> StyleSet {
        // `other`'s lanes that hold nothing are zero, and its flags join `self`'s: so all of
        // `other` goes in, over `self` with the lanes `other` holds cleared
        self.under(other.overlay())
    }

    /// The bits of inline slot `slot` (`b i u s`, size, colour) in a set's word, all
    /// below bit 24: the one bit of a flag, the byte lane of a family (none past the
    /// inline slots).
    pub(crate) const fn inline_slot_bits(slot: usize) -> u32 {
        match slot {
            0..4 => 1 << slot,
            4 => 0xff << lane(Family::Size),
            5 => 0xff << lane(Family::Colour),
            _ => 0,
        }
    }

    /// The set's word as 32 bits when it holds inline codes only (the output walk's
    /// stacks of open tags keep a code so).
    pub(crate) const fn inline_bits(self) -> u32 {
        self.0 as u32
    }

    /// `self` with the inline slot whose bits are `lane` ([`StyleSet::inline_slot_bits`])
    /// holding exactly what `bits` holds (a set's [`StyleSet::inline_bits`] of at most that
    /// slot's code, 0 for none): two word operations where a removal and an insertion
    /// dispatch on the family each.
    #[inline]
    #[must_use]
    pub(crate) const fn with_slot_bits(self, lane: u32, bits: u32) -> StyleSet {
        StyleSet((self.0 & !(lane as u64)) | bits as u64)
    }

    /// What [`StyleSet::with`] takes of `self`, worked out once, for a set laid over many
    /// ([`StyleSet::under`]).
    pub(crate) const fn overlay(self) -> Overlay {
        let o = self.0;
        // 0xff in each lane that holds a code (no carry crosses a byte: each lane's low
        // seven bits plus 0x7f stay below 0x100), the flags' lane left out
        let held = ((((o & LOW7) + LOW7) | o) & HIGH) >> 7;
        Overlay {
            take: held.wrapping_mul(0xff) & !FLAG_LANE,
            set: o,
        }
    }

    /// [`StyleSet::with`] of the set `over` was made from, in two word operations.
    #[inline]
    #[must_use]
    pub(crate) const fn under(self, over: Overlay) -> StyleSet {
        StyleSet((self.0 & !over.take) | over.set)
    }

    /// `self` with the line codes of `line` (`lst_*`, `ind_*`) in place of its own, and
    /// nothing else of `line`: [`StyleSet::with`] of a set of line codes, in two masks.
    #[inline]
    #[must_use]
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    pub(crate) const fn with_line_codes(self, line: StyleSet) -> StyleSet {
        StyleSet((self.0 & !LINE_LANES) | (line.0 & LINE_LANES))
    }

    /// The set without its line codes (`lst_*`, `ind_*`): what a line break may carry (1.3).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let s = StyleSet::of(StyleCode::Bullet).with(StyleSet::of(StyleCode::Bold));
    /// assert_eq!(s.without_line_codes(), StyleSet::of(StyleCode::Bold));
    /// ```
    #[must_use]
    pub const fn without_line_codes(self) -> StyleSet {
        StyleSet(self.0 & !LINE_LANES)
    }

    /// The codes in canonical order (C4).
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// let s = StyleSet::of(StyleCode::Indent1).with(StyleSet::of(StyleCode::Italic));
    /// assert_eq!(s.iter().collect::<Vec<_>>(), [StyleCode::Italic, StyleCode::Indent1]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = StyleCode> + '_ {
        let flags = self.0 & FLAG_LANE;
        let flag_codes = [
            StyleCode::Bold,
            StyleCode::Italic,
            StyleCode::Underline,
            StyleCode::Strike,
        ]
        .into_iter()
        .enumerate()
        .filter(move |(k, _)| flags & (1 << k) != 0)
        .map(|(_, c)| c);
        flag_codes.chain(
            [Family::Size, Family::Colour, Family::List, Family::Indent]
                .into_iter()
                .filter_map(|f| self.get(f)),
        )
    }

    /// The code the set holds in `slot` ([`StyleCode::slot`]), if any.
    pub(crate) fn in_slot(&self, slot: usize) -> Option<StyleCode> {
        match slot {
            0..4 => StyleCode::FLAGS
                .get(slot)
                .copied()
                .filter(|&c| self.contains(c)),
            4 => self.get(Family::Size),
            5 => self.get(Family::Colour),
            6 => self.get(Family::List),
            7 => self.get(Family::Indent),
            _ => None,
        }
    }

    /// The number of codes in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet};
    /// assert_eq!(StyleSet::of(StyleCode::Bold).with(StyleSet::of(StyleCode::Red)).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.iter().count()
    }
}

impl FromIterator<StyleCode> for StyleSet {
    /// Collects codes in order; a later code replaces an earlier one of its family (1.3).
    fn from_iter<T: IntoIterator<Item = StyleCode>>(iter: T) -> Self {
        let mut s = StyleSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for StyleSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(StyleCode::as_str))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for StyleSet {
    /// Reads a canonical `st` array strictly: unknown codes are an error here (use
    /// [`crate::normalize()`] for lenient client input).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let codes = <Vec<String>>::deserialize(deserializer)?;
        codes
            .iter()
            .map(|c| c.parse::<StyleCode>().map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_set_one_bit_per_code_in_table_order() {
        // every set of one code per family (and no code), with every subset of the flags
        let none = [None];
        for flags in 0..16u8 {
            for size in none
                .iter()
                .copied()
                .chain(StyleCode::ALL[4..8].iter().map(Some))
            {
                for colour in none
                    .iter()
                    .copied()
                    .chain(StyleCode::ALL[8..13].iter().map(Some))
                {
                    for line in none
                        .iter()
                        .copied()
                        .chain(StyleCode::ALL[13..].iter().map(Some))
                    {
                        let mut set = StyleSet::EMPTY;
                        for (k, c) in StyleCode::FLAGS.iter().enumerate() {
                            if flags & 1 << k != 0 {
                                set.insert(*c);
                            }
                        }
                        for c in [size, colour, line].into_iter().flatten() {
                            set.insert(*c);
                        }
                        let want = set.iter().fold(0, |m, c| m | 1 << c.index());
                        assert_eq!(set.bits(), want, "{set:?}");
                    }
                }
            }
        }
    }

    /// The word operations of [`StyleSet`] against their definitions family by family, over
    /// sets of one or no code per family and flag subsets (1.3: within a family the later
    /// code wins; line codes are `lst_*` and `ind_*`).
    #[test]
    fn merging_and_dropping_codes_follow_the_families() {
        let families = [Family::Size, Family::Colour, Family::List, Family::Indent];
        let mut rng = crate::rng::Rng(0x5DEE_CE66_D1CE_4E5B);
        let random_set = |rng: &mut crate::rng::Rng| {
            let mut set = StyleSet::EMPTY;
            for c in StyleCode::ALL {
                if rng.below(4) == 0 {
                    set.insert(c);
                }
            }
            set
        };
        for _ in 0..20_000 {
            let (a, b) = (random_set(&mut rng), random_set(&mut rng));
            let merged = a.with(b);
            let flags_only = a.with_flags_of(b);
            for f in StyleCode::FLAGS {
                let either = a.contains(f) || b.contains(f);
                assert_eq!(merged.contains(f), either, "{a:?} with {b:?}");
                assert_eq!(flags_only.contains(f), either, "{a:?} flags of {b:?}");
            }
            for family in families {
                assert_eq!(merged.get(family), b.get(family).or(a.get(family)));
                assert_eq!(flags_only.get(family), a.get(family));
                let line = matches!(family, Family::List | Family::Indent);
                let kept = a.without_line_codes().get(family);
                assert_eq!(kept, if line { None } else { a.get(family) });
                // with the line codes of `b`: `b`'s in the line families, `a`'s elsewhere
                let relined = a.with_line_codes(b).get(family);
                assert_eq!(relined, if line { b.get(family) } else { a.get(family) });
            }
            let line_of_b = a.without_line_codes().with(StyleSet(b.0 & LINE_LANES));
            assert_eq!(
                a.with_line_codes(b),
                line_of_b,
                "{a:?} with the lines of {b:?}"
            );
            assert_eq!(merged.is_empty(), merged.iter().next().is_none());
            // removing every code of `b` leaves exactly the codes of `a` not in `b`
            let mut rest = a;
            b.iter().for_each(|c| rest.remove(c));
            let want: Vec<_> = a.iter().filter(|&c| !b.contains(c)).collect();
            assert_eq!(rest.iter().collect::<Vec<_>>(), want, "{a:?} minus {b:?}");
        }
    }

    #[test]
    fn every_code_round_trips_through_its_spelling() {
        for c in StyleCode::ALL {
            assert_eq!(c.as_str().parse::<StyleCode>(), Ok(c));
            assert!(StyleSet::of(c).contains(c));
            assert_eq!(StyleSet::of(c).iter().collect::<Vec<_>>(), [c]);
        }
    }

    #[test]
    fn slots_follow_the_table() {
        for (k, c) in StyleCode::ALL.into_iter().enumerate() {
            assert_eq!(
                usize::from(c.index()),
                k,
                "{c}: declaration order is table order"
            );
            assert_eq!(StyleSet::of(c).in_slot(c.slot()), Some(c));
            assert_eq!(c.slot() < INLINE_SLOTS, !c.is_line_code(), "{c}");
            assert_eq!(
                StyleCode::indent(c.indent_level().unwrap_or(0)),
                c.indent_level().map(|_| c)
            );
        }
        assert_eq!(StyleCode::ALL.last().map(|c| c.slot() + 1), Some(SLOTS));
        // ALL lists every variant: the last declared one closes it
        assert_eq!(
            StyleCode::ALL.len(),
            usize::from(StyleCode::Indent5.index()) + 1
        );
    }

    /// The walk's slot update equals removing the slot's code and inserting the new one,
    /// from every set of one code per family and for every inline code (and none).
    #[test]
    fn slot_bits_replace_a_slots_code() {
        let mut sets = vec![StyleSet::EMPTY];
        for c in StyleCode::ALL {
            let more: Vec<StyleSet> = sets.iter().map(|s| s.with(StyleSet::of(c))).collect();
            sets.extend(more);
            sets.sort_by_key(|s| s.0);
            sets.dedup();
        }
        for s in sets {
            for c in StyleCode::ALL
                .into_iter()
                .filter(|c| c.slot() < INLINE_SLOTS)
            {
                let lane = StyleSet::inline_slot_bits(c.slot());
                let others = StyleCode::ALL.into_iter().filter(|o| o.slot() == c.slot());
                let mut cleared = s;
                others.for_each(|o| cleared.remove(o));
                assert_eq!(s.with_slot_bits(lane, 0), cleared, "{s:?} without {c}");
                let mut with = cleared;
                with.insert(c);
                let bits = StyleSet::of(c).inline_bits();
                assert_eq!(s.with_slot_bits(lane, bits), with, "{s:?} with {c}");
            }
        }
    }

    #[test]
    fn canonical_order_is_table_order_c4() {
        let set: StyleSet = StyleCode::ALL.iter().rev().copied().collect();
        // a later code replaces an earlier one of its family: inserted in reverse table order,
        // the first code of each family in the table survives
        let got: Vec<_> = set.iter().map(StyleCode::as_str).collect();
        assert_eq!(
            got,
            ["b", "i", "u", "s", "f_13", "c_050a19", "lst_1", "ind_1"]
        );
    }
}
