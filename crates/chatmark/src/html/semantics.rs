//! PLACEHOLDER semantics: copies text (replaced by the H2–H9 implementation).

use super::token::{StartTag, TokenSink};
use crate::builder::FormattedBuilder;
use crate::{Diagnostic, Formatted, StyleSet};

pub(crate) struct Semantics {
    out: FormattedBuilder,
}

impl Semantics {
    pub(crate) fn new(input: &str) -> Self {
        Semantics { out: FormattedBuilder::with_capacity(input.len()) }
    }
    pub(crate) fn finish(self) -> (Formatted, Vec<Diagnostic>) {
        (self.out.finish(), Vec::new())
    }
}

impl TokenSink for Semantics {
    fn text(&mut self, text: &str) {
        self.out.push_str(text, StyleSet::EMPTY);
    }
    fn char_ref(&mut self, text: &str) {
        self.out.push_str(text, StyleSet::EMPTY);
    }
    fn start_tag(&mut self, _tag: &StartTag<'_>) {}
    fn end_tag(&mut self, _name: &str, _span: (usize, usize)) {}
}
