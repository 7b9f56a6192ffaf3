//! Raw HTML in imported CommonMark (M10): HTML is not interpreted, so its tags are removed
//! and the text between them stays, with `<br>` in any spelling read as a line break.
//! Inline HTML comes from pulldown-cmark one construct per event; an HTML block comes as
//! its lines, through which [`BlockHtml`] keeps its state (a tag or a comment may span
//! lines). One pass over the bytes, no lookbehind: linear (L1).

/// Whether `tag` (one raw HTML construct, `<…>`) is a `br` tag: `<br>`, `<br/>`, `<BR >`,
/// `</br>` (which browsers read as `<br>` too) or with attributes.
pub(super) fn is_br(tag: &[u8]) -> bool {
    let rest = match tag {
        [b'<', b'/', rest @ ..] | [b'<', rest @ ..] => rest,
        _ => return false,
    };
    match rest {
        [b, r, after @ ..] if b.eq_ignore_ascii_case(&b'b') && r.eq_ignore_ascii_case(&b'r') => {
            matches!(
                after.first(),
                None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
            )
        }
        _ => false,
    }
}

/// Where the block's reader is: in text, or inside a construct that ends at its own
/// terminator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Text,
    /// An open or closing tag, up to `>` outside quoted attribute values; `quote` is the
    /// open quote (`"` or `'`), if any.
    Tag { quote: Option<u8>, br: bool },
    /// `<!-- … -->`: `dashes` counts the `-` just read.
    Comment { dashes: u8 },
    /// `<? … ?>`: whether the byte just read was `?`.
    Instruction { question: bool },
    /// `<![CDATA[ … ]]>`: `brackets` counts the `]` just read.
    Cdata { brackets: u8 },
    /// `<!DOCTYPE …>` and other declarations, up to `>`.
    Declaration,
}

/// What [`BlockHtml::feed`] reports, in order: text pieces (slices of the chunk) and
/// line ends.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    /// Text between tags.
    Text(&'a str),
    /// A line ends here: a line break of the source or a `br` tag.
    LineEnd,
}

/// The reader of one HTML block's lines.
#[derive(Debug, Default)]
pub(super) struct BlockHtml {
    state: State,
}

impl BlockHtml {
    /// Reads one chunk of the block (pulldown-cmark gives a line per chunk), calling `out`
    /// with each text piece and line end.
    pub(super) fn feed<'a>(&mut self, chunk: &'a str, mut out: impl FnMut(Piece<'a>)) {
        let bytes = chunk.as_bytes();
        let mut text_from = 0;
        let mut k = 0;
        // every byte is looked at once; a text piece is cut only at ASCII bytes (`<`,
        // `\n`, `\r`), so the slices are whole characters
        while let Some(&b) = bytes.get(k) {
            match self.state {
                State::Text => match b {
                    b'<' => {
                        let after = bytes.get(k + 1..).unwrap_or_default();
                        let opened = match after {
                            [b'!', b'-', b'-', ..] => Some((State::Comment { dashes: 0 }, 4)),
                            [b'!', b'[', b'C', b'D', b'A', b'T', b'A', b'[', ..] => {
                                Some((State::Cdata { brackets: 0 }, 9))
                            }
                            [b'!', c, ..] if c.is_ascii_alphabetic() => {
                                Some((State::Declaration, 2))
                            }
                            [b'?', ..] => Some((State::Instruction { question: false }, 2)),
                            [c, ..] | [b'/', c, ..] if c.is_ascii_alphabetic() => Some((
                                State::Tag {
                                    quote: None,
                                    br: is_br(bytes.get(k..).unwrap_or_default()),
                                },
                                1,
                            )),
                            _ => None,
                        };
                        if let Some((state, skip)) = opened {
                            out_text(chunk, text_from, k, &mut out);
                            self.state = state;
                            k += skip;
                            text_from = k;
                            continue;
                        }
                    }
                    b'\n' => {
                        // a `\r` before it is part of the line break
                        let end = if k > text_from && bytes.get(k - 1) == Some(&b'\r') {
                            k - 1
                        } else {
                            k
                        };
                        out_text(chunk, text_from, end, &mut out);
                        out(Piece::LineEnd);
                        text_from = k + 1;
                    }
                    _ => {}
                },
                State::Tag { quote, br } => match (quote, b) {
                    (None, b'>') => {
                        self.state = State::Text;
                        text_from = k + 1;
                        if br {
                            out(Piece::LineEnd);
                        }
                    }
                    (None, b'"' | b'\'') => self.state = State::Tag { quote: Some(b), br },
                    (Some(q), _) if q == b => self.state = State::Tag { quote: None, br },
                    _ => {}
                },
                State::Comment { dashes } => {
                    self.state = match b {
                        b'-' => State::Comment {
                            dashes: dashes.saturating_add(1),
                        },
                        b'>' if dashes >= 2 => {
                            text_from = k + 1;
                            State::Text
                        }
                        _ => State::Comment { dashes: 0 },
                    }
                }
                State::Instruction { question } => {
                    self.state = match b {
                        b'>' if question => {
                            text_from = k + 1;
                            State::Text
                        }
                        _ => State::Instruction {
                            question: b == b'?',
                        },
                    }
                }
                State::Cdata { brackets } => {
                    self.state = match b {
                        b']' => State::Cdata {
                            brackets: brackets.saturating_add(1),
                        },
                        b'>' if brackets >= 2 => {
                            text_from = k + 1;
                            State::Text
                        }
                        _ => State::Cdata { brackets: 0 },
                    }
                }
                State::Declaration => {
                    if b == b'>' {
                        self.state = State::Text;
                        text_from = k + 1;
                    }
                }
            }
            k += 1;
        }
        if self.state == State::Text {
            out_text(chunk, text_from, bytes.len(), &mut out);
        }
    }
}

fn out_text<'a>(chunk: &'a str, from: usize, to: usize, out: &mut impl FnMut(Piece<'a>)) {
    if let Some(s) = chunk.get(from..to).filter(|s| !s.is_empty()) {
        out(Piece::Text(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(chunks: &[&str]) -> Vec<String> {
        let mut h = BlockHtml::default();
        let mut got = Vec::new();
        for c in chunks {
            h.feed(c, |p| {
                got.push(match p {
                    Piece::Text(t) => t.to_owned(),
                    Piece::LineEnd => "⏎".to_owned(),
                })
            });
        }
        got
    }

    #[test]
    fn br_in_any_spelling_m10() {
        for t in [
            "<br>",
            "<BR>",
            "<br/>",
            "<br />",
            "</br>",
            "<Br class=\"x\">",
        ] {
            assert!(is_br(t.as_bytes()), "{t}");
        }
        for t in ["<b>", "<brr>", "<abbr>", "br", "<", "<b", "< br>"] {
            assert!(!is_br(t.as_bytes()), "{t}");
        }
    }

    #[test]
    fn tags_go_text_stays_m10() {
        assert_eq!(
            read(&[
                "<div align=\"center\">\n",
                "  <img src=\"a>b\"> hi <br/>\n",
                "</div>\n"
            ]),
            ["⏎", "  ", " hi ", "⏎", "⏎", "⏎"]
        );
        assert_eq!(read(&["<p>a &amp; b</p>"]), ["a &amp; b"]);
    }

    #[test]
    fn comments_and_declarations_vanish_across_lines_m10() {
        assert_eq!(read(&["<!-- a\n", "b -- > c -->d\n"]), ["d", "⏎"]);
        assert_eq!(read(&["<?php x ?>y <!DOCTYPE html>z"]), ["y ", "z"]);
        assert_eq!(read(&["<![CDATA[ a ] ]> ]]>b"]), ["b"]);
        // a tag left open swallows the rest, as a browser reads it
        assert_eq!(read(&["a <span\n", "title='x>'>b\n"]), ["a ", "b", "⏎"]);
    }

    #[test]
    fn a_lone_angle_bracket_is_text_m10() {
        assert_eq!(read(&["1 < 2 <3 <\n"]), ["1 < 2 <3 <", "⏎"]);
        assert_eq!(read(&["a\r\n"]), ["a", "⏎"]);
    }
}
