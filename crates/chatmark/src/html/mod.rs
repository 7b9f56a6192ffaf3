//! HTML mode (spec section 3, H1–H9): a token stream from one of two tokenizers, read by the
//! tree-less HTML-subset semantics into the shared run builder.

mod entities;
#[cfg(feature = "html5ever")]
mod html5ever_backend;
mod names;
mod semantics;
pub mod token;
pub mod tokenizer;

use crate::{Diagnostic, Formatted};

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
    let mut out = (Formatted::default(), Vec::new());
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        let mut sink = semantics::Semantics::new(input, &mut scratch.semantics, notes);
        match backend {
            Backend::Own => tokenizer::tokenize_lean(input, &mut sink, &mut scratch.tokenizer),
            #[cfg(feature = "html5ever")]
            Backend::Html5ever => html5ever_backend::tokenize(input, &mut sink),
        }
        out = sink.finish();
        scratch.semantics.reset();
        scratch.tokenizer.reset();
    });
    out
}
