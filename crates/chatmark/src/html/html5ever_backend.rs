//! The html5ever backend of H1: html5ever's tokenizer (no tree builder, so it stays in the data
//! state) driven through an adapter that maps its tokens to chatmark's [`TokenSink`].
//!
//! html5ever reports neither byte positions nor which characters came from a character
//! reference, so the adapter re-derives both from how much input html5ever has consumed when
//! it emits each token (the input is fed as one buffer; what is left in the [`BufferQueue`]
//! tells the position):
//!
//! - a tag is emitted right after its `>` is consumed, so its span ends there, and starts where
//!   the text before it ended (skipping a `</>`, which html5ever ignores without a token);
//! - a character chunk is literal text when it equals the (newline-normalised) input at the
//!   current position and that input has already been consumed; otherwise it came from a
//!   reference, whose source ends at the consumed position. The one ambiguous chunk is `&`
//!   (`&amp;` gives `&` too): a failed reference pushes back everything after its `&`, so the
//!   `&` is literal exactly when nothing past it was consumed;
//! - at the end of the input html5ever finishes a pending reference on a private queue, so the
//!   chunks emitted then are resolved against the rest of the input instead: all literal when
//!   they spell it, else the first one or two are the reference's expansion.
//!
//! The differential test `tests/html_backends.rs` checks this against the own tokenizer, text
//! and reference kinds and spans included. The byte-order mark is kept (not discarded), as the
//! own tokenizer keeps it.
//!
//! Known limit (html5ever's, not the adapter's): html5ever checks each attribute of a tag
//! against all earlier ones, so one tag with very many attributes takes quadratic time
//! (50,000 attributes: about 1.1 s in release, against 15 ms for the own tokenizer). The own
//! tokenizer is the default backend and is linear (L1).

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink as H5Sink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

use super::token::{Attribute, StartTag, TokenSink};

/// Tokenizes `input` with html5ever's tokenizer into `sink` (H1, backend `Html5ever`).
///
/// Produces the same stream as [`super::tokenizer::tokenize`], spans included (they are
/// re-derived from html5ever's input consumption; see the module documentation).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "html5ever")] {
/// use chatmark::html::token::{StartTag, TokenSink};
/// use chatmark::html::tokenizer::tokenize_html5ever;
///
/// #[derive(Default)]
/// struct Log(Vec<String>);
/// impl TokenSink for Log {
///     fn text(&mut self, t: &str) { self.0.push(format!("text {t:?}")); }
///     fn char_ref(&mut self, t: &str) { self.0.push(format!("ref {t:?}")); }
///     fn start_tag(&mut self, tag: &StartTag<'_>) { self.0.push(format!("<{}>", tag.name)); }
///     fn end_tag(&mut self, name: &str, _span: (usize, usize)) { self.0.push(format!("</{name}>")); }
/// }
///
/// let mut log = Log::default();
/// tokenize_html5ever("<B>a&amp;b</b>", &mut log);
/// assert_eq!(log.0, ["<b>", "text \"a\"", "ref \"&\"", "text \"b\"", "</b>"]);
/// # }
/// ```
pub fn tokenize<S: TokenSink>(input: &str, sink: &mut S) {
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(input));
    let adapter = Adapter {
        input,
        queue: &queue,
        sink: RefCell::new(sink),
        state: RefCell::new(State::default()),
    };
    let opts = TokenizerOpts {
        discard_bom: false,
        ..TokenizerOpts::default()
    };
    let tokenizer = Tokenizer::new(adapter, opts);
    // The sink always answers `Continue`, so `feed` never stops for a script.
    let _ = tokenizer.feed(&queue);
    tokenizer.sink.state.borrow_mut().at_end = true;
    tokenizer.end();
    tokenizer.sink.finish_eof_chunks();
}

/// What the adapter tracks between tokens.
#[derive(Default)]
struct State {
    /// Byte position in the input up to which the source of the emitted tokens is accounted.
    cur: usize,
    /// Whether `Tokenizer::end` is running (the consumed position is no longer observable).
    at_end: bool,
    /// Character chunks emitted during `end`, resolved by `finish_eof_chunks`.
    eof_chunks: Vec<String>,
    /// Attribute buffer reused from tag to tag.
    attrs: Vec<Attribute>,
}

/// html5ever's token sink, forwarding to chatmark's.
struct Adapter<'a, S> {
    input: &'a str,
    queue: &'a BufferQueue,
    sink: RefCell<&'a mut S>,
    state: RefCell<State>,
}

/// Bytes of `chunk` matched by the input at `at` after newline normalisation (`\r\n`, `\r` →
/// `\n`), or `None`. A final `\n` matched by `\r` consumes the `\r` alone (html5ever skips the
/// `\n` that follows later, see [`skip_unseen`]).
fn match_literal(input: &[u8], at: usize, chunk: &str) -> Option<usize> {
    let mut p = at;
    let cb = chunk.as_bytes();
    for (k, &b) in cb.iter().enumerate() {
        let got = *input.get(p)?;
        if b == b'\n' && got == b'\r' {
            p += 1;
            if k + 1 < cb.len() && input.get(p) == Some(&b'\n') {
                p += 1;
            }
        } else if got == b {
            p += 1;
        } else {
            return None;
        }
    }
    Some(p - at)
}

/// Advances `cur` over input that produces no token: a `</>`, and the `\n` of a `\r\n` whose
/// `\r` was already accounted for.
fn skip_unseen(input: &[u8], mut cur: usize) -> usize {
    loop {
        if input.get(cur..).is_some_and(|r| r.starts_with(b"</>")) {
            cur += 3;
        } else if cur > 0 && input.get(cur - 1) == Some(&b'\r') && input.get(cur) == Some(&b'\n') {
            cur += 1;
        } else {
            return cur;
        }
    }
}

/// Whether `tail` ends with `s` after newline normalisation of `tail`.
fn ends_with_normalised(tail: &str, s: &str) -> bool {
    normalise(tail).ends_with(s)
}

/// `s` with `\r\n` and `\r` turned into `\n`.
fn normalise(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

impl<S: TokenSink> Adapter<'_, S> {
    /// How many input bytes html5ever has taken from the queue so far.
    fn consumed(&self) -> usize {
        // A clone shares the tendrils' buffers; it only costs the (short) deque.
        let rest = self.queue.clone();
        let mut left = 0usize;
        while let Some(t) = rest.pop_front() {
            left += t.len();
        }
        self.input.len().saturating_sub(left)
    }

    fn on_chars(&self, chunk: &str) {
        if chunk.is_empty() {
            return;
        }
        let mut st = self.state.borrow_mut();
        if st.at_end {
            st.eof_chunks.push(chunk.to_owned());
            return;
        }
        let input = self.input.as_bytes();
        let consumed = self.consumed();
        let cur = skip_unseen(input, st.cur);
        let literal = if chunk == "&" && input.get(cur) == Some(&b'&') {
            // A failed reference pushes back all but its `&`; a decoded `&amp;` does not.
            (consumed == cur + 1).then_some(1)
        } else {
            match_literal(input, cur, chunk).filter(|m| cur + m <= consumed)
        };
        let mut sink = self.sink.borrow_mut();
        match literal {
            Some(m) => {
                st.cur = cur + m;
                sink.text(chunk);
            }
            None => {
                st.cur = consumed.max(cur);
                sink.char_ref(chunk);
            }
        }
    }

    fn on_tag(&self, tag: &html5ever::tokenizer::Tag) {
        let mut st = self.state.borrow_mut();
        let input = self.input.as_bytes();
        let end = if st.at_end {
            self.input.len()
        } else {
            self.consumed()
        };
        let start = skip_unseen(input, st.cur).min(end);
        st.cur = end;
        let mut sink = self.sink.borrow_mut();
        match tag.kind {
            TagKind::EndTag => sink.end_tag(&tag.name, (start, end)),
            TagKind::StartTag => {
                let attrs = &mut st.attrs;
                attrs.truncate(tag.attrs.len());
                for (i, a) in tag.attrs.iter().enumerate() {
                    if let Some(slot) = attrs.get_mut(i) {
                        slot.name.clear();
                        slot.name.push_str(&a.name.local);
                        slot.value.clear();
                        slot.value.push_str(&a.value);
                    } else {
                        attrs.push(Attribute {
                            name: a.name.local.to_string(),
                            value: a.value.to_string(),
                        });
                    }
                }
                sink.start_tag(&StartTag {
                    name: &tag.name,
                    attrs,
                    self_closing: tag.self_closing,
                    span: (start, end),
                });
            }
        }
    }

    /// Markup that produces nothing (comment, doctype): its source ends where html5ever is.
    fn on_skipped(&self) {
        let mut st = self.state.borrow_mut();
        st.cur = if st.at_end {
            self.input.len()
        } else {
            self.consumed()
        };
    }

    /// Resolves the character chunks emitted while html5ever handled the end of the input:
    /// they are the rest of the input, or a pending reference's expansion (one or two chunks,
    /// html5ever emits a reference one character at a time) then the rest of its name.
    fn finish_eof_chunks(&self) {
        let mut st = self.state.borrow_mut();
        let chunks = std::mem::take(&mut st.eof_chunks);
        if chunks.is_empty() {
            return;
        }
        let cur = skip_unseen(self.input.as_bytes(), st.cur);
        let tail = self.input.get(cur..).unwrap_or_default();
        let joined: String = chunks.concat();
        let mut sink = self.sink.borrow_mut();
        let split = if normalise(tail) == joined {
            0
        } else {
            (1..=chunks.len().min(2))
                .find(|&k| {
                    ends_with_normalised(tail, &chunks.get(k..).unwrap_or_default().concat())
                })
                .unwrap_or(0)
        };
        for (i, c) in chunks.iter().enumerate() {
            if i < split {
                sink.char_ref(c);
            } else {
                sink.text(c);
            }
        }
        st.cur = self.input.len();
    }
}

impl<S: TokenSink> H5Sink for Adapter<'_, S> {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        match token {
            Token::CharacterTokens(t) => self.on_chars(&t),
            Token::NullCharacterToken => self.on_chars("\0"),
            Token::TagToken(tag) => self.on_tag(&tag),
            Token::CommentToken(_) | Token::DoctypeToken(_) => self.on_skipped(),
            Token::EOFToken | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}
