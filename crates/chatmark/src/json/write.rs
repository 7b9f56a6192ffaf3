//! Wire shapes of the answers (R7, W1, W2): the one [`Answer`] enum that every JSON front
//! end (the CLI's JSONL modes, the npm package) writes, and the serialisations of errors and
//! markdown renderings. Written straight to the output, never through a `serde_json::Value`.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::render::markdown::{Markdown, Unexpressed};
use crate::{Diagnostic, ErrorCode, Formatted, ResolveError, TextStyle};

/// One answer of a JSON front end, fields in wire order: a formatted message
/// `{"text","text_styles","diagnostics"?}`, normalised runs `{"text_styles","diagnostics"?}`,
/// a rendering `{"html"}` or `{"markdown","lossless","unexpressed"}`, a split's
/// `{"parts"}`, or `{"error"}`.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("**a**");
/// let line = serde_json::to_string(&chatmark::Answer::Formatted { formatted: &f, diagnostics: None }).unwrap();
/// assert_eq!(line, r#"{"text":"a","text_styles":[{"start":0,"len":1,"st":["b"]}]}"#);
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer<'a> {
    /// A parsed or resolved message, with its diagnostics when asked for (L3).
    Formatted {
        /// The message.
        formatted: &'a Formatted,
        /// What the engine changed or ignored, when asked for.
        diagnostics: Option<&'a [Diagnostic]>,
    },
    /// Normalised client runs (N1–N6).
    Styles {
        /// The canonical runs.
        text_styles: &'a [TextStyle],
        /// What normalisation changed, when asked for.
        diagnostics: Option<&'a [Diagnostic]>,
    },
    /// An HTML rendering (W1).
    Html(&'a str),
    /// A markdown rendering and what it could not express (W2).
    Markdown(&'a Markdown),
    /// The parts of a split message (S1–S4): `{"parts": [{"text", "text_styles"}, …]}`.
    Parts(&'a [Formatted]),
    /// A refused input (R7).
    Error(&'a ResolveError),
}

impl Serialize for Answer<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Answer::Formatted {
                formatted,
                diagnostics,
            } => {
                let mut m = serializer.serialize_map(None)?;
                m.serialize_entry("text", &formatted.text)?;
                m.serialize_entry("text_styles", &formatted.text_styles)?;
                if let Some(d) = diagnostics {
                    m.serialize_entry("diagnostics", d)?;
                }
                m.end()
            }
            Answer::Styles {
                text_styles,
                diagnostics,
            } => {
                let mut m = serializer.serialize_map(None)?;
                m.serialize_entry("text_styles", text_styles)?;
                if let Some(d) = diagnostics {
                    m.serialize_entry("diagnostics", d)?;
                }
                m.end()
            }
            Answer::Html(html) => {
                let mut m = serializer.serialize_map(Some(1))?;
                m.serialize_entry("html", html)?;
                m.end()
            }
            Answer::Markdown(md) => md.serialize(serializer),
            Answer::Parts(parts) => {
                let mut m = serializer.serialize_map(Some(1))?;
                m.serialize_entry("parts", parts)?;
                m.end()
            }
            Answer::Error(error) => {
                let mut m = serializer.serialize_map(Some(1))?;
                m.serialize_entry("error", error)?;
                m.end()
            }
        }
    }
}

/// The wire shape of a markdown rendering (W2), as `chatmark render --jsonl` and the npm
/// package answer it: `{"markdown", "lossless", "unexpressed": [{start, len, what, code?}]}`.
impl Serialize for Markdown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Markdown", 3)?;
        s.serialize_field("markdown", &self.text)?;
        s.serialize_field("lossless", &self.is_lossless())?;
        s.serialize_field("unexpressed", &self.unexpressed)?;
        s.end()
    }
}

/// `{start, len, what, code?}`: `what` is the loss's wire name, `code` the style code lost.
impl Serialize for Unexpressed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let code = self.what.code();
        let mut s = serializer.serialize_struct("Unexpressed", 3 + usize::from(code.is_some()))?;
        s.serialize_field("start", &self.start)?;
        s.serialize_field("len", &self.len)?;
        s.serialize_field("what", self.what.as_str())?;
        if let Some(code) = code {
            s.serialize_field("code", code.as_str())?;
        }
        s.end()
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Serialize for ResolveError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ResolveError", 3)?;
        s.serialize_field("code", &self.code)?;
        s.serialize_field("field", self.field)?;
        s.serialize_field("message", &self.message)?;
        s.end()
    }
}
