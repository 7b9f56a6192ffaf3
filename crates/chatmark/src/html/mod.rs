//! HTML mode (spec section 3, H1–H9): a token stream from one of two tokenizers, read by the
//! tree-less HTML-subset semantics into the shared run builder.

mod entities;
#[cfg(feature = "html5ever")]
mod html5ever_backend;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Backend {
    /// chatmark's own compact WHATWG data-state tokenizer.
    Own,
    /// html5ever's tokenizer (cargo feature `html5ever`).
    #[cfg(feature = "html5ever")]
    Html5ever,
}

impl Default for Backend {
    fn default() -> Self {
        #[cfg(feature = "html5ever")]
        return Backend::Html5ever;
        #[cfg(not(feature = "html5ever"))]
        Backend::Own
    }
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
    let mut sink = semantics::Semantics::new(input);
    match backend {
        Backend::Own => tokenizer::tokenize(input, &mut sink),
        #[cfg(feature = "html5ever")]
        Backend::Html5ever => html5ever_backend::tokenize(input, &mut sink),
    }
    sink.finish()
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
    parse_html_with(input, Backend::default()).0
}
