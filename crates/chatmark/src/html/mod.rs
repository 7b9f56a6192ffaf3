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
use crate::text::source::well_formed;
use crate::text::source::TypedSource;
use crate::text::unit::Unit;
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
/// The data state's own search ([`crate::text::search::Html`]) answers it.
fn is_text_only<U: Unit>(input: &[U]) -> bool {
    crate::text::search::find::<crate::text::search::Html, U>(input, 0) == input.len()
}

/// The working buffers of HTML mode, kept per thread and reused across messages, so that a
/// message costs no allocation beyond its result once they have grown.
#[derive(Debug, Default)]
struct Scratch {
    semantics: semantics::Scratch,
    tokenizer: tokenizer::Buffers,
}

/// Messages longer than this (in units) trim the scratch buffers after them. A shorter one
/// grows no buffer past a few times its own size (a buffer holds a few entries or bytes per
/// unit read at most), so what it leaves is small, and the next message empties it anyway:
/// the trimming, a capacity test per buffer, is skipped for it.
const TRIM_AFTER: usize = 1 << 12;

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
    // The npm package's wasm holds the tokenizer for UTF-16 only (its hosts' strings, which
    // its parseHtml reads as they are): UTF-8 input, which only its sendMessage resolution
    // passes, is read through it, so that the wasm does not carry a second tokenizer.
    #[cfg(target_arch = "wasm32")]
    if backend == Backend::Own {
        return parse_through_utf16(input, notes);
    }
    let mut out = FormattedBuilder::with_capacity(input.len(), 0);
    let diagnostics = parse_into(input, backend, notes, &mut out);
    (out.finish(), diagnostics)
}

/// [`parse`] with chatmark's tokenizer, of UTF-8 input transcoded to UTF-16 first: the same
/// result (positions of a UTF-16 source are UTF-16 units already, as diagnostics count
/// them). What the wasm uses; tested natively against the UTF-8 reading.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn parse_through_utf16(input: &str, notes: bool) -> (Formatted, Vec<Diagnostic>) {
    let mut units = Vec::new();
    crate::push_utf16(&mut units, input);
    let mut out = FormattedBuilder::with_capacity(input.len(), 0);
    let diagnostics = parse_into(units.as_slice(), Backend::Own, notes, &mut out);
    (out.finish(), diagnostics)
}

/// Parses `input` (UTF-8 or UTF-16) into `out` (whose text is either) with this thread's
/// scratch buffers (fresh ones if they are in use). html5ever's tokenizer reads UTF-8 only:
/// UTF-16 input always goes through chatmark's own (the two agree on every input).
fn parse_into<'a, T: TypedSource<'a>>(
    input: T,
    backend: Backend,
    notes: bool,
    out: &mut FormattedBuilder,
) -> Vec<Diagnostic> {
    let src = input.source();
    if is_text_only(input.units()) {
        out.plain(src);
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        let mut sink = semantics::Semantics::new(src, &mut scratch.semantics, notes, out);
        match (backend, src) {
            #[cfg(feature = "html5ever")]
            (Backend::Html5ever, crate::text::source::Source::Utf8(s)) => {
                html5ever_backend::tokenize(s, &mut sink)
            }
            _ => tokenizer::tokenize_lean(input, &mut sink, &mut scratch.tokenizer),
        }
        diagnostics = sink.finish();
        if input.units().len() > TRIM_AFTER {
            scratch.semantics.reset();
            scratch.tokenizer.reset();
        }
    });
    diagnostics
}

/// Parses UTF-16 `input` as HTML mode (spec section 3), the text written as UTF-16 too: for
/// hosts whose strings are UTF-16 (JavaScript, Java, C#), which then never transcode. The
/// same parser as [`parse_html`] with chatmark's own tokenizer, with the same result; a lone
/// surrogate reads as U+FFFD, one unit for one (L2).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "<b>é</b> &amp; 😀".encode_utf16().collect();
/// let f = chatmark::parse_html_utf16(&input);
/// assert_eq!(String::from_utf16(&f.text).unwrap(), "é & 😀");
/// assert_eq!(f.to_formatted(), chatmark::parse_html("<b>é</b> &amp; 😀"));
/// ```
pub fn parse_html_utf16(input: &[u16]) -> FormattedUtf16 {
    let mut out = FormattedUtf16::default();
    parse_html_utf16_into(input, &mut out);
    out
}

/// [`parse_html_utf16`] into `out`, replacing what it held but reusing its buffers, so that
/// a caller parsing message after message allocates nothing once they have grown.
///
/// # Examples
///
/// ```
/// let mut out = chatmark::FormattedUtf16::default();
/// for s in ["<i>a</i>", "b<br>"] {
///     let input: Vec<u16> = s.encode_utf16().collect();
///     chatmark::parse_html_utf16_into(&input, &mut out);
/// }
/// assert_eq!(out.text, "b\n".encode_utf16().collect::<Vec<u16>>());
/// ```
pub fn parse_html_utf16_into(input: &[u16], out: &mut FormattedUtf16) {
    let input = well_formed(input);
    FormattedBuilder::utf16_into(out, input.len(), |mut b| {
        parse_into(&*input, Backend::Own, false, &mut b);
        b
    });
}

/// [`parse_html_utf16`] with the diagnostics too, positions in units of `input` (L3).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "😀<i>a".encode_utf16().collect();
/// let (f, diags) = chatmark::parse_html_utf16_with_diagnostics(&input);
/// assert_eq!(f.text, "😀a".encode_utf16().collect::<Vec<u16>>());
/// assert_eq!((diags[0].start, diags[0].len), (2, 3));
/// ```
pub fn parse_html_utf16_with_diagnostics(input: &[u16]) -> (FormattedUtf16, Vec<Diagnostic>) {
    let input = well_formed(input);
    let (mut out, mut diagnostics) = (FormattedUtf16::default(), Vec::new());
    FormattedBuilder::utf16_into(&mut out, input.len(), |mut b| {
        diagnostics = parse_into(&*input, Backend::Own, true, &mut b);
        b
    });
    (out, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-thread buffers give back what a long message made them grow, and a short one
    /// (which skips the trimming) leaves them within a few times its own size.
    #[test]
    fn scratch_is_trimmed_after_a_long_message() {
        let largest = || {
            SCRATCH.with(|s| {
                let s = s.borrow();
                s.semantics.largest().max(s.tokenizer.largest())
            })
        };
        // (a test runs on a thread of its own: the buffers start empty)
        let attrs = " a".repeat(300);
        let short = format!("<b{attrs}>x</b> <i>y</i>");
        assert!(short.len() <= TRIM_AFTER);
        let _ = parse_html_with(&short, Backend::Own);
        assert!(largest() <= 4 * short.len(), "{}", largest());
        // 300 attributes on a tag, long names and values, and some 20,000 elements
        let value = "v".repeat(3000);
        let long = format!("<b{attrs} x=\"{value}\">x</b><{value}>").repeat(4)
            + &"<i> y </i><u>z".repeat(5000);
        assert!(long.len() > TRIM_AFTER);
        let _ = parse_html_with(&long, Backend::Own);
        // the most a buffer keeps: 4,096 entries (the tokenizer's attribute values 1,024
        // bytes)
        assert!(largest() <= 1 << 12, "{}", largest());
    }

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
        let mut rng = crate::rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut taken = 0;
        for _ in 0..20_000 {
            let text = rng.text(24, &pieces, &markup, 11);
            if !is_text_only(text.as_bytes()) {
                assert!(text.contains(['<', '&', '\r']), "{text:?}");
                continue;
            }
            taken += 1;
            let mut scratch = Scratch::default();
            let mut out = FormattedBuilder::with_capacity(0, 0);
            let src = crate::text::source::Source::Utf8(&text);
            let mut sink = semantics::Semantics::new(src, &mut scratch.semantics, true, &mut out);
            tokenizer::tokenize_lean(text.as_str(), &mut sink, &mut scratch.tokenizer);
            let diags = sink.finish();
            let f = out.finish();
            assert_eq!(f.text, text, "{text:?}");
            assert!(f.text_styles.is_empty(), "{text:?}: {:?}", f.text_styles);
            assert!(diags.is_empty(), "{text:?}");
            assert_eq!(parse_html_with(&text, Backend::default()), (f, diags));
        }
        assert!(taken > 1000, "only {taken} text-only messages generated");
    }

    /// The wasm's reading of UTF-8 input, through the UTF-16 tokenizer, gives what the
    /// UTF-8 tokenizer gives, diagnostics included (H1, L3).
    #[test]
    fn utf8_read_through_utf16_reads_alike_h1() {
        let pieces = [
            "<b>",
            "</b>",
            "<i>",
            "</p>",
            "<ul><li>",
            "<br>",
            "é",
            "😀",
            "&amp;",
            "&notit;",
            "\r\n",
            "\r",
            " ",
            "\n",
            "<span style=\"color:red;font-weight:bold\">",
            "</span>",
            "<x>",
            "</y>",
            "<!-- c -->",
            "<font color=green>",
            "a",
            "<h1>",
            "<blockquote>",
        ];
        let mut rng = crate::rng::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..5000 {
            let text = rng.text(20, &pieces, &[], 1);
            assert_eq!(
                parse_through_utf16(&text, true),
                parse(&text, Backend::Own, true),
                "{text:?}"
            );
        }
    }
}
