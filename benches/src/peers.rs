//! The peers chatmark is measured against, one function each, shared by the criterion
//! benches (`benches/engine.rs`) and the instruction counter (`examples/instructions.rs`)
//! so both time exactly the same work. Compiled into those targets with `#[path]`, not into
//! the library: the peers are dev-dependencies.

use std::hint::black_box;

/// pulldown-cmark's event stream with strikethrough on (our dialect has `~~`), counted:
/// the work a markdown user would otherwise pay for, with no output built. Built with its
/// `simd` feature (the workspace's Cargo.toml), its fastest: an SSSE3 search for the bytes
/// that may begin markup, chosen at run time.
pub fn pulldown_events(input: &str) -> usize {
    let opts = pulldown_cmark::Options::ENABLE_STRIKETHROUGH;
    pulldown_cmark::Parser::new_ext(input, opts).count()
}

/// pulldown-cmark's event stream with the options of the CommonMark import (spec section 9:
/// tables, strikethrough, task lists), counted: what `from_commonmark` builds its result
/// from, with no output built.
pub fn pulldown_gfm_events(input: &str) -> usize {
    use pulldown_cmark::Options;
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    pulldown_cmark::Parser::new_ext(input, opts).count()
}

/// html5ever's tokenizer with a sink that only counts tokens.
pub fn html5ever_tokens(input: &str) -> usize {
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::{
        BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };
    struct Count(std::cell::Cell<usize>);
    impl TokenSink for Count {
        type Handle = ();
        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            black_box(token);
            self.0.set(self.0.get() + 1);
            TokenSinkResult::Continue
        }
    }
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(input));
    let tok = Tokenizer::new(Count(std::cell::Cell::new(0)), TokenizerOpts::default());
    let _ = tok.feed(&queue);
    tok.end();
    tok.sink.0.get()
}
