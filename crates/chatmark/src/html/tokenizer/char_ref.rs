//! Character references as HTML5 decodes them (H1): named ones (every name of the entity
//! table, the legacy forms without a semicolon, and their special reading inside attribute
//! values), numeric ones (decimal and hex, 0x80–0x9F remapped as Windows-1252, U+FFFD for
//! invalid code points). Each lookup reads a bounded window of units after the `&` (linear,
//! L1).

use super::super::entities::{self, LONGEST_LEGACY_NAME, LONGEST_NAME};
use super::scan::byte_at;
use crate::text::unit::Unit;

/// What a character reference expands to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expansion {
    /// A named reference's expansion (one or two code points).
    Named(&'static str),
    /// A numeric reference's code point, after HTML5's replacements.
    Numeric(char),
}

impl Expansion {
    /// Calls `f` with the expansion as a `&str`.
    pub(super) fn with_str<R>(self, f: impl FnOnce(&str) -> R) -> R {
        match self {
            Expansion::Named(s) => f(s),
            Expansion::Numeric(c) => {
                let mut buf = [0u8; 4];
                f(c.encode_utf8(&mut buf))
            }
        }
    }
}

/// Looks `name` (the bytes after `&`) up in the named reference table.
fn lookup(name: &[u8]) -> Option<&'static str> {
    let (mut lo, mut hi) = (0, entities::COUNT);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match entities::name(mid)?.cmp(name) {
            core::cmp::Ordering::Less => lo = mid + 1,
            core::cmp::Ordering::Greater => hi = mid,
            core::cmp::Ordering::Equal => return entities::expansion(mid),
        }
    }
    None
}

/// The Windows-1252 remapping HTML5 applies to numeric references 0x80–0x9F (`None`: kept).
const C1_REMAP: [Option<char>; 32] = [
    Some('\u{20AC}'),
    None,
    Some('\u{201A}'),
    Some('\u{0192}'),
    Some('\u{201E}'),
    Some('\u{2026}'),
    Some('\u{2020}'),
    Some('\u{2021}'),
    Some('\u{02C6}'),
    Some('\u{2030}'),
    Some('\u{0160}'),
    Some('\u{2039}'),
    Some('\u{0152}'),
    None,
    Some('\u{017D}'),
    None,
    None,
    Some('\u{2018}'),
    Some('\u{2019}'),
    Some('\u{201C}'),
    Some('\u{201D}'),
    Some('\u{2022}'),
    Some('\u{2013}'),
    Some('\u{2014}'),
    Some('\u{02DC}'),
    Some('\u{2122}'),
    Some('\u{0161}'),
    Some('\u{203A}'),
    Some('\u{0153}'),
    None,
    Some('\u{017E}'),
    Some('\u{0178}'),
];

/// The code point a numeric reference with value `n` (saturated at 0x110000) stands for.
pub(super) fn numeric_char(n: u32) -> char {
    match n {
        0 => '\u{FFFD}',
        0x80..=0x9F => {
            let remapped = usize::try_from(n - 0x80)
                .ok()
                .and_then(|i| C1_REMAP.get(i).copied().flatten());
            remapped.or_else(|| char::from_u32(n)).unwrap_or('\u{FFFD}')
        }
        // Surrogates and values above 0x10FFFF are not chars: U+FFFD. Noncharacters and
        // the other controls are kept, as HTML5 says.
        _ => char::from_u32(n).unwrap_or('\u{FFFD}'),
    }
}

/// Reads a character reference whose `&` is just before `at`.
///
/// Returns the expansion and the index just after the reference, or `None` when the `&` is
/// not a reference there (then the `&` and what follows are literal text). `in_attr` applies
/// HTML5's attribute-value rule: a match without `;` followed by `=` or an ASCII alphanumeric
/// is not decoded. Looks ahead at most [`LONGEST_NAME`] bytes for a name, and saturates
/// numeric values, so the work is bounded per `&` apart from a numeric reference's digits,
/// which it consumes.
pub(super) fn char_ref<U: Unit>(
    units: &[U],
    at: usize,
    in_attr: bool,
) -> Option<(Expansion, usize)> {
    match byte_at(units, at) {
        Some(b'#') => numeric_ref(units, at + 1),
        Some(b) if b.is_ascii_alphanumeric() => named_ref(units, at, in_attr),
        _ => None,
    }
}

/// The numeric part of [`char_ref`]: `at` is just after `&#`.
fn numeric_ref<U: Unit>(units: &[U], at: usize) -> Option<(Expansion, usize)> {
    let (base, digits_start) = match byte_at(units, at) {
        Some(b'x' | b'X') => (16, at + 1),
        _ => (10, at),
    };
    let mut value: u32 = 0;
    let mut i = digits_start;
    while let Some(d) = byte_at(units, i)
        .filter(u8::is_ascii)
        .and_then(|b| char::from(b).to_digit(base))
    {
        // Saturate: anything above 0x10FFFF is replaced the same way.
        value = value.saturating_mul(base).saturating_add(d).min(0x11_0000);
        i += 1;
    }
    if i == digits_start {
        return None; // `&#` / `&#x` without digits: literal text
    }
    if byte_at(units, i) == Some(b';') {
        i += 1;
    }
    Some((Expansion::Numeric(numeric_char(value)), i))
}

/// The named part of [`char_ref`]: `at` is just after `&`, on an ASCII alphanumeric.
fn named_ref<U: Unit>(units: &[U], at: usize, in_attr: bool) -> Option<(Expansion, usize)> {
    // Names are ASCII alphanumerics, then `;` for all but the legacy forms. The longest match
    // is therefore the whole alphanumeric run with its `;` if that is a name, else the longest
    // legacy name that is a prefix of the run. The run is read into bytes once.
    let mut name = [0u8; LONGEST_NAME + 1];
    let mut run = 0;
    for (slot, c) in name.iter_mut().zip(units.get(at..).unwrap_or_default()) {
        let b = c.byte();
        if run == LONGEST_NAME || !b.is_ascii_alphanumeric() {
            break;
        }
        *slot = b;
        run += 1;
    }
    if run < LONGEST_NAME && byte_at(units, at + run) == Some(b';') {
        if let Some(slot) = name.get_mut(run) {
            *slot = b';';
        }
        if let Some(exp) = name.get(..run + 1).and_then(lookup) {
            return Some((Expansion::Named(exp), at + run + 1));
        }
    }
    for len in (1..=run.min(LONGEST_LEGACY_NAME)).rev() {
        if let Some(exp) = name.get(..len).and_then(lookup) {
            let next = byte_at(units, at + len);
            if in_attr && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric()) {
                return None; // historical reasons: `?a=1&copy=2` stays as written
            }
            return Some((Expansion::Named(exp), at + len));
        }
    }
    None
}
