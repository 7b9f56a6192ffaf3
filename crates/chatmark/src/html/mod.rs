//! HTML mode (spec section 3, H1–H9): a token stream from one of two tokenizers, read by the
//! tree-less HTML-subset semantics into the shared run builder.

mod entities;
#[cfg(feature = "html5ever")]
mod html5ever_backend;
mod names;
mod semantics;
pub mod token;
pub mod tokenizer;

use crate::builder::FormattedBuilder;
use crate::source::Src;
use crate::{Diagnostic, Formatted, FormattedUtf16};

/// Which tokenizer produces the token stream of HTML mode (H1).
///
/// The default is chatmark's own tokenizer, or html5ever's when the `html5ever` feature is
/// on (servers that prefer it get it everywhere, `parse_html` and `resolve` included). The
/// two agree on every input: the html5lib suites, a differential property test and a fuzz
/// target check it.
///
/// # Examples
///
/// ```
/// use chatmark::html::{parse_html_with, Backend};
/// let (f, _) = parse_html_with("<b>x</b>", Backend::Own);
/// assert_eq!(f.text, "x");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Backend {
    /// chatmark's own compact WHATWG data-state tokenizer.
    #[cfg_attr(not(feature = "html5ever"), default)]
    Own,
    /// html5ever's tokenizer (cargo feature `html5ever`).
    #[cfg(feature = "html5ever")]
    #[default]
    Html5ever,
}

/// Parses `input` as HTML mode with the given tokenizer, returning diagnostics too.
///
/// # Examples
///
/// ```
/// use chatmark::html::{parse_html_with, Backend};
/// let (f, diags) = parse_html_with("<i>a</i></b>", Backend::default());
/// assert_eq!(f.text, "a");
/// assert_eq!(diags.len(), 1);
/// ```
pub fn parse_html_with(input: &str, backend: Backend) -> (Formatted, Vec<Diagnostic>) {
    parse(input, backend, true)
}

/// Parses `input` as HTML mode (spec section 3) with the default tokenizer.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_html("<b>x</b> y");
/// assert_eq!(f.text, "x y");
/// assert_eq!(f.text_styles[0].len, 1);
/// ```
pub fn parse_html(input: &str) -> Formatted {
    parse(input, Backend::default(), false).0
}

/// Whether `input` holds no byte that HTML mode reads as anything but text: no `<` (every
/// tag, comment and doctype starts with one), no `&` (character references) and no `\r`
/// (H1's newline preprocessing). Such a message is one run of character tokens for either
/// tokenizer, with no element and so no H6 boundary: its own text, with no runs and no
/// diagnostics (H1, H2), and HTML mode skips the tokenizer and the semantics for it.
/// The data state's own search (eight bytes at a time) answers it.
fn is_text_only(input: &[u8]) -> bool {
    tokenizer::find_special(input).is_none()
}

/// The working buffers of HTML mode, kept per thread and reused across messages, so that a
/// message costs no allocation beyond its result once they have grown.
#[derive(Debug, Default)]
struct Scratch {
    semantics: semantics::Scratch,
    tokenizer: tokenizer::Buffers,
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const {
        core::cell::RefCell::new(Scratch {
            semantics: semantics::Scratch::NEW,
            tokenizer: tokenizer::Buffers::NEW,
        })
    };
}

/// Runs a tokenizer into the semantics with this thread's scratch buffers (fresh ones if they
/// are in use); diagnostics are collected only when `notes` is asked for.
fn parse(input: &str, backend: Backend, notes: bool) -> (Formatted, Vec<Diagnostic>) {
    let out = FormattedBuilder::with_capacity(input.len(), 0);
    let (out, diagnostics) = parse_into(input, backend, notes, out);
    (out.finish(), diagnostics)
}

/// Parses `input` into `out` (whose text is UTF-8 or UTF-16) with this thread's scratch
/// buffers (fresh ones if they are in use).
fn parse_into(
    input: &str,
    backend: Backend,
    notes: bool,
    mut out: FormattedBuilder,
) -> (FormattedBuilder, Vec<Diagnostic>) {
    if is_text_only(input.as_bytes()) {
        out.plain(Src::Utf8(input));
        return (out, Vec::new());
    }
    let mut slot = Some(out);
    let mut result = None;
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        let Some(out) = slot.take() else { return };
        let mut sink = semantics::Semantics::new(input, &mut scratch.semantics, notes, out);
        match backend {
            Backend::Own => tokenizer::tokenize_lean(input, &mut sink, &mut scratch.tokenizer),
            #[cfg(feature = "html5ever")]
            Backend::Html5ever => html5ever_backend::tokenize(input, &mut sink),
        }
        result = Some(sink.finish());
        scratch.semantics.reset();
        scratch.tokenizer.reset();
    });
    result.unwrap_or_else(|| (FormattedBuilder::with_capacity(0, 0), Vec::new()))
}

/// Parses UTF-8 `input` as HTML mode (spec section 3) with the default tokenizer into `out`,
/// the text written as UTF-16: for hosts whose strings are UTF-16 (the npm package), which
/// then never transcode the result. Replaces what `out` held but reuses its buffers.
///
/// # Examples
///
/// ```
/// let mut out = chatmark::FormattedUtf16::default();
/// chatmark::html::parse_html_utf16_into("<b>é</b> 😀", &mut out);
/// assert_eq!(out.text, "é 😀".encode_utf16().collect::<Vec<u16>>());
/// assert_eq!(out.to_formatted(), chatmark::parse_html("<b>é</b> 😀"));
/// ```
pub fn parse_html_utf16_into(input: &str, out: &mut FormattedUtf16) {
    let text = core::mem::take(&mut out.text);
    let runs = core::mem::take(&mut out.text_styles);
    let b = FormattedBuilder::utf16(text, runs, input.len(), 0);
    let (b, _) = parse_into(input, Backend::default(), false, b);
    (out.text, out.text_styles) = b.finish_utf16();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message the fast path takes gives the same result through the tokenizer and
    /// the semantics: its own text, no runs, no diagnostics. Random messages from pieces
    /// that are text in HTML mode, with now and then a piece that is not (a table missing
    /// one would let such a message through, and the two paths would disagree).
    #[test]
    fn text_only_messages_parse_to_themselves_h1_h2() {
        let pieces = [
            "a", "word", " ", "  ", "\n", "\n\n", "\t", "\x0c", "\0", ">", "/", "=", "\"", "'",
            "é", "😀", "**", "{red}", "#", "- ", ";", "amp", "\u{a0}", "\u{fffd}",
        ];
        let markup = [
            "<b>",
            "</b>",
            "<br>",
            "&amp;",
            "&",
            "<",
            "\r\n",
            "\r",
            "<!-- x -->",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut taken = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..(x % 24) {
                let r = x.rotate_left(k as u32 * 7) ^ k.wrapping_mul(0x9E37_79B9);
                text.push_str(if r % 11 == 0 {
                    markup[(r / 11 % markup.len() as u64) as usize]
                } else {
                    pieces[(r % pieces.len() as u64) as usize]
                });
            }
            if !is_text_only(text.as_bytes()) {
                assert!(text.contains(['<', '&', '\r']), "{text:?}");
                continue;
            }
            taken += 1;
            let mut scratch = Scratch::default();
            let out = FormattedBuilder::with_capacity(0, 0);
            let mut sink = semantics::Semantics::new(&text, &mut scratch.semantics, true, out);
            tokenizer::tokenize_lean(&text, &mut sink, &mut scratch.tokenizer);
            let (f, diags) = sink.finish();
            let f = f.finish();
            assert_eq!(f.text, text, "{text:?}");
            assert!(f.text_styles.is_empty(), "{text:?}: {:?}", f.text_styles);
            assert!(diags.is_empty(), "{text:?}");
            assert_eq!(parse_html_with(&text, Backend::default()), (f, diags));
        }
        assert!(taken > 1000, "only {taken} text-only messages generated");
    }
}
