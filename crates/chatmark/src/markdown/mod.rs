//! PLACEHOLDER markdown mode.
use crate::{Diagnostic, Formatted};

/// Parses markdown (placeholder).
///
/// # Examples
///
/// ```
/// let _ = chatmark::parse_markdown("x");
/// ```
pub fn parse_markdown(input: &str) -> Formatted {
    parse_markdown_with_diagnostics(input).0
}

/// Parses markdown with diagnostics (placeholder).
///
/// # Examples
///
/// ```
/// let _ = chatmark::parse_markdown_with_diagnostics("x");
/// ```
pub fn parse_markdown_with_diagnostics(input: &str) -> (Formatted, Vec<Diagnostic>) {
    let mut b = crate::builder::FormattedBuilder::with_capacity(input.len());
    b.push_str(input, crate::StyleSet::EMPTY);
    (b.finish(), Vec::new())
}
