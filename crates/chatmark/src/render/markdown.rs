//! `Formatted::to_markdown` (spec W2): the message in the chat dialect, every literal markup
//! character escaped (I2), with a report of what the dialect cannot say. When the report is
//! empty, `parse_markdown` reads the text back exactly.
//!
//! - Delimiters (I4, I5): `**` bold, `*` italic, `~~` strike, kept properly nested through
//!   the shared inline stack. Tags (I3): `{underline}`, `{big}`, `{red}` `{orange}`
//!   `{yellow}` `{green}`, which need not nest. At a style change the order is: delimiter
//!   closers (right after the text they close), tag closers, tag openers, delimiter openers
//!   (right before the text they open), so flanking sees the text itself where it can.
//! - Line prefixes (P1, P3): `ind_d` is `2d` spaces, then `- ` for `lst_1` or `1. ` for
//!   `lst_2`. Line breaks are copied. A delimiter style crosses a line break only when the
//!   break, the text before it and the text after it (on a non-empty line: a blank line ends
//!   the paragraph, 2.3) all carry it; otherwise it closes before the break.
//! - Escapes (I2): `\ ` `` ` `` `* _ ~ { <` everywhere; `> # - +` as a line's first
//!   character, and the `.` of a leading `1.` to `999.`. A backslash is only ever put before
//!   ASCII punctuation, and escaped characters count as themselves for flanking (I6).
//! - Where a delimiter would stand next to whitespace on its inner side, or between a letter
//!   and punctuation (as when two styles cross and one must close and reopen at a space),
//!   an empty tag pair `<big></big>` is written beside it: it adds no text and no style,
//!   and its brackets count as punctuation (I6), which the flanking rules accept.
//! - What cannot be said is reported as [`Unexpressed`]: the codes `f_13 f_15 f_20
//!   c_050a19`, spaces at the start of a line (P1 removes them; they are left out), line
//!   codes that do not cover their whole line (left out), and — found by parsing the
//!   result once and comparing with what was meant — ranges whose delimiters the flanking
//!   rules could not place. One render and one parse: linear time (L1).

use super::{lines, runs_from, stretch_ends, Ends, Feature, InlineStack, Line, Piece};
use crate::diagnostics::Span;
use crate::markdown::chars::{class, Class};
use crate::markdown::syntax::is_inline;
use crate::sort::{sat32, sort_by_key32};
use crate::vocab::style::INLINE_SLOTS;
use crate::vocab::{markup, row, Markup, Tag};
use crate::{utf16_len, Family, Formatted, StyleCode, StyleSet, TextStyle};

/// Markdown rendered from a message, with what it could not express (W2).
///
/// # Examples
///
/// ```
/// use chatmark::{Formatted, StyleCode, StyleSet, TextStyle};
/// let f = Formatted { text: "a*b c".into(), text_styles: vec![
///     TextStyle { start: 0, len: 3, st: StyleSet::of(StyleCode::Bold) },
///     TextStyle { start: 4, len: 1, st: StyleSet::of(StyleCode::Small) },
/// ]};
/// let md = f.to_markdown();
/// assert_eq!(md.text, "**a\\*b** c");
/// assert!(!md.is_lossless()); // f_13 has no markdown spelling
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markdown {
    /// The markdown text.
    pub text: String,
    /// What the text does not express, in order of position.
    pub unexpressed: Vec<Unexpressed>,
}

impl Markdown {
    /// Whether nothing was lost: then `parse_markdown(&self.text)` is the message (W2).
    ///
    /// # Examples
    ///
    /// ```
    /// let f = chatmark::parse_markdown("**hi** {red}there{/red}");
    /// assert!(f.to_markdown().is_lossless());
    /// ```
    pub fn is_lossless(&self) -> bool {
        self.unexpressed.is_empty()
    }
}

/// One thing the markdown does not express: `len` UTF-16 units of the message from
/// `start`, and what was lost there.
///
/// # Examples
///
/// ```
/// use chatmark::{Formatted, Loss, StyleCode, StyleSet, TextStyle};
/// let small = StyleSet::of(StyleCode::Small);
/// let f = Formatted { text: "ab".into(), text_styles: vec![TextStyle { start: 1, len: 1, st: small }] };
/// let u = f.to_markdown().unexpressed;
/// assert_eq!((u[0].start, u[0].len, u[0].what), (1, 1, Loss::Code(StyleCode::Small)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unexpressed {
    /// First UTF-16 unit of the message concerned.
    pub start: usize,
    /// Length in UTF-16 units.
    pub len: usize,
    /// What was lost.
    pub what: Loss,
}

/// What kind of thing [`Unexpressed`] reports.
///
/// # Examples
///
/// ```
/// assert_eq!(chatmark::Loss::LeadingSpaces.as_str(), "leading_spaces");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Loss {
    /// A code with no markdown spelling (`f_13`, `f_15`, `f_20`, `c_050a19`).
    Code(StyleCode),
    /// Spaces at the start of a line, which P1 removes: left out of the text.
    LeadingSpaces,
    /// Line codes that do not cover the whole line: left out.
    PartialLineCodes,
    /// Styles the delimiters could not be placed for (flanking, I4): the re-parse differs.
    Placement,
    /// The re-parsed text differs (never expected; reported rather than hidden).
    Text,
}

impl Loss {
    /// The stable wire spelling: `code`, `leading_spaces`, `partial_line_codes`,
    /// `placement`, `text`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::Loss::Code(chatmark::StyleCode::Small).as_str(), "code");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Loss::Code(_) => "code",
            Loss::LeadingSpaces => "leading_spaces",
            Loss::PartialLineCodes => "partial_line_codes",
            Loss::Placement => "placement",
            Loss::Text => "text",
        }
    }

    /// The code concerned, for [`Loss::Code`].
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{Loss, StyleCode};
    /// assert_eq!(Loss::Code(StyleCode::Normal).code(), Some(StyleCode::Normal));
    /// assert_eq!(Loss::Placement.code(), None);
    /// ```
    pub const fn code(self) -> Option<StyleCode> {
        match self {
            Loss::Code(c) => Some(c),
            _ => None,
        }
    }
}

/// Whether markdown has a spelling for `code`: a delimiter, a tag or a line prefix.
const fn is_sayable(code: StyleCode) -> bool {
    match markup(code) {
        Markup::Delim(_) | Markup::Tag(_) => true,
        Markup::Absent => code.is_line_code(),
    }
}

/// `s` without the codes markdown cannot spell.
fn sayable(s: StyleSet) -> StyleSet {
    s.iter().filter(|&c| is_sayable(c)).collect()
}

/// The codes of `s` written as delimiters (I4, I5).
fn delims_of(s: StyleSet) -> StyleSet {
    s.iter()
        .filter(|&c| matches!(markup(c), Markup::Delim(_)))
        .collect()
}

/// The tag of each inline slot of `s` (I3), if its code is written as one.
fn tags_of(s: StyleSet) -> [Option<Tag>; INLINE_SLOTS] {
    let mut tags = [None; INLINE_SLOTS];
    for c in s.iter() {
        if let (Markup::Tag(t), Some(slot)) = (markup(c), tags.get_mut(c.slot())) {
            *slot = Some(t);
        }
    }
    tags
}

/// The delimiter of a delimiter feature.
fn delimiter(f: Feature) -> &'static str {
    match markup(f.0) {
        Markup::Delim(d) => d,
        Markup::Tag(_) | Markup::Absent => "",
    }
}

/// Escapes one piece of a line's content (I2). `first` is the byte offset of the line's
/// first character, `dot` that of the `.` of a leading ordered-list marker.
fn escape(out: &mut String, p: &Piece<'_>, first: usize, dot: Option<usize>) {
    let mut from = 0;
    for (k, b) in p.text.bytes().enumerate() {
        let at = p.byte + k;
        let esc = is_inline(b)
            || (at == first && matches!(b, b'>' | b'#' | b'-' | b'+'))
            || Some(at) == dot;
        if esc {
            out.push_str(p.text.get(from..k).unwrap_or(""));
            out.push('\\');
            from = k;
        }
    }
    out.push_str(p.text.get(from..).unwrap_or(""));
}

/// One line, planned: its emitted content (leading spaces left out) and its prefix.
struct Plan<'a> {
    content: Vec<Piece<'a>>,
    brk: Vec<Piece<'a>>,
    codes: StyleSet,
}

struct Writer {
    out: String,
    delims: InlineStack,
    tags: [Option<Tag>; INLINE_SLOTS],
}

/// A zero-width separator: an empty, matched tag pair of a spelling used nowhere else.
/// It adds no text and no style, and its brackets are punctuation for flanking (I6), so a
/// delimiter may stand next to whitespace or between a letter and punctuation.
const ZW: &str = "<big></big>";

impl Writer {
    /// Moves to `target` between text ending in a character of class `prev` and text
    /// starting with one of class `next` (whitespace at a line's edges), placing separators
    /// where the flanking rules (I4) would otherwise refuse a delimiter.
    fn to(&mut self, target: StyleSet, ends: Option<&Ends>, prev: Class, next: Class) {
        let mut closers = String::new();
        let mut opens: Vec<Feature> = Vec::new();
        self.delims.transition(
            delims_of(target),
            ends,
            |f| closers.push_str(delimiter(f)),
            |f| opens.push(f),
        );
        let mut tags = String::new();
        let want = tags_of(target);
        for (have, want) in self.tags.iter().zip(want) {
            if let Some(t) = *have {
                if Some(t) != want {
                    tags.push_str("{/");
                    tags.push_str(t.name());
                    tags.push('}');
                }
            }
        }
        for (have, want) in self.tags.iter_mut().zip(want) {
            if let Some(t) = want {
                if Some(t) != *have {
                    tags.push('{');
                    tags.push_str(t.name());
                    tags.push('}');
                }
            }
            *have = want;
        }
        let openers: String = opens.iter().map(|&f| delimiter(f)).collect();
        let (has_c, has_t, has_o) = (!closers.is_empty(), !tags.is_empty(), !openers.is_empty());
        // Closers need a non-space before them, and after punctuation a space or
        // punctuation after them; openers the mirror image.
        let z_before_c = has_c && prev == Class::Whitespace;
        let c_prev = if z_before_c { Class::Punctuation } else { prev };
        let after_c = if has_t || has_o {
            Class::Punctuation
        } else {
            next
        };
        let mut z_mid = has_c && c_prev == Class::Punctuation && after_c == Class::Other;
        let z_after_o = has_o && next == Class::Whitespace;
        let o_next = if z_after_o { Class::Punctuation } else { next };
        let o_prev = if has_c || has_t || z_mid {
            Class::Punctuation
        } else {
            prev
        };
        if has_o && o_next == Class::Punctuation && o_prev == Class::Other {
            z_mid = true;
        }
        // A closer run and an opener run of one character would read as one run.
        if has_c && has_o && !has_t && closers.as_bytes().last() == openers.as_bytes().first() {
            z_mid = true;
        }
        if z_before_c {
            self.out.push_str(ZW);
        }
        self.out.push_str(&closers);
        self.out.push_str(&tags);
        if z_mid {
            self.out.push_str(ZW);
        }
        self.out.push_str(&openers);
        if z_after_o {
            self.out.push_str(ZW);
        }
    }
}

/// Ranges (in units) where two canonical run lists give different styles. One merge walk.
fn differences(a: &[TextStyle], b: &[TextStyle]) -> Vec<Span> {
    let at = |runs: &[TextStyle], k: usize, pos: usize| -> (StyleSet, usize) {
        match runs.get(k) {
            Some(r) if r.start <= pos => (r.st, r.end()),
            Some(r) => (StyleSet::EMPTY, r.start),
            None => (StyleSet::EMPTY, usize::MAX),
        }
    };
    let (mut ia, mut ib, mut pos) = (0, 0, 0);
    let mut out: Vec<Span> = Vec::new();
    loop {
        while a.get(ia).is_some_and(|r| r.end() <= pos) {
            ia += 1;
        }
        while b.get(ib).is_some_and(|r| r.end() <= pos) {
            ib += 1;
        }
        let (sa, na) = at(a, ia, pos);
        let (sb, nb) = at(b, ib, pos);
        let next = na.min(nb);
        if next == usize::MAX {
            break;
        }
        if sa != sb {
            match out.last_mut() {
                Some(last) if last.end == pos => last.end = next,
                _ => out.push(Span::new(pos, next)),
            }
        }
        pos = next;
    }
    out
}

/// Lines the re-parse up with the meant text: delimiters the flanking rules could not
/// place come back as literal `*`, `_` or `~` characters that the meant text lacks. Returns
/// the re-parse without them and their positions in the meant text (UTF-16 units), or
/// `None` when the texts differ otherwise. One greedy walk.
fn align(back: &Formatted, meant: &str) -> Option<(Formatted, Vec<usize>)> {
    let mut runs = back.text_styles.iter().peekable();
    let mut want = meant.chars().peekable();
    let mut kept_text = String::with_capacity(meant.len());
    let mut kept: Vec<(usize, StyleSet)> = Vec::new();
    let mut extras = Vec::new();
    let (mut unit, mut meant_unit) = (0usize, 0usize);
    for c in back.text.chars() {
        while runs.peek().is_some_and(|r| r.end() <= unit) {
            runs.next();
        }
        let st = match runs.peek() {
            Some(r) if r.start <= unit => r.st,
            _ => StyleSet::EMPTY,
        };
        unit += c.len_utf16();
        if want.peek() == Some(&c) {
            want.next();
            kept_text.push(c);
            kept.push((c.len_utf16(), st));
            meant_unit += c.len_utf16();
        } else if matches!(c, '*' | '_' | '~') {
            extras.push(meant_unit);
        } else {
            return None;
        }
    }
    if want.next().is_some() {
        return None;
    }
    Some((
        Formatted {
            text: kept_text,
            text_styles: runs_from(kept),
        },
        extras,
    ))
}

/// Units left out of the text as meant (leading spaces, P1): at `at` in the meant text,
/// `units` of the message.
#[derive(Clone, Copy, Debug)]
struct Omitted {
    at: usize,
    units: usize,
}

impl Formatted {
    /// Renders the message in the markdown dialect (W2), reporting what it cannot express;
    /// when nothing is reported, `parse_markdown` reads the text back exactly.
    ///
    /// # Examples
    ///
    /// ```
    /// let f = chatmark::parse_markdown("- **a** {red}b{/red} \\*c\\*");
    /// let md = f.to_markdown();
    /// assert_eq!(md.text, "- **a** {red}b{/red} \\*c\\*");
    /// assert!(md.is_lossless());
    /// assert_eq!(chatmark::parse_markdown(&md.text), f);
    /// ```
    pub fn to_markdown(&self) -> Markdown {
        let mut lost = self.unsayable_codes();
        let (plans, omitted) = plan_lines(self, &mut lost);
        sort_by_key32(&mut lost, |u| sat32(u.start));
        let (styles, break_styles) = piece_styles(&plans);
        let (text, meant) = write(&plans, &styles, &break_styles, self.text.len());
        // Check once: parse the result and compare with what was meant.
        let back = crate::parse_markdown(&text);
        if back != meant {
            placement_losses(self, &back, &meant, &omitted, &mut lost);
        }
        Markdown {
            text,
            unexpressed: lost,
        }
    }

    /// The codes with no markdown spelling, each merged over touching runs.
    fn unsayable_codes(&self) -> Vec<Unexpressed> {
        let mut lost: Vec<Unexpressed> = Vec::new();
        // per code (table index), its last report, to extend over touching runs
        let mut last: [Option<usize>; StyleCode::ALL.len()] = [None; StyleCode::ALL.len()];
        for r in &self.text_styles {
            for c in r.st.iter().filter(|&c| !is_sayable(c)) {
                let slot = last.get_mut(usize::from(c.index()));
                match slot
                    .as_deref()
                    .copied()
                    .flatten()
                    .and_then(|i| lost.get_mut(i))
                {
                    Some(u) if u.start + u.len == r.start => u.len += r.len,
                    _ => {
                        if let Some(s) = slot {
                            *s = Some(lost.len());
                        }
                        lost.push(Unexpressed {
                            start: r.start,
                            len: r.len,
                            what: Loss::Code(c),
                        });
                    }
                }
            }
        }
        lost
    }
}

/// Plans the lines: leading spaces (P1) and line codes that do not cover the whole line are
/// left out and reported; returns the plans and where the spaces were left out.
fn plan_lines<'a>(f: &'a Formatted, lost: &mut Vec<Unexpressed>) -> (Vec<Plan<'a>>, Vec<Omitted>) {
    let mut plans: Vec<Plan<'_>> = Vec::new();
    let mut omitted: Vec<Omitted> = Vec::new();
    // position in the text as meant
    let mut expected_pos = 0usize;
    for line in lines(f) {
        if line.mixed {
            let (a, b) = match (line.content.first(), line.content.last()) {
                (Some(a), Some(b)) => (a.unit, b.unit + utf16_len(b.text)),
                _ => (0, 0),
            };
            lost.push(Unexpressed {
                start: a,
                len: b - a,
                what: Loss::PartialLineCodes,
            });
        }
        let Line {
            mut content,
            brk,
            codes,
            ..
        } = line;
        let spaces = leading_spaces(&content);
        if spaces > 0 {
            let start = content.first().map_or(0, |p| p.unit);
            lost.push(Unexpressed {
                start,
                len: spaces,
                what: Loss::LeadingSpaces,
            });
            omitted.push(Omitted {
                at: expected_pos,
                units: spaces,
            });
            drop_leading(&mut content, spaces);
        }
        for p in content.iter().chain(&brk) {
            expected_pos += utf16_len(p.text);
        }
        let codes = if content.is_empty() {
            StyleSet::EMPTY
        } else {
            codes
        };
        plans.push(Plan {
            content,
            brk,
            codes,
        });
    }
    (plans, omitted)
}

/// The number of spaces a line's content starts with.
fn leading_spaces(content: &[Piece<'_>]) -> usize {
    let mut n = 0;
    for p in content {
        let k = p.text.bytes().take_while(|&b| b == b' ').count();
        n += k;
        if k < p.text.len() {
            break;
        }
    }
    n
}

/// Removes the first `spaces` bytes (all spaces) from a line's pieces.
fn drop_leading(content: &mut Vec<Piece<'_>>, spaces: usize) {
    let mut left = spaces;
    content.retain_mut(|p| {
        if left == 0 {
            return true;
        }
        let n = left.min(p.text.len());
        left -= n;
        p.text = p.text.get(n..).unwrap_or("");
        p.byte += n;
        p.unit += n;
        !p.text.is_empty()
    });
}

/// The style each emitted piece is written with, and each line break's; a break keeps a
/// delimiter style only when the text on both sides (on non-empty lines) has it too.
fn piece_styles(plans: &[Plan<'_>]) -> (Vec<StyleSet>, Vec<StyleSet>) {
    let mut styles: Vec<StyleSet> = Vec::new();
    let mut break_styles: Vec<StyleSet> = Vec::with_capacity(plans.len());
    for (k, plan) in plans.iter().enumerate() {
        styles.extend(plan.content.iter().map(|p| sayable(p.style)));
        let Some(nl) = plan.brk.last() else {
            break_styles.push(StyleSet::EMPTY);
            continue;
        };
        let before = plan.content.last().map(|p| delims_of(p.style));
        let after = plans
            .get(k + 1)
            .and_then(|n| n.content.first())
            .map(|p| delims_of(p.style));
        let mut st = sayable(nl.style);
        for c in delims_of(st).iter() {
            let both =
                before.is_some_and(|s| s.contains(c)) && after.is_some_and(|s| s.contains(c));
            if !both {
                st.remove(c);
            }
        }
        styles.push(st);
        break_styles.push(st);
    }
    (styles, break_styles)
}

/// The line prefix of line codes (P3, P4): `2d` spaces for `ind_d`, then the list marker.
fn push_prefix(out: &mut String, codes: StyleSet) {
    let level = codes
        .get(Family::Indent)
        .and_then(StyleCode::indent_level)
        .unwrap_or(0);
    for _ in 0..level {
        out.push_str("  ");
    }
    if let Some(marker) = codes.get(Family::List).and_then(|c| row(c).list_marker) {
        out.push_str(marker);
    }
}

/// Writes the planned lines with their styles; returns the markdown and the message as
/// meant (what the markdown should read back as).
fn write(
    plans: &[Plan<'_>],
    styles: &[StyleSet],
    break_styles: &[StyleSet],
    len: usize,
) -> (String, Formatted) {
    let delim_styles: Vec<StyleSet> = styles.iter().map(|s| delims_of(*s)).collect();
    let ends = stretch_ends(&delim_styles);
    let mut w = Writer {
        out: String::with_capacity(len + len / 4 + 16),
        delims: InlineStack::default(),
        tags: [None; INLINE_SLOTS],
    };
    let mut meant_text = String::with_capacity(len);
    let mut meant: Vec<(usize, StyleSet)> = Vec::new();
    let mut at = 0usize;
    let first_class = |t: &str| t.chars().next().map_or(Class::Whitespace, class);
    let last_class = |t: &str| t.chars().next_back().map_or(Class::Whitespace, class);
    let mut prev = Class::Whitespace;
    for (plan, brk_style) in plans.iter().zip(break_styles) {
        prev = Class::Whitespace;
        if let Some(first) = plan.content.first() {
            push_prefix(&mut w.out, plan.codes);
            let first_byte = first.byte;
            // The `.` of a leading `1.`–`999.` (P3) is escaped.
            let line_text: String = plan.content.iter().map(|p| p.text).collect();
            let digits = line_text.bytes().take_while(u8::is_ascii_digit).count();
            let dot = ((1..=3).contains(&digits)
                && line_text.as_bytes().get(digits) == Some(&b'.'))
            .then_some(first_byte + digits);
            for p in &plan.content {
                let style = styles.get(at).copied().unwrap_or_default();
                w.to(style, ends.get(at), prev, first_class(p.text));
                at += 1;
                escape(&mut w.out, p, first_byte, dot);
                prev = last_class(p.text);
                meant_text.push_str(p.text);
                meant.push((utf16_len(p.text), sayable(p.style).with(plan.codes)));
            }
        }
        if !plan.brk.is_empty() {
            w.to(*brk_style, ends.get(at), prev, Class::Whitespace);
            at += 1;
            for p in &plan.brk {
                w.out.push_str(p.text);
                meant_text.push_str(p.text);
                meant.push((utf16_len(p.text), sayable(p.style)));
            }
        }
    }
    w.to(StyleSet::EMPTY, None, prev, Class::Whitespace);
    let meant = Formatted {
        text: meant_text,
        text_styles: runs_from(meant),
    };
    (w.out, meant)
}

/// Reports where the re-parse `back` differs from the message as `meant`: ranges whose
/// delimiters the flanking rules could not place, mapped back to positions of the message
/// `f` (over the left-out spaces); or the whole text when the texts differ otherwise.
fn placement_losses(
    f: &Formatted,
    back: &Formatted,
    meant: &Formatted,
    omitted: &[Omitted],
    lost: &mut Vec<Unexpressed>,
) {
    let Some((kept, extras)) = align(back, &meant.text) else {
        lost.push(Unexpressed {
            start: 0,
            len: utf16_len(&f.text),
            what: Loss::Text,
        });
        return;
    };
    let mut ranges = differences(&kept.text_styles, &meant.text_styles);
    if ranges.is_empty() {
        // Literal delimiters and no style lost: point at where they stand.
        let total = utf16_len(&meant.text);
        ranges = extras
            .iter()
            .map(|&e| Span::new(e.min(total.saturating_sub(1)), (e + 1).min(total)))
            .collect();
    }
    // Map positions of the meant text back to the message (left-out spaces).
    let mut shift = 0usize;
    let mut om = omitted.iter().peekable();
    for r in ranges {
        while let Some(o) = om.peek() {
            if o.at > r.start {
                break;
            }
            shift += o.units;
            om.next();
        }
        lost.push(Unexpressed {
            start: r.start + shift,
            len: r.len().max(1),
            what: Loss::Placement,
        });
    }
    sort_by_key32(lost, |u| sat32(u.start));
}

#[cfg(test)]
mod tests {
    use crate::{parse_markdown, Formatted, Loss, StyleCode, StyleSet, TextStyle};

    fn round(md: &str) -> Formatted {
        let f = parse_markdown(md);
        let back = f.to_markdown();
        assert!(back.is_lossless(), "{md:?} -> {back:?}");
        assert_eq!(parse_markdown(&back.text), f, "{md:?} -> {:?}", back.text);
        f
    }

    #[test]
    fn render_markdown_round_trips_markup() {
        for md in [
            "plain",
            "**b** *i* ~~s~~ {underline}u{/underline} {big}B{/big} {green}g{/green}",
            "- a\n- b\n  1. c\n> d\n>> e",
            "***bi*** **b *bi* b**",
            "**a\nb**\n\nc",
            "\\*\\_\\~\\` \\{red\\} \\<red> \\# \\- \\> 1\\. \\\\",
            "\\# not a heading\n\\- not a bullet\n12\\. no\n\\> no",
            "a\r\nb\rc",
        ] {
            round(md);
        }
    }

    #[test]
    fn render_markdown_crossing_styles_use_separators_i4() {
        let s = StyleSet::of(StyleCode::Strike);
        let i = StyleSet::of(StyleCode::Italic);
        let f = Formatted {
            text: "jw ys nw".into(),
            text_styles: vec![
                TextStyle {
                    start: 0,
                    len: 3,
                    st: s,
                },
                TextStyle {
                    start: 3,
                    len: 2,
                    st: s.with(i),
                },
                TextStyle {
                    start: 5,
                    len: 3,
                    st: i,
                },
            ],
        };
        let md = f.to_markdown();
        assert_eq!(md.text, "~~jw *ys*~~*<big></big> nw*");
        assert!(md.is_lossless());
        assert_eq!(parse_markdown(&md.text), f);
    }

    #[test]
    fn render_markdown_reports_losses() {
        let small = StyleSet::of(StyleCode::Small);
        let f = Formatted {
            text: "a\n  b".into(),
            text_styles: vec![TextStyle {
                start: 0,
                len: 1,
                st: small,
            }],
        };
        let u = f.to_markdown().unexpressed;
        let what: Vec<_> = u
            .iter()
            .map(|x| (x.start, x.len, x.what.as_str()))
            .collect();
        assert_eq!(what, [(0, 1, "code"), (2, 2, "leading_spaces")]);
        // bold over a blank line: emphasis pairs only within a paragraph (I6)
        let bold = StyleSet::of(StyleCode::Bold);
        let f = Formatted {
            text: "a\n\nb".into(),
            text_styles: vec![TextStyle {
                start: 0,
                len: 4,
                st: bold,
            }],
        };
        let md = f.to_markdown();
        assert_eq!(md.text, "**a**\n\n**b**");
        let placed: Vec<_> = md
            .unexpressed
            .iter()
            .map(|x| (x.start, x.len, x.what))
            .collect();
        assert_eq!(placed, [(1, 2, Loss::Placement)]);
        // bold after a letter, punctuation inside: separators make it expressible
        let f = Formatted {
            text: "a.b.c".into(),
            text_styles: vec![TextStyle {
                start: 1,
                len: 3,
                st: bold,
            }],
        };
        let md = f.to_markdown();
        assert!(md.is_lossless(), "{md:?}");
        assert_eq!(parse_markdown(&md.text), f);
    }
}
