//! Shared by the integration tests: a sink recording the HTML token stream and the seeded
//! generator.

#![allow(dead_code)]

pub mod rng;

use chatmark::html::token::{StartTag, TokenSink};

/// One recorded token; consecutive text (or reference) chunks are merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Literal text.
    Text(String),
    /// Text produced by character references.
    Ref(String),
    /// A start tag: name, attributes, self-closing, span.
    Start(String, Vec<(String, String)>, bool, (usize, usize)),
    /// An end tag: name, span.
    End(String, (usize, usize)),
}

/// Records the token stream.
#[derive(Default)]
pub struct Rec(pub Vec<Tok>);

impl TokenSink for Rec {
    fn text(&mut self, text: &str) {
        assert!(!text.is_empty(), "a tokenizer sent empty text");
        if let Some(Tok::Text(t)) = self.0.last_mut() {
            t.push_str(text);
        } else if !text.is_empty() {
            self.0.push(Tok::Text(text.to_owned()));
        }
    }
    fn char_ref(&mut self, text: &str) {
        if let Some(Tok::Ref(t)) = self.0.last_mut() {
            t.push_str(text);
        } else if !text.is_empty() {
            self.0.push(Tok::Ref(text.to_owned()));
        }
    }
    fn start_tag(&mut self, tag: &StartTag<'_>) {
        let attrs = tag
            .attrs
            .iter()
            .map(|a| (a.name.clone(), a.value.clone()))
            .collect();
        self.0.push(Tok::Start(
            tag.name.to_owned(),
            attrs,
            tag.self_closing,
            tag.span,
        ));
    }
    fn end_tag(&mut self, name: &str, span: (usize, usize)) {
        self.0.push(Tok::End(name.to_owned(), span));
    }
}

/// The own tokenizer's stream for `input`.
pub fn own(input: &str) -> Vec<Tok> {
    let mut rec = Rec::default();
    chatmark::html::tokenizer::tokenize(input, &mut rec);
    rec.0
}

/// The html5ever backend's stream for `input`.
#[cfg(feature = "html5ever")]
pub fn html5ever(input: &str) -> Vec<Tok> {
    let mut rec = Rec::default();
    chatmark::html::tokenizer::tokenize_html5ever(input, &mut rec);
    rec.0
}
