//! The canonical output model: [`Formatted`] text plus [`TextStyle`] runs in UTF-16 units
//! (spec 1, C1–C6), and [`Diagnostic`]s with input positions (L3).

use crate::StyleSet;

/// One style run: `len` UTF-16 code units from `start`, carrying the codes `st` (spec 1).
///
/// # Examples
///
/// ```
/// use chatmark::{StyleCode, StyleSet, TextStyle};
/// let run = TextStyle { start: 6, len: 5, st: StyleSet::of(StyleCode::Bold) };
/// assert_eq!(run.end(), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextStyle {
    /// First UTF-16 code unit covered.
    pub start: usize,
    /// Number of UTF-16 code units covered (≥ 1 in canonical form).
    pub len: usize,
    /// The codes, serialised in canonical order (C4).
    pub st: StyleSet,
}

impl TextStyle {
    /// One past the last UTF-16 code unit covered.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{StyleCode, StyleSet, TextStyle};
    /// assert_eq!(TextStyle { start: 2, len: 3, st: StyleSet::of(StyleCode::Italic) }.end(), 5);
    /// ```
    pub const fn end(&self) -> usize {
        self.start + self.len
    }
}

/// A formatted message: plain `text` and canonical `text_styles` (C1–C6).
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("Hello **world**");
/// assert_eq!(f.text, "Hello world");
/// assert_eq!(f.text_styles[0].start, 6);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Formatted {
    /// The plain text, markup removed.
    pub text: String,
    /// Canonical style runs over `text`, in UTF-16 code units.
    pub text_styles: Vec<TextStyle>,
}

impl Formatted {
    /// Checks canonical form (C1–C6), naming the first rule broken. Every result of the
    /// engine passes; this is for tests, fuzzers, and callers that build runs by hand.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{Formatted, StyleCode, StyleSet, TextStyle};
    /// let b = StyleSet::of(StyleCode::Bold);
    /// let ok = Formatted { text: "ab".into(), text_styles: vec![TextStyle { start: 0, len: 2, st: b }] };
    /// assert_eq!(ok.check_canonical(), Ok(()));
    /// let split = Formatted {
    ///     text: "ab".into(),
    ///     text_styles: vec![TextStyle { start: 0, len: 1, st: b }, TextStyle { start: 1, len: 1, st: b }],
    /// };
    /// assert!(split.check_canonical().unwrap_err().starts_with("C3"));
    /// ```
    pub fn check_canonical(&self) -> Result<(), String> {
        let units: Vec<u16> = self.text.encode_utf16().collect();
        let mut prev: Option<&TextStyle> = None;
        for (k, r) in self.text_styles.iter().enumerate() {
            if r.len == 0 || r.st.is_empty() {
                return Err(format!("C2: run {k} is empty"));
            }
            if r.end() > units.len() {
                return Err(format!(
                    "C6: run {k} ends at {} past {}",
                    r.end(),
                    units.len()
                ));
            }
            for b in [r.start, r.end()] {
                if units.get(b).is_some_and(|u| (0xDC00..=0xDFFF).contains(u)) {
                    return Err(format!(
                        "C5: run {k} has a boundary at {b} inside a surrogate pair"
                    ));
                }
            }
            if let Some(p) = prev {
                if r.start < p.end() {
                    return Err(format!(
                        "C1: run {k} starts at {} before {}",
                        r.start,
                        p.end()
                    ));
                }
                if r.start == p.end() && r.st == p.st {
                    return Err(format!("C3: runs {} and {k} touch with equal codes", k - 1));
                }
            }
            prev = Some(r);
        }
        Ok(())
    }
}

/// A formatted message whose text is UTF-16 code units, as [`crate::parse_markdown_utf16`]
/// writes it for hosts whose strings are UTF-16: the same runs as [`Formatted`], whose
/// offsets count these units.
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "*é*".encode_utf16().collect();
/// let f = chatmark::parse_markdown_utf16(&input);
/// assert_eq!(f.text, [0xe9]);
/// assert_eq!(f.to_formatted().text, "é");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FormattedUtf16 {
    /// The plain text, markup removed, in UTF-16 code units (well formed).
    pub text: Vec<u16>,
    /// Canonical style runs over `text`.
    pub text_styles: Vec<TextStyle>,
}

impl FormattedUtf16 {
    /// The same message with its text in UTF-8 (a lone surrogate, which the engine never
    /// writes, would read as U+FFFD).
    ///
    /// # Examples
    ///
    /// ```
    /// let f = chatmark::FormattedUtf16 { text: vec![0x61], text_styles: vec![] };
    /// assert_eq!(f.to_formatted(), chatmark::Formatted { text: "a".into(), text_styles: vec![] });
    /// ```
    pub fn to_formatted(&self) -> Formatted {
        Formatted {
            text: String::from_utf16_lossy(&self.text),
            text_styles: self.text_styles.clone(),
        }
    }
}

/// What a [`Diagnostic`] reports (L3).
///
/// # Examples
///
/// ```
/// assert_eq!(chatmark::DiagnosticCode::UnclosedTag.as_str(), "unclosed_tag");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiagnosticCode {
    /// A markup tag was opened and never closed; it stayed text (I3) or closed at the end (H5).
    UnclosedTag,
    /// A closing tag matched nothing and stayed text (I3) or was ignored (H5).
    UnmatchedClosingTag,
    /// A client code outside the closed set was ignored (N2).
    UnknownStyleCode,
    /// A client run was clamped or widened (N3, N4).
    RunAdjusted,
    /// A client run was dropped (N1–N3).
    RunDropped,
    /// `text_styles` was ignored because `parse_mode` was given (R3).
    TextStylesIgnored,
    /// An HTML element with no effect was removed, its content kept (H3).
    UnsupportedElement,
}

impl DiagnosticCode {
    /// The stable wire spelling.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::DiagnosticCode::RunDropped.as_str(), "run_dropped");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::UnclosedTag => "unclosed_tag",
            DiagnosticCode::UnmatchedClosingTag => "unmatched_closing_tag",
            DiagnosticCode::UnknownStyleCode => "unknown_style_code",
            DiagnosticCode::RunAdjusted => "run_adjusted",
            DiagnosticCode::RunDropped => "run_dropped",
            DiagnosticCode::TextStylesIgnored => "text_styles_ignored",
            DiagnosticCode::UnsupportedElement => "unsupported_element",
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for DiagnosticCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A note on what the engine changed or ignored, positioned in UTF-16 units of the input (L3).
///
/// For markup, `start`/`len` point into the input text; for client runs they give the run's
/// range as sent (clamped to the text) and `index` names the run.
///
/// # Examples
///
/// ```
/// let (_, diags) = chatmark::parse_markdown_with_diagnostics("ab {red}x");
/// assert_eq!(diags[0].code, chatmark::DiagnosticCode::UnclosedTag);
/// assert_eq!((diags[0].start, diags[0].len), (3, 5));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Diagnostic {
    /// What happened.
    pub code: DiagnosticCode,
    /// First UTF-16 unit of the input concerned.
    pub start: usize,
    /// Length in UTF-16 units.
    pub len: usize,
    /// A human-readable sentence.
    pub message: String,
}
