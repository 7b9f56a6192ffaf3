//! chatmark: turns a chat message written in the platform's markdown dialect or HTML subset
//! into plain text plus canonical UTF-16 style runs, normalises client-made runs, and
//! resolves whole `sendMessage` bodies (the contract is the project's `spec/DIALECT.md`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod builder;
pub mod html;
mod markdown;
mod model;
mod style;
mod utf16;

pub use model::{Diagnostic, DiagnosticCode, Formatted, TextStyle};
pub use style::{Family, StyleCode, StyleSet, UnknownStyleCode};
pub use utf16::utf16_len;
pub use html::parse_html;
pub use markdown::{parse_markdown, parse_markdown_with_diagnostics};
