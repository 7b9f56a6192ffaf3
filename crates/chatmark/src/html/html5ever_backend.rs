//! PLACEHOLDER: html5ever tokenizer backend (replaced by the tokenizer work).

use super::token::TokenSink;

pub(crate) fn tokenize<S: TokenSink>(input: &str, sink: &mut S) {
    sink.text(input);
}
