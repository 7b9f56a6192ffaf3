//! Extended grapheme clusters (Unicode UAX #29, rules GB3–GB999), what S3 never cuts unless
//! one alone is longer than the limit: each character's class from a compact generated
//! table ([`super::grapheme_table`]), the context-free pair rules, and a forward segmenter
//! that carries the context of GB9c, GB11 and GB12/13 from a known boundary.
//!
//! The table is derived from the `unicode-segmentation` crate (a dev-dependency, pinned in
//! Cargo.lock) by probing its boundaries for every code point, so the two agree by
//! construction and the tests below check it; `bash tools/regen` rewrites it
//! (`CHATMARK_REGEN=1`) and `bash tools/regen --check` fails when it has drifted. It costs
//! the npm package's wasm less than the crate's own tables would (the figures are in the
//! commit that chose it).

use super::grapheme_table::{CLASSES, HANGUL_FIRST, HANGUL_LAST, STARTS};

/// The ranges of [`STARTS`] and [`CLASSES`], decoded: `first code point << 5 | class`,
/// sorted, so that a code point's class is that of the last entry at or before it. (Stored
/// as a stream of LEB128 distances and a byte per class, which takes the npm package's wasm
/// about 1.5 KB fewer gzipped bytes than the decoded table would.)
fn decode() -> Vec<u32> {
    let mut out = Vec::with_capacity(CLASSES.len());
    let mut classes = CLASSES.iter();
    let (mut start, mut value, mut shift) = (0u32, 0u32, 0u32);
    for &b in STARTS.iter() {
        value |= u32::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            start += value;
            let class = classes.next().copied().unwrap_or(0);
            out.push(start << 5 | u32::from(class));
            (value, shift) = (0, 0);
        }
    }
    out
}

/// The class bits ([`Class::from_bits`]) of the range that holds `c`, in the table decoded
/// once per thread.
fn class_bits(c: u32) -> u32 {
    thread_local! {
        // const: no lazy initialisation code in the wasm
        static TABLE: core::cell::RefCell<Vec<u32>> = const { core::cell::RefCell::new(Vec::new()) };
    }
    let look = |table: &[u32]| {
        let k = table.partition_point(|&e| e >> 5 <= c);
        k.checked_sub(1)
            .and_then(|k| table.get(k))
            .map_or(0, |&e| e & 31)
    };
    TABLE
        .try_with(|t| {
            let mut t = t.try_borrow_mut().ok()?;
            if t.is_empty() {
                *t = decode();
            }
            Some(look(&t))
        })
        .ok()
        .flatten()
        // (a thread shutting down: decoded for the one call)
        .unwrap_or_else(|| look(&decode()))
}

/// A character's class for the segmentation rules: its Grapheme_Cluster_Break value, with
/// `Extended_Pictographic` and the Indic_Conjunct_Break values folded in (they never fall on
/// the same character as another non-default class, which the generator checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub(crate) enum Class {
    Other = 0,
    Cr,
    Lf,
    Control,
    /// GCB=Extend, no InCB value.
    Extend,
    /// GCB=Extend and InCB=Extend.
    InCbExtend,
    /// GCB=Extend and InCB=Linker (a virama).
    Linker,
    /// U+200D (GCB=ZWJ, InCB=Extend).
    Zwj,
    RegionalIndicator,
    Prepend,
    SpacingMark,
    L,
    V,
    T,
    Lv,
    Lvt,
    ExtPict,
    /// InCB=Consonant.
    Consonant,
    /// A precomposed Hangul syllable (U+AC00–U+D7A3): LV or LVT by arithmetic, which keeps
    /// their 800 alternating ranges out of the table.
    Hangul,
}

/// How many classes there are.
const CLASS_COUNT: usize = 19;

impl Class {
    /// The class of table entry `k`'s low five bits.
    const fn from_bits(b: u32) -> Class {
        match b {
            1 => Class::Cr,
            2 => Class::Lf,
            3 => Class::Control,
            4 => Class::Extend,
            5 => Class::InCbExtend,
            6 => Class::Linker,
            7 => Class::Zwj,
            8 => Class::RegionalIndicator,
            9 => Class::Prepend,
            10 => Class::SpacingMark,
            11 => Class::L,
            12 => Class::V,
            13 => Class::T,
            14 => Class::Lv,
            15 => Class::Lvt,
            16 => Class::ExtPict,
            17 => Class::Consonant,
            18 => Class::Hangul,
            _ => Class::Other,
        }
    }

    /// GCB=Extend (GB9, and the `Extend*` of GB11).
    fn is_extend(self) -> bool {
        matches!(self, Class::Extend | Class::InCbExtend | Class::Linker)
    }
}

/// Ranges whose characters are all of class [`Class::Other`] (the tests check it against the
/// table): Latin-1's letters to the combining marks, and Latin Extended Additional.
const FAST_OTHER: [core::ops::Range<u32>; 2] = [0xaf..0x300, 0x1e00..0x1f00];

/// The class of `c`.
pub(crate) fn class(c: char) -> Class {
    let c = u32::from(c);
    if c < 0x7f {
        return match c {
            0x0d => Class::Cr,
            0x0a => Class::Lf,
            0..0x20 => Class::Control,
            _ => Class::Other,
        };
    }
    // Latin letters (Vietnamese among them) and symbols, without a table lookup
    let [a, b] = FAST_OTHER;
    if a.contains(&c) || b.contains(&c) {
        return Class::Other;
    }
    // the last entry that starts at or before `c` (entries are `start << 5 | class`,
    // sorted, the first one starting at 0)
    let cls = Class::from_bits(class_bits(c));
    if cls == Class::Hangul {
        debug_assert!((HANGUL_FIRST..=HANGUL_LAST).contains(&c));
        return if (c - HANGUL_FIRST) % 28 == 0 {
            Class::Lv
        } else {
            Class::Lvt
        };
    }
    cls
}

/// Whether there is a boundary between two characters of classes `a` and `b` by the rules
/// that look at the pair alone (GB3–GB9b, GB999). Exact where the rules that need what comes
/// before (GB9c, GB11, GB12/13) cannot apply: when `a` is none of ZWJ, a regional indicator,
/// InCB=Linker or InCB=Extend, or `b` is none of InCB=Consonant, `Extended_Pictographic`, a
/// regional indicator — as beside whitespace, or after `。`. Read from [`PAIRS`].
pub(crate) fn pair_breaks(a: Class, b: Class) -> bool {
    PAIRS
        .get(a as usize)
        .is_some_and(|row| row >> (b as u32) & 1 != 0)
}

/// [`pair_rule`] of every pair of classes, made at compile time: bit `b` of row `a`.
// Evaluated at compile time: an index out of bounds would fail the build, not panic.
#[allow(clippy::indexing_slicing)]
static PAIRS: [u32; CLASS_COUNT] = {
    let mut rows = [0; CLASS_COUNT];
    let mut a = 0;
    while a < CLASS_COUNT {
        let mut b = 0;
        while b < CLASS_COUNT {
            if pair_rule(Class::from_bits(a as u32), Class::from_bits(b as u32)) {
                rows[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    rows
};

/// The rules of [`pair_breaks`], as UAX #29 states them.
const fn pair_rule(a: Class, b: Class) -> bool {
    use Class::*;
    match (a, b) {
        (Cr, Lf) => false,                                               // GB3
        (Cr | Lf | Control, _) | (_, Cr | Lf | Control) => true,         // GB4, GB5
        (L, L | V | Lv | Lvt) | (Lv | V, V | T) | (Lvt | T, T) => false, // GB6–GB8
        (_, Extend | InCbExtend | Linker | Zwj | SpacingMark) => false,  // GB9, GB9a
        (Prepend, _) => false,                                           // GB9b
        _ => true,
    }
}

/// GB11's progress: `\p{ExtPict} Extend*` seen, then the `ZWJ` after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Emoji {
    None,
    Pict,
    Zwj,
}

/// GB9c's progress: an InCB consonant seen, then (after InCB Extend or Linker characters)
/// at least one linker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conjunct {
    None,
    Consonant,
    Linked,
}

/// A forward segmenter: told each character's class in order from a known boundary, it
/// says whether a boundary falls before it (all of UAX #29's rules, with the context of
/// GB9c, GB11 and GB12/13 carried along).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segmenter {
    prev: Class,
    /// Whether the regional indicators ending at `prev` are odd in number.
    ri_odd: bool,
    emoji: Emoji,
    conjunct: Conjunct,
}

impl Segmenter {
    /// A segmenter whose first character, just after a boundary, has class `first`.
    pub(crate) fn new(first: Class) -> Self {
        let mut s = Segmenter {
            prev: Class::Control,
            ri_odd: false,
            emoji: Emoji::None,
            conjunct: Conjunct::None,
        };
        s.next(first);
        s
    }

    /// Whether a boundary falls before the next character, of class `b`.
    pub(crate) fn next(&mut self, b: Class) -> bool {
        let a = self.prev;
        let breaks = match b {
            Class::Consonant if self.conjunct == Conjunct::Linked => false, // GB9c
            Class::ExtPict if self.emoji == Emoji::Zwj => false,            // GB11
            Class::RegionalIndicator if a == Class::RegionalIndicator && self.ri_odd => false, // GB12, GB13
            _ => pair_breaks(a, b),
        };
        self.ri_odd =
            b == Class::RegionalIndicator && !(a == Class::RegionalIndicator && self.ri_odd);
        self.emoji = match (b, self.emoji) {
            (Class::ExtPict, _) => Emoji::Pict,
            (b, Emoji::Pict) if b.is_extend() => Emoji::Pict,
            (Class::Zwj, Emoji::Pict) => Emoji::Zwj,
            _ => Emoji::None,
        };
        self.conjunct = match (b, self.conjunct) {
            (Class::Consonant, _) => Conjunct::Consonant,
            (Class::Linker, Conjunct::Consonant | Conjunct::Linked) => Conjunct::Linked,
            (Class::InCbExtend | Class::Zwj, c @ (Conjunct::Consonant | Conjunct::Linked)) => c,
            _ => Conjunct::None,
        };
        self.prev = b;
        breaks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_segmentation::UnicodeSegmentation;

    /// Boundaries (byte offsets inside `s`, neither end) by our rules.
    fn ours(s: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let mut seg: Option<Segmenter> = None;
        for (k, c) in s.char_indices() {
            match &mut seg {
                None => seg = Some(Segmenter::new(class(c))),
                Some(g) => {
                    if g.next(class(c)) {
                        out.push(k);
                    }
                }
            }
        }
        out
    }

    /// Boundaries by unicode-segmentation.
    fn theirs(s: &str) -> Vec<usize> {
        s.grapheme_indices(true)
            .map(|(k, _)| k)
            .filter(|&k| k > 0)
            .collect()
    }

    fn joined(s: &str) -> bool {
        s.graphemes(true).count() == 1
    }

    /// A code point's class as unicode-segmentation's boundaries reveal it: the generator
    /// of the table (each probe is a rule that only that class triggers).
    fn probe(c: char) -> Class {
        let s = |parts: &[&str]| parts.concat();
        let c = &c.to_string();
        match c.as_str() {
            "\r" => return Class::Cr,
            "\n" => return Class::Lf,
            "\u{200d}" => return Class::Zwj,
            _ => {}
        }
        if !joined(&s(&["\u{600}", c])) {
            return Class::Control; // GB5 before GB9b: a Prepend attaches to all else
        }
        if joined(&s(&["a", c])) {
            // GB9 or GB9a: an Extend lets GB11 through, a SpacingMark does not
            if !joined(&s(&["\u{1f600}", c, "\u{200d}\u{1f600}"])) {
                return Class::SpacingMark;
            }
            // GB9c: a linker links two consonants; an InCB Extend may stand before one
            if joined(&s(&["\u{915}", c, "\u{915}"])) {
                return Class::Linker;
            }
            if joined(&s(&["\u{915}", c, "\u{94d}\u{915}"])) {
                return Class::InCbExtend;
            }
            return Class::Extend;
        }
        if joined(&s(&[c, "a"])) {
            return Class::Prepend; // GB9b
        }
        let (v, t) = ("\u{1161}", "\u{11a8}");
        match (
            joined(&s(&[c, v])),
            joined(&s(&[c, t])),
            joined(&s(&[c, c])),
        ) {
            (true, false, true) => return Class::L,
            (true, true, true) => return Class::V,
            (false, true, true) => return Class::T,
            (true, true, false) => return Class::Lv,
            (false, true, false) => return Class::Lvt,
            (false, false, true) => return Class::RegionalIndicator,
            _ => {}
        }
        if joined(&s(&["\u{1f600}\u{200d}", c])) {
            return Class::ExtPict; // GB11
        }
        if joined(&s(&["\u{915}\u{94d}", c])) {
            return Class::Consonant; // GB9c
        }
        Class::Other
    }

    const TABLE_RS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/split/grapheme_table.rs");

    /// The table as the generator writes it, from every code point's probed class.
    fn generate() -> String {
        let mut entries: Vec<(u32, Class)> = Vec::new();
        for cp in 0..=0x10ffffu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let mut cls = probe(c);
            if (0xac00..=0xd7a3).contains(&cp) {
                assert!(matches!(cls, Class::Lv | Class::Lvt), "{cp:x}");
                cls = Class::Hangul;
            }
            if entries.last().is_none_or(|&(_, last)| last != cls) {
                entries.push((cp, cls));
            }
        }
        // the surrogates are no characters: the range before them goes on over them
        let mut out = String::new();
        out.push_str(
            "//! Grapheme classes of every code point ([`super::grapheme::Class`]), for S3's\n\
             //! clusters (UAX #29). Generated by the test `split::grapheme::tests::table_is_generated`\n\
             //! from the boundaries of the `unicode-segmentation` crate, ",
        );
        out.push_str(&format!(
            "as pinned in Cargo.lock (Unicode {}.{}.{}); do not edit.\n//! Regenerate: `bash tools/regen`.\n\n",
            unicode_segmentation::UNICODE_VERSION.0,
            unicode_segmentation::UNICODE_VERSION.1,
            unicode_segmentation::UNICODE_VERSION.2,
        ));
        out.push_str("/// The first and last precomposed Hangul syllables (LV when `(c - first) % 28 == 0`, else LVT).\n");
        out.push_str("pub(super) const HANGUL_FIRST: u32 = 0xAC00;\n");
        out.push_str("/// See [`HANGUL_FIRST`].\npub(super) const HANGUL_LAST: u32 = 0xD7A3;\n\n");
        // each range's distance from the previous one's start as LEB128, and its class
        let mut starts = Vec::new();
        let mut prev = 0;
        for &(cp, _) in &entries {
            let mut v = cp - prev;
            prev = cp;
            loop {
                let b = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    starts.push(b);
                    break;
                }
                starts.push(b | 0x80);
            }
        }
        let classes: Vec<u8> = entries.iter().map(|&(_, cls)| cls as u8).collect();
        let array = |out: &mut String, bytes: &[u8]| {
            for chunk in bytes.chunks(16) {
                let line: Vec<String> = chunk.iter().map(|b| format!("0x{b:02x}")).collect();
                out.push_str(&format!("    {},\n", line.join(", ")));
            }
            out.push_str("];\n");
        };
        out.push_str(&format!(
            "/// The first code points of the {} ranges of one class, in order, each as the LEB128\n\
             /// number of its distance from the previous one's (see `grapheme::decode`).\n\
             #[rustfmt::skip]\npub(super) static STARTS: [u8; {}] = [\n",
            entries.len(),
            starts.len()
        ));
        array(&mut out, &starts);
        out.push_str(&format!(
            "\n/// The class of each range (`grapheme::Class`).\n#[rustfmt::skip]\n\
             pub(super) static CLASSES: [u8; {}] = [\n",
            classes.len()
        ));
        array(&mut out, &classes);
        out
    }

    /// The checked-in table is what the generator writes (`CHATMARK_REGEN=1` rewrites it).
    #[test]
    fn table_is_generated() {
        let want = generate();
        if std::env::var_os("CHATMARK_REGEN").is_some() {
            std::fs::write(TABLE_RS, want).unwrap();
            return;
        }
        let have = std::fs::read_to_string(TABLE_RS).unwrap();
        assert!(
            have == want,
            "src/split/grapheme_table.rs has drifted from unicode-segmentation: run bash tools/regen"
        );
    }

    /// Every class read from the table is the class probed, at both ends and the middle of
    /// every range (so a lookup error at an edge shows).
    #[test]
    fn table_lookups_match_probes() {
        let starts: Vec<u32> = decode().iter().map(|e| e >> 5).collect();
        for (k, &s) in starts.iter().enumerate() {
            let end = starts.get(k + 1).map_or(0x110000, |&n| n);
            for cp in [s, s + (end - s) / 2, end - 1] {
                if let Some(c) = char::from_u32(cp) {
                    assert_eq!(class(c), probe(c), "U+{cp:04X}");
                }
            }
        }
    }

    /// The ranges read without the table are of class Other in it.
    #[test]
    fn fast_ranges_are_other() {
        for r in FAST_OTHER {
            for cp in r {
                let c = char::from_u32(cp).unwrap();
                let table = decode();
                let k = table.partition_point(|&e| e >> 5 <= cp);
                assert_eq!(
                    Class::from_bits(table[k - 1] & 31),
                    Class::Other,
                    "U+{cp:04X}"
                );
                assert_eq!(class(c), Class::Other);
            }
        }
    }

    /// A representative of every class, and characters next to the rules' edges.
    const ALPHABET: &[&str] = &[
        "a",
        " ",
        "\r",
        "\n",
        "\t",
        "\u{0}",
        "\u{301}",
        "\u{200d}",
        "\u{fe0f}",
        "\u{1f3fb}",
        "\u{1f1fa}",
        "\u{1f1f8}",
        "\u{600}",
        "\u{903}",
        "\u{1100}",
        "\u{1161}",
        "\u{11a8}",
        "\u{ac00}",
        "\u{ac01}",
        "\u{1f600}",
        "\u{1f469}",
        "\u{2764}",
        "\u{915}",
        "\u{94d}",
        "\u{93c}",
        "\u{9cd}",
        "\u{995}",
        "\u{e33}",
        "\u{a9}",
        "\u{85}",
        "\u{3000}",
        "。",
    ];

    /// Our boundaries are unicode-segmentation's on random strings over the alphabet.
    #[test]
    fn boundaries_agree_with_unicode_segmentation() {
        let mut rng = crate::rng::Rng(0x5eed_6a5e);
        for _ in 0..100_000 {
            let n = 1 + rng.below(9);
            let s: String = (0..n)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect();
            assert_eq!(ours(&s), theirs(&s), "{s:?}");
        }
    }

    /// The pair rules agree with the segmenter wherever they claim to be exact.
    #[test]
    fn pair_rules_are_exact_beside_whitespace() {
        for a in ALPHABET {
            for b in [" ", "\n", "\u{3000}", "\t"] {
                for (x, y) in [(*a, b), (b, *a)] {
                    let s = format!("{x}{y}");
                    let want = !theirs(&s).is_empty();
                    let (cx, cy) = (
                        class(x.chars().next().unwrap()),
                        class(y.chars().next().unwrap()),
                    );
                    assert_eq!(pair_breaks(cx, cy), want, "{s:?}");
                }
            }
        }
    }
}
