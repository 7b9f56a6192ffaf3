//! H4 inline CSS: the `style` declarations an element's effect takes (`font-weight`,
//! `font-style`, `text-decoration`, `font-size`, `color`) and the colour rule shared with
//! `color` on `font`. Sizes and colours come from the vocabulary's tables. Everything that
//! matters is ASCII, so declarations are read as bytes (no char-boundary checks).

use super::elements::Effect;
use crate::vocab::{PALETTE, SIZES};
use crate::StyleCode;

/// CSS whitespace.
const fn is_css_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// `s` without CSS whitespace at either end.
fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| !is_css_space(c)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&c| !is_css_space(c))
        .map_or(start, |k| k + 1);
    s.get(start..end).unwrap_or_default()
}

/// Removes `/* … */` comments (an unterminated one runs to the end), as H4 says: first.
fn strip_comments(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.as_bytes().windows(2).any(|w| w == b"/*") {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    // byte searches and checked splits: core's substring searcher and panicking slicing
    // would bring Debug's escaping tables into the wasm (about 4.8 KB gzipped)
    let find = |hay: &str, pat: &[u8; 2]| hay.as_bytes().windows(2).position(|w| w == pat);
    while let Some(k) = find(rest, b"/*") {
        let (before, after) = rest.split_at_checked(k).unwrap_or((rest, ""));
        out.push_str(before);
        let body = after.get(2..).unwrap_or("");
        rest = match find(body, b"*/") {
            Some(e) => body.get(e + 2..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Applies a `style` attribute's declarations in order onto `effect` (H4): comments go
/// first, then each `;`-separated `property: value` is read at its first `:`. A style with
/// no `/` has no comment, the common case, read in place: one pass over its bytes finds the
/// separators and the first `/` (which sends it to the stripping first). The renderer's
/// own spelling of a colour, `color:#rrggbb` and nothing else, skips that pass.
pub(super) fn apply_style(style: &str, effect: &mut Effect) {
    // The spelling chatmark's HTML renderer writes, which composers send back as they got
    // it: `color:#` and six bytes, read as one colour at once. When those six are not hex
    // digits it is no colour either way: a `;` among them leaves too little after it for
    // another declaration, and a comment leaves too few digits.
    if let Some(value @ [b'#', digits @ ..]) = style.as_bytes().strip_prefix(b"color:") {
        if digits.len() == 6 {
            if let Some(c) = colour(value) {
                effect.set(c);
            }
            return;
        }
    }
    apply_declarations(style, effect);
}

/// [`apply_style`] without its fast path: every declaration read in order.
pub(super) fn apply_declarations(style: &str, effect: &mut Effect) {
    if !declarations(style.as_bytes(), true, effect) {
        declarations(strip_comments(style).as_bytes(), false, effect);
    }
}

/// Applies the declarations of `style`; with `slash`, only up to its first `/` and false
/// when there is one. The caller then applies them all again, comments stripped: each
/// declaration sets or clears its slot, so the ones before the `/` (which the stripping
/// leaves as they are) applied twice in order give the same effect.
fn declarations(b: &[u8], slash: bool, effect: &mut Effect) -> bool {
    let mut start = 0;
    while start <= b.len() {
        let mut colon = None;
        let mut end = start;
        while let Some(&c) = b.get(end) {
            match c {
                b';' => break,
                b':' if colon.is_none() => colon = Some(end),
                b'/' if slash => return false,
                _ => {}
            }
            end += 1;
        }
        if let Some((prop, value)) =
            colon.and_then(|k| Some((b.get(start..k)?, b.get(k + 1..end)?)))
        {
            declaration(trim(prop), trim(value), effect);
        }
        start = end + 1;
    }
    true
}

/// One declaration, its property and value trimmed; unknown properties are ignored. The
/// property is matched by length first (no comparison with the other names).
fn declaration(prop: &[u8], value: &[u8], effect: &mut Effect) {
    let is = |p: &str| prop.eq_ignore_ascii_case(p.as_bytes());
    match prop.len() {
        5 if is("color") => {
            if let Some(c) = colour(value) {
                effect.set(c);
            }
        }
        11 if is("font-weight") => {
            if let Some(bold) = parse_weight(value) {
                if bold {
                    effect.set(StyleCode::Bold);
                } else {
                    effect.clear(StyleCode::Bold);
                }
            }
        }
        10 if is("font-style") => {
            if [&b"italic"[..], b"oblique"]
                .iter()
                .any(|k| value.eq_ignore_ascii_case(k))
            {
                effect.set(StyleCode::Italic);
            } else if value.eq_ignore_ascii_case(b"normal") {
                effect.clear(StyleCode::Italic);
            }
        }
        15 | 20 if is("text-decoration") || is("text-decoration-line") => {
            for word in value.split(|&c| is_css_space(c)).filter(|w| !w.is_empty()) {
                if word.eq_ignore_ascii_case(b"underline") {
                    effect.set(StyleCode::Underline);
                } else if word.eq_ignore_ascii_case(b"line-through") {
                    effect.set(StyleCode::Strike);
                } else if word.eq_ignore_ascii_case(b"none") {
                    effect.clear(StyleCode::Underline);
                    effect.clear(StyleCode::Strike);
                }
            }
        }
        9 if is("font-size") => {
            if let Some(c) = parse_font_size(value) {
                effect.set(c);
            }
        }
        _ => {}
    }
}

/// 10^9: numbers are compared in billionths.
const SCALE: u64 = 1_000_000_000;

/// A non-negative decimal (`12`, `10.5`, `.5`) in billionths, saturating at 10^6 (far above
/// any threshold, and 8 × 10^15 at most once scaled for a comparison: `u64`, so no 128-bit
/// division in the wasm). Truncating past nine decimals keeps every comparison with the
/// thresholds used here exact, as those have at most three decimals.
fn parse_decimal(s: &[u8]) -> Option<u64> {
    let (int, frac) = match s.iter().position(|&c| c == b'.') {
        Some(k) => (s.get(..k)?, Some(s.get(k + 1..)?)),
        None => (s, None),
    };
    if int.is_empty() && frac.is_none() {
        return None;
    }
    if !int.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: u64 = 0;
    for &b in int {
        value = (value * 10 + u64::from(b - b'0')).min(1_000_000);
    }
    value *= SCALE;
    if let Some(frac) = frac {
        if frac.is_empty() || !frac.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut unit = SCALE;
        for &b in frac.iter().take(9) {
            unit /= 10;
            value += u64::from(b - b'0') * unit;
        }
    }
    Some(value)
}

/// `font-weight`: `Some(true)` adds `b`, `Some(false)` removes it, `None` is ignored.
fn parse_weight(v: &[u8]) -> Option<bool> {
    let kw = |k: &str| v.eq_ignore_ascii_case(k.as_bytes());
    if kw("bold") || kw("bolder") {
        Some(true)
    } else if kw("normal") || kw("lighter") {
        Some(false)
    } else {
        parse_decimal(v).map(|n| n >= 600 * SCALE)
    }
}

/// `font-size`: px or pt to the nearest size of [`SIZES`] (ties to the larger), or a keyword.
fn parse_font_size(v: &[u8]) -> Option<StyleCode> {
    const KEYWORDS: [(&str, StyleCode); 9] = [
        ("x-small", StyleCode::Small),
        ("small", StyleCode::Small),
        ("smaller", StyleCode::Small),
        ("medium", StyleCode::Normal),
        ("large", StyleCode::Large),
        ("larger", StyleCode::Large),
        ("x-large", StyleCode::VeryLarge),
        ("xx-large", StyleCode::VeryLarge),
        ("xxx-large", StyleCode::VeryLarge),
    ];
    if v.is_empty() {
        return None;
    }
    if let Some(&(_, c)) = KEYWORDS
        .iter()
        .find(|(k, _)| v.eq_ignore_ascii_case(k.as_bytes()))
    {
        return Some(c);
    }
    let split = v.len().checked_sub(2)?;
    let (num, unit) = (v.get(..split)?, v.get(split..)?);
    let n = parse_decimal(num)?;
    // Compare m·n px with the midpoints (a + b) / 2 of neighbouring sizes, all scaled by the
    // same factor: px: 2n against a + b; pt (n·4/3 px): 8n against 3(a + b).
    let (m, k) = if unit.eq_ignore_ascii_case(b"px") {
        (2, 1)
    } else if unit.eq_ignore_ascii_case(b"pt") {
        (8, 3)
    } else {
        return None;
    };
    let x = n * m;
    let mut size = SIZES.first()?.0;
    for pair in SIZES.windows(2) {
        if let [(_, a), (larger, b)] = *pair {
            if x >= u64::from(k * (a + b)) * SCALE {
                size = larger;
            }
        }
    }
    Some(size)
}

/// The colour rule of H4: the palette only, as `#rrggbb`, `rgb(r, g, b)` or a name.
pub(super) fn parse_colour(v: &str) -> Option<StyleCode> {
    colour(v.as_bytes())
}

/// [`parse_colour`] of bytes.
fn colour(v: &[u8]) -> Option<StyleCode> {
    let v = trim(v);
    if let Some(hex) = v.strip_prefix(b"#") {
        return palette_hex(<&[u8; 6]>::try_from(hex).ok()?);
    }
    let rgb: [u8; 3] = if v.len() > 4 && v.get(..4).is_some_and(|p| p.eq_ignore_ascii_case(b"rgb("))
    {
        let inner = v.get(4..)?.strip_suffix(b")")?;
        let mut rgb = [0u8; 3];
        let mut count = 0;
        for part in inner.split(|&c| c == b',').map(trim) {
            if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
                return None;
            }
            // an integer of any length, leading zeros and all, saturating past 255 (as
            // [`parse_decimal`] does past its range), which no component is
            let n = part
                .iter()
                .fold(0u32, |n, &d| (n * 10 + u32::from(d - b'0')).min(256));
            *rgb.get_mut(count)? = u8::try_from(n).ok()?;
            count += 1;
        }
        if count != 3 {
            return None;
        }
        rgb
    } else {
        return PALETTE
            .iter()
            .find(|c| {
                c.tag
                    .is_some_and(|t| v.eq_ignore_ascii_case(t.name().as_bytes()))
            })
            .map(|c| c.code);
    };
    PALETTE.iter().find(|c| c.rgb == rgb).map(|c| c.code)
}

/// The palette's colours as their six hex digits, lower case, packed into a word (the
/// first digit lowest), with the `0x20` bit of each decimal digit's byte.
// Indexing in a const initialiser cannot panic at run time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const HEX_KEYS: [(u64, u64, StyleCode); PALETTE.len()] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut keys = [(0, 0, StyleCode::Red); PALETTE.len()];
    let mut k = 0;
    while k < PALETTE.len() {
        let (mut key, mut decimal) = (0u64, 0u64);
        let mut i = 0;
        while i < 6 {
            let nibble = (PALETTE[k].rgb[i / 2] >> (4 - 4 * (i % 2))) & 0xf;
            key |= (HEX[nibble as usize] as u64) << (8 * i);
            if nibble < 10 {
                decimal |= 0x20 << (8 * i);
            }
            i += 1;
        }
        keys[k] = (key, decimal, PALETTE[k].code);
        k += 1;
    }
    keys
};

/// The palette colour whose `#rrggbb` has the hex digits `digits`, either case. Each byte
/// `| 0x20` is compared with a lower-case digit at once: a letter `a`–`f` so matches only
/// itself in either case, and a decimal digit also `0x10`–`0x19`, which lack the `0x20` bit
/// that the second test asks of the decimal digits.
fn palette_hex(digits: &[u8; 6]) -> Option<StyleCode> {
    let [a, b, c, d, e, f] = *digits;
    let word = u64::from_le_bytes([a, b, c, d, e, f, 0, 0]);
    let lower = word | 0x2020_2020_2020;
    HEX_KEYS
        .iter()
        .find(|&&(key, decimal, _)| lower == key && word & decimal == decimal)
        .map(|&(_, _, code)| code)
}
