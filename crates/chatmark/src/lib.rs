//! chatmark: turns a chat message written in the platform's markdown dialect or HTML subset
//! into plain text plus canonical UTF-16 style runs, normalises client-made runs, and
//! resolves whole `sendMessage` bodies. The contract is the project's `spec/DIALECT.md`;
//! rule ids (C1, P3, H6, …) are cited throughout.
//!
//! ```
//! let f = chatmark::parse_markdown("**Hello** {red}world{/red}");
//! assert_eq!(f.text, "Hello world");
//! assert_eq!(f.text_styles.len(), 2);
//! ```
//!
//! A message longer than the limit is [`split()`] into parts that can each be sent with
//! their own runs (spec section 8):
//!
//! ```
//! let f = chatmark::parse_markdown("**Report**: all good.\n\nDetails come in the next part.");
//! let parts = chatmark::split(&f, 30).unwrap();
//! assert_eq!(parts.len(), 2);
//! assert_eq!(parts[0].text, "Report: all good.");
//! assert_eq!(parts[1].text, "Details come in the next part.");
//! assert_eq!(parts[0].text_styles[0].len, 6); // "Report", bold
//! ```
// L2: no input may panic, so outside tests nothing indexes, slices a string, unwraps,
// expects, or calls a standard method that panics on a position or length the input decides
// (clippy.toml lists them; the engine shortens strings through checked helpers).
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::unimplemented,
        clippy::disallowed_methods
    )
)]
#![cfg_attr(test, allow(clippy::disallowed_methods))]

mod builder;
#[cfg(feature = "commonmark")]
mod commonmark;
mod diagnostics;
#[cfg(feature = "html")]
pub mod html;
#[cfg(feature = "serde")]
mod json;
mod markdown;
mod model;
mod normalize;
mod render;
mod resolve;
mod sort;
mod split;
mod text;
mod vocab;

/// The npm package's vocabulary, generated from the engine's and checked for drift.
#[cfg(test)]
mod generate;

/// The one seeded generator of the test suites, shared with the integration tests.
#[cfg(test)]
#[path = "../tests/common/rng.rs"]
mod rng;

#[cfg(feature = "commonmark")]
pub use commonmark::{from_commonmark, from_commonmark_utf16};
#[cfg(feature = "html")]
pub use html::{
    parse_html, parse_html_utf16, parse_html_utf16_into, parse_html_utf16_with_diagnostics,
};
#[cfg(all(feature = "serde", feature = "commonmark"))]
pub use json::import_json;
#[cfg(feature = "serde")]
pub use json::{
    json_from_str_lossy, json_value_from_str, normalize_json, resolve_json, split_json, Answer,
};
pub use markdown::{
    parse_markdown, parse_markdown_utf16, parse_markdown_utf16_into,
    parse_markdown_utf16_with_diagnostics, parse_markdown_with_diagnostics,
};
pub use model::{Diagnostic, DiagnosticCode, Formatted, FormattedUtf16, TextStyle};
pub use normalize::{normalize, normalize_utf16, RawTextStyle};
pub use render::markdown::{Loss, Markdown, Unexpressed};
pub use resolve::{
    parse, parse_with_diagnostics, resolve, resolve_text, ChatId, ErrorCode, Field, Limits,
    ParseMode, ResolveError, Resolved, SendMessage, UnknownParseMode,
};
pub use split::{split, split_utf16, split_utf16_each, SplitError};
pub use text::utf16::{push_utf16, utf16_len};
pub use vocab::style::{Family, StyleCode, StyleSet, UnknownStyleCode};

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
