//! `Formatted::to_html` (spec W1): an HTML fragment that a browser shows as the message
//! looks and that `parse_html` reads back exactly (H3–H8) for every canonical message whose
//! line codes cover whole lines.
//!
//! How each part maps (and why it reads back):
//!
//! - `b i u s` are the tags `<b> <i> <u> <s>`; sizes and colours are `<span style>` with a
//!   fixed value from a table (H4), never user text. Inline tags form a stack that only
//!   nests properly: at a style change the features above the longest still-wanted prefix
//!   close and the missing ones open, longest-lived first (H5).
//! - Every `\n` is a `<br>` (H7), opened inside the inline tags of the `\n`, so it carries
//!   exactly its inline codes. Because every line break is a `br`, the output already ends
//!   with `\n` whenever a block boundary precedes content, so H6 never inserts one.
//! - Line codes become containers (H8): `lst_k` + `ind_d` is `d + 1` nested lists with the
//!   line in an `li` of the innermost (a `ul`/`ol` of kind `k`); `ind_d` alone is `d` nested
//!   `blockquote`s. Consecutive lines share the containers they have in common; each list
//!   line is its own `li`. Empty lines stay in the current container (they carry no code).
//! - Text is escaped in one scan (`& < > " '`); `\r` is `&#13;` (H1 would turn a typed one
//!   into `\n`); whitespace at the start and end of a line's content is written as
//!   character references (`&#32;`, `&#9;`, `&#12;`) so that H6 never drops it.

use super::{lines, stretch_ends, Ends, Feature, InlineStack, Line};
use crate::vocab::{push_hex, row, PALETTE, SIZES};
use crate::{Family, Formatted, StyleCode, StyleSet};

/// Writes the open tag of an inline feature.
fn open_tag(out: &mut String, f: Feature) {
    out.push('<');
    out.push_str(row(f.0).element);
    if let Some(&(_, px)) = SIZES.iter().find(|s| s.0 == f.0) {
        out.push_str(" style=\"font-size:");
        // sizes are two-digit pixel counts
        for d in [px / 10 % 10, px % 10] {
            out.push(char::from(b'0' + d as u8));
        }
        out.push_str("px\"");
    } else if let Some(c) = PALETTE.iter().find(|c| c.code == f.0) {
        out.push_str(" style=\"color:");
        push_hex(out, c.rgb);
        out.push('"');
    }
    out.push('>');
}

/// Writes the close tag of an inline feature.
fn close_tag(out: &mut String, f: Feature) {
    out.push_str("</");
    out.push_str(row(f.0).element);
    out.push('>');
}

/// Escapes `s` into `out` in one scan, pushing unescaped slices whole (W1). With
/// `ws_refs`, spaces, tabs and form feeds become character references too (H6).
fn escape(out: &mut String, s: &str, ws_refs: bool) {
    let mut from = 0;
    for (k, b) in s.bytes().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            b'\r' => "&#13;",
            b'\n' => "&#10;",
            b' ' if ws_refs => "&#32;",
            b'\t' if ws_refs => "&#9;",
            0x0C if ws_refs => "&#12;",
            _ => continue,
        };
        out.push_str(s.get(from..k).unwrap_or(""));
        out.push_str(rep);
        from = k + 1;
    }
    out.push_str(s.get(from..).unwrap_or(""));
}

/// The H6 whitespace characters (all ASCII).
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0C)
}

/// An open block container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    Quote,
    /// A `ul`/`ol` (kind `lst_1`/`lst_2`) with an open `li`.
    List(StyleCode),
}

/// What one level of a line's containers must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Quote,
    /// An outer list level: any list with an open item.
    Outer(StyleCode),
    /// The line's own list: a new `li` in a list of this kind.
    Item(StyleCode),
}

fn wants(codes: StyleSet) -> Vec<Want> {
    let depth = codes
        .get(Family::Indent)
        .and_then(StyleCode::indent_level)
        .unwrap_or(0);
    match codes.get(Family::List) {
        Some(kind) => {
            let mut w = vec![Want::Outer(kind); depth];
            w.push(Want::Item(kind));
            w
        }
        None => vec![Want::Quote; depth],
    }
}

const fn fits(frame: Frame, want: Want) -> bool {
    match (frame, want) {
        (Frame::Quote, Want::Quote) | (Frame::List(_), Want::Outer(_)) => true,
        (Frame::List(a), Want::Item(b)) => a as u8 == b as u8,
        _ => false,
    }
}

struct Writer {
    out: String,
    frames: Vec<Frame>,
    inline: InlineStack,
}

impl Writer {
    fn close_inline(&mut self) {
        let out = &mut self.out;
        self.inline
            .transition(StyleSet::EMPTY, None, |f| close_tag(out, f), |_| {});
    }

    fn style(&mut self, style: StyleSet, ends: Option<&Ends>) {
        let out = &mut self.out;
        // Two closures may not both borrow `out`: collect the opens, then write them.
        let mut opens: Vec<Feature> = Vec::new();
        self.inline
            .transition(style, ends, |f| close_tag(out, f), |f| opens.push(f));
        for f in opens {
            open_tag(&mut self.out, f);
        }
    }

    /// Puts the containers of a line with `codes` in place (H8), sharing the open ones.
    fn blocks(&mut self, codes: StyleSet) {
        let want = wants(codes);
        let shared = self
            .frames
            .iter()
            .zip(&want)
            .take_while(|(f, w)| fits(**f, **w))
            .count();
        let new_item = shared == want.len() && matches!(want.last(), Some(Want::Item(_)));
        if shared == self.frames.len() && shared == want.len() && !new_item {
            return;
        }
        self.close_inline();
        while self.frames.len() > shared {
            self.close_frame();
        }
        if new_item {
            self.out.push_str("</li><li>");
        }
        for w in want.get(shared..).unwrap_or_default() {
            match *w {
                Want::Quote => {
                    self.out.push_str("<blockquote>");
                    self.frames.push(Frame::Quote);
                }
                Want::Outer(kind) => {
                    self.open_list(kind);
                    self.out.push_str("<li style=\"list-style-type:none\">");
                    self.frames.push(Frame::List(kind));
                }
                Want::Item(kind) => {
                    self.open_list(kind);
                    self.out.push_str("<li>");
                    self.frames.push(Frame::List(kind));
                }
            }
        }
    }

    /// Opens the list element of list code `kind` (H3: `ul` is `lst_1`, `ol` is `lst_2`).
    fn open_list(&mut self, kind: StyleCode) {
        self.out.push('<');
        self.out.push_str(row(kind).element);
        self.out.push('>');
    }

    fn close_frame(&mut self) {
        match self.frames.pop() {
            Some(Frame::Quote) => self.out.push_str("</blockquote>"),
            Some(Frame::List(kind)) => {
                self.out.push_str("</li></");
                self.out.push_str(row(kind).element);
                self.out.push('>');
            }
            None => {}
        }
    }

    /// Writes one line's content, leading and trailing whitespace as references (H6).
    fn content(&mut self, text: &str, line: &Line<'_>, ends: &[Ends], at: &mut usize) {
        let (cs, ce) = line.content_range();
        let body = text.get(cs..ce).unwrap_or("");
        let lead = cs + body.bytes().take_while(|&b| is_space(b)).count();
        let trail = ce - body.bytes().rev().take_while(|&b| is_space(b)).count();
        let trail = trail.max(lead);
        for p in &line.content {
            self.style(p.style, ends.get(*at));
            *at += 1;
            let (pb, pe) = (p.byte, p.byte + p.text.len());
            let a = lead.clamp(pb, pe);
            let b = trail.clamp(pb, pe);
            escape(&mut self.out, text.get(pb..a).unwrap_or(""), true);
            escape(&mut self.out, text.get(a..b).unwrap_or(""), false);
            escape(&mut self.out, text.get(b..pe).unwrap_or(""), true);
        }
    }
}

impl Formatted {
    /// Renders the message as an HTML fragment (W1) that `parse_html` reads back exactly
    /// when its line codes cover whole lines.
    ///
    /// # Examples
    ///
    /// ```
    /// let f = chatmark::parse_markdown("- **a** {red}<b>{/red}");
    /// assert_eq!(
    ///     f.to_html(),
    ///     "<ul><li><b>a</b> <span style=\"color:#db342e\">&lt;b&gt;</span></li></ul>"
    /// );
    /// assert_eq!(chatmark::parse_html(&f.to_html()), f);
    /// ```
    pub fn to_html(&self) -> String {
        let lines = lines(self);
        let styles: Vec<StyleSet> = lines
            .iter()
            .flat_map(|l| l.content.iter().chain(&l.brk).map(|p| p.style))
            .collect();
        let ends = stretch_ends(&styles);
        let mut w = Writer {
            out: String::with_capacity(self.text.len() * 2 + 16),
            frames: Vec::new(),
            inline: InlineStack::default(),
        };
        let mut at = 0usize;
        for line in &lines {
            if !line.content.is_empty() {
                w.blocks(line.codes);
                w.content(&self.text, line, &ends, &mut at);
            }
            for p in &line.brk {
                w.style(p.style, ends.get(at));
                at += 1;
                if p.text == "\n" {
                    w.out.push_str("<br>");
                } else {
                    escape(&mut w.out, p.text, true);
                }
            }
        }
        w.close_inline();
        while !w.frames.is_empty() {
            w.close_frame();
        }
        w.out
    }
}

#[cfg(test)]
mod tests {
    use crate::{Formatted, StyleCode, StyleSet, TextStyle};

    fn f(text: &str, runs: &[(usize, usize, &[StyleCode])]) -> Formatted {
        Formatted {
            text: text.into(),
            text_styles: runs
                .iter()
                .map(|&(start, len, st)| TextStyle {
                    start,
                    len,
                    st: st.iter().copied().collect::<StyleSet>(),
                })
                .collect(),
        }
    }

    #[test]
    fn render_html_escapes_every_special_character() {
        let x = f("<script>&\"'</script>", &[]);
        assert_eq!(x.to_html(), "&lt;script&gt;&amp;&quot;&#39;&lt;/script&gt;");
    }

    #[test]
    fn render_html_breaks_and_edge_whitespace() {
        let x = f(" a b\t\r\n\r", &[]);
        assert_eq!(x.to_html(), "&#32;a b&#9;&#13;<br>&#13;");
    }

    #[test]
    fn render_html_nests_crossing_styles() {
        use StyleCode::*;
        let x = f(
            "abc",
            &[(0, 1, &[Bold]), (1, 1, &[Bold, Italic]), (2, 1, &[Italic])],
        );
        assert_eq!(x.to_html(), "<b>a<i>b</i></b><i>c</i>");
        let x = f("ab", &[(0, 1, &[Red, Large]), (1, 1, &[Green, Large])]);
        assert_eq!(
            x.to_html(),
            "<span style=\"font-size:18px\"><span style=\"color:#db342e\">a</span>\
             <span style=\"color:#15a85f\">b</span></span>"
        );
    }

    #[test]
    fn render_html_lists_and_indents_h8() {
        use StyleCode::*;
        let x = f(
            "a\nb\nc\nd",
            &[
                (0, 1, &[Bullet]),
                (2, 1, &[Ordered, Indent1]),
                (4, 1, &[Bullet]),
                (6, 1, &[Indent2]),
            ],
        );
        assert_eq!(
            x.to_html(),
            "<ul><li>a<br><ol><li>b<br></li></ol></li><li>c<br></li></ul>\
             <blockquote><blockquote>d</blockquote></blockquote>"
        );
    }

    #[test]
    fn render_html_break_carries_inline_codes_in_a_list() {
        use StyleCode::*;
        let x = f(
            "a\nb",
            &[
                (0, 1, &[Bold, Bullet]),
                (1, 1, &[Bold]),
                (2, 1, &[Bold, Bullet]),
            ],
        );
        assert_eq!(
            x.to_html(),
            "<ul><li><b>a<br></b></li><li><b>b</b></li></ul>"
        );
    }
}
