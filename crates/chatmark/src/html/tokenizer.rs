//! PLACEHOLDER tokenizer: emits the whole input as text (replaced by the WHATWG tokenizer).

use super::token::TokenSink;

/// Tokenizes `input` in the WHATWG data state into `sink` (H1).
///
/// # Examples
///
/// ```
/// // see chatmark::parse_html
/// ```
pub fn tokenize<S: TokenSink>(input: &str, sink: &mut S) {
    sink.text(input);
}
