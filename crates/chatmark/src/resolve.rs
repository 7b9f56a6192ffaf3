//! Resolution of a whole `sendMessage` body (spec section 5, R1–R8): checks in the order of
//! R8, parses with the chosen mode or normalises client runs, and answers a canonical
//! [`Resolved`] or a [`ResolveError`] with a stable code, the field and a message (R7).

use core::fmt;
use core::str::FromStr;

use crate::diagnostics::msg::{msg, Quoted};
use crate::normalize::{normalize, RawTextStyle};
use crate::{utf16_len, Diagnostic, DiagnosticCode, Formatted};

/// How the text of a message is read (R2).
///
/// # Examples
///
/// ```
/// use chatmark::ParseMode;
/// assert_eq!("HTML".parse::<ParseMode>(), Ok(ParseMode::Html));
/// assert!("MarkdownV2".parse::<ParseMode>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ParseMode {
    /// No markup: the text as sent (client runs may style it).
    #[default]
    Plain,
    /// The markdown dialect (spec section 2).
    Markdown,
    /// The HTML subset (spec section 3).
    Html,
}

impl ParseMode {
    /// The wire spelling (`plain` is the absence of `parse_mode`).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::ParseMode::Markdown.as_str(), "markdown");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ParseMode::Plain => "plain",
            ParseMode::Markdown => "markdown",
            ParseMode::Html => "html",
        }
    }
}

impl fmt::Display for ParseMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of reading a `parse_mode` that is neither `markdown` nor `html` (nor `plain`).
///
/// # Examples
///
/// ```
/// let e = "rtf".parse::<chatmark::ParseMode>().unwrap_err();
/// assert_eq!(e.0, "rtf");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown parse mode {}", crate::diagnostics::msg::Quoted(.0))]
pub struct UnknownParseMode(pub String);

impl FromStr for ParseMode {
    type Err = UnknownParseMode;

    /// ASCII-case-insensitive, as R2 says; `plain` is accepted for tools.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("markdown") {
            Ok(ParseMode::Markdown)
        } else if s.eq_ignore_ascii_case("html") {
            Ok(ParseMode::Html)
        } else if s.eq_ignore_ascii_case("plain") {
            Ok(ParseMode::Plain)
        } else {
            Err(UnknownParseMode(s.to_owned()))
        }
    }
}

/// Parses `input` in `mode`. Never fails: bad markup is text.
///
/// # Examples
///
/// ```
/// use chatmark::{parse, ParseMode};
/// assert_eq!(parse("**x**", ParseMode::Markdown).text, "x");
/// assert_eq!(parse("**x**", ParseMode::Plain).text, "**x**");
/// ```
pub fn parse(input: &str, mode: ParseMode) -> Formatted {
    parse_with_diagnostics(input, mode).0
}

/// Parses `input` in `mode` and returns the diagnostics of the markup too (L3).
///
/// # Examples
///
/// ```
/// use chatmark::{parse_with_diagnostics, ParseMode};
/// let (_, d) = parse_with_diagnostics("{red}x", ParseMode::Markdown);
/// assert_eq!(d.len(), 1);
/// ```
pub fn parse_with_diagnostics(input: &str, mode: ParseMode) -> (Formatted, Vec<Diagnostic>) {
    match mode {
        ParseMode::Plain => (
            Formatted {
                text: input.to_owned(),
                text_styles: Vec::new(),
            },
            Vec::new(),
        ),
        ParseMode::Markdown => crate::parse_markdown_with_diagnostics(input),
        #[cfg(feature = "html")]
        ParseMode::Html => crate::html::parse_html_with(input, crate::html::Backend::default()),
        // without HTML mode (feature `html` off) the text reads as plain; front ends built so
        // refuse HTML bodies first
        #[cfg(not(feature = "html"))]
        ParseMode::Html => (
            Formatted {
                text: input.to_owned(),
                text_styles: Vec::new(),
            },
            Vec::new(),
        ),
    }
}

/// Configurable limits of resolution (R1, R6). `0` means no limit.
///
/// # Examples
///
/// ```
/// let l = chatmark::Limits::default();
/// assert_eq!((l.max_text_len, l.max_text_styles), (2000, 10_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most UTF-16 units of raw `text` (R1); the spec's default is 2000.
    pub max_text_len: usize,
    /// Most entries of `text_styles` (R6); the spec's default is 10,000.
    pub max_text_styles: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_text_len: 2000,
            max_text_styles: 10_000,
        }
    }
}

/// A body field as received: absent, `null`, of the wrong JSON type, or a value.
///
/// # Examples
///
/// ```
/// use chatmark::Field;
/// let f: Field<&str> = Field::Value("x");
/// assert!(f.is_given());
/// assert!(!Field::<&str>::Null.is_given());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Field<T> {
    /// The key is not in the body.
    #[default]
    Absent,
    /// The key holds `null`.
    Null,
    /// The key holds a value of the wrong type.
    Invalid,
    /// The key holds a value of the right type.
    Value(T),
}

impl<T> Field<T> {
    /// Whether the field holds something other than absent or `null`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(chatmark::Field::<u8>::Invalid.is_given());
    /// ```
    pub const fn is_given(&self) -> bool {
        matches!(self, Field::Invalid | Field::Value(_))
    }
}

/// A `chat_id`: a non-empty string or an integer (R5).
///
/// # Examples
///
/// ```
/// let id = chatmark::ChatId::Int(42);
/// assert_eq!(id, chatmark::ChatId::Int(42));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatId<'a> {
    /// A numeric id.
    Int(i64),
    /// A string id.
    Str(&'a str),
}

/// A `sendMessage` body `{chat_id, text, parse_mode?, text_styles?}` with each field as sent.
///
/// # Examples
///
/// ```
/// use chatmark::{Field, SendMessage};
/// let body = SendMessage { text: Field::Value("**hi**"), parse_mode: Field::Value("markdown"), ..Default::default() };
/// let r = chatmark::resolve_text(&body, &chatmark::Limits::default()).unwrap();
/// assert_eq!(r.formatted.text, "hi");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SendMessage<'a> {
    /// Checked by [`resolve`] (R5), not by [`resolve_text`].
    pub chat_id: Field<ChatId<'a>>,
    /// The raw text, markup included (R1).
    pub text: Field<&'a str>,
    /// `markdown`, `html`, or absent (R2).
    pub parse_mode: Field<&'a str>,
    /// Client runs, used only without `parse_mode` (R3, N6).
    pub text_styles: Field<Vec<RawTextStyle<'a>>>,
}

/// A resolved message: canonical text and runs, the mode used, and what was changed (L3).
///
/// # Examples
///
/// ```
/// use chatmark::{Field, SendMessage, ParseMode};
/// let body = SendMessage { text: Field::Value("hi"), ..Default::default() };
/// let r = chatmark::resolve_text(&body, &Default::default()).unwrap();
/// assert_eq!(r.mode, ParseMode::Plain);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The message as it will be stored and shown.
    pub formatted: Formatted,
    /// The mode the text was read in.
    pub mode: ParseMode,
    /// What the engine changed or ignored.
    pub diagnostics: Vec<Diagnostic>,
}

/// The stable code of a refused message (R1–R6).
///
/// # Examples
///
/// ```
/// assert_eq!(chatmark::ErrorCode::TextTooLong.as_str(), "text_too_long");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// R5: `chat_id` absent, `null`, empty or of the wrong type.
    MissingChatId,
    /// R1: `text` absent or `null`.
    MissingText,
    /// R1: `text` not a string.
    InvalidText,
    /// R1: `text` is empty.
    TextEmpty,
    /// R1: `text` is over the limit in UTF-16 units.
    TextTooLong,
    /// R2: `parse_mode` is neither `markdown` nor `html`.
    InvalidParseMode,
    /// N6: `text_styles` present but not an array.
    InvalidTextStyles,
    /// R6: more `text_styles` entries than the limit.
    TooManyTextStyles,
    /// R4: nothing is left after formatting.
    EmptyAfterFormatting,
    /// The body is not JSON (the JSONL tools).
    InvalidJson,
    /// S1: a split's `limit` is not an integer of at least 2 (the split tools).
    InvalidLimit,
}

impl ErrorCode {
    /// The wire spelling.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(chatmark::ErrorCode::EmptyAfterFormatting.as_str(), "empty_after_formatting");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MissingChatId => "missing_chat_id",
            ErrorCode::MissingText => "missing_text",
            ErrorCode::InvalidText => "invalid_text",
            ErrorCode::TextEmpty => "text_empty",
            ErrorCode::TextTooLong => "text_too_long",
            ErrorCode::InvalidParseMode => "invalid_parse_mode",
            ErrorCode::InvalidTextStyles => "invalid_text_styles",
            ErrorCode::TooManyTextStyles => "too_many_text_styles",
            ErrorCode::EmptyAfterFormatting => "empty_after_formatting",
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidLimit => "invalid_limit",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused message (R7): a stable `code`, the `field` it concerns, a human `message`.
///
/// # Examples
///
/// ```
/// use chatmark::{Field, SendMessage};
/// let e = chatmark::resolve_text(&SendMessage::default(), &Default::default()).unwrap_err();
/// assert_eq!((e.code.as_str(), e.field), ("missing_text", "text"));
/// assert_eq!(e.to_string(), "missing_text: text is required");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
#[non_exhaustive]
pub struct ResolveError {
    /// The stable code.
    pub code: ErrorCode,
    /// The body field concerned.
    pub field: &'static str,
    /// A human-readable sentence.
    pub message: String,
}

impl ResolveError {
    /// Builds an error value.
    ///
    /// # Examples
    ///
    /// ```
    /// use chatmark::{ErrorCode, ResolveError};
    /// let e = ResolveError::new(ErrorCode::InvalidJson, "body", "not JSON");
    /// assert_eq!(e.field, "body");
    /// ```
    pub fn new(code: ErrorCode, field: &'static str, message: impl Into<String>) -> Self {
        ResolveError {
            code,
            field,
            message: message.into(),
        }
    }
}

/// A split's error as the JSON front ends and the npm package answer it (`invalid_limit`,
/// field `limit`), its message built without `core::fmt`, which the npm package's wasm
/// leaves out.
///
/// # Examples
///
/// ```
/// let e = chatmark::ResolveError::from(chatmark::SplitError::InvalidLimit(1));
/// assert_eq!((e.code.as_str(), e.field), ("invalid_limit", "limit"));
/// assert_eq!(e.message, "limit must be at least 2 UTF-16 units, not 1");
/// ```
impl From<crate::SplitError> for ResolveError {
    fn from(e: crate::SplitError) -> Self {
        match e {
            crate::SplitError::InvalidLimit(n) => ResolveError::new(
                ErrorCode::InvalidLimit,
                "limit",
                msg!("limit must be at least 2 UTF-16 units, not ", n),
            ),
        }
    }
}

impl ResolveError {
    /// N6: `text_styles` present but not an array.
    pub(crate) fn invalid_text_styles() -> Self {
        ResolveError::new(
            ErrorCode::InvalidTextStyles,
            "text_styles",
            "text_styles must be an array",
        )
    }

    /// R6: refuses `count` runs over `limits.max_text_styles` (`0`: no limit). Readers keep
    /// at most one run past the cap, so the message says "more than".
    pub(crate) fn check_run_count(count: usize, limits: &Limits) -> Result<(), Self> {
        if limits.max_text_styles != 0 && count > limits.max_text_styles {
            return Err(ResolveError::new(
                ErrorCode::TooManyTextStyles,
                "text_styles",
                msg!(
                    "text_styles has more than ",
                    limits.max_text_styles,
                    " entries, the limit"
                ),
            ));
        }
        Ok(())
    }
}

/// R1's presence and type checks of `text`: `missing_text` when absent or `null`,
/// `invalid_text` when not a string.
pub(crate) fn required_text<'a>(text: &Field<&'a str>) -> Result<&'a str, ResolveError> {
    match *text {
        Field::Absent | Field::Null => Err(ResolveError::new(
            ErrorCode::MissingText,
            "text",
            "text is required",
        )),
        Field::Invalid => Err(ResolveError::new(
            ErrorCode::InvalidText,
            "text",
            "text must be a string",
        )),
        Field::Value(t) => Ok(t),
    }
}

/// Resolves a whole `sendMessage` request (R1–R8, `chat_id` included).
///
/// # Examples
///
/// ```
/// use chatmark::{ChatId, Field, SendMessage};
/// let mut body = SendMessage { text: Field::Value("<b>x</b>"), parse_mode: Field::Value("HTML"), ..Default::default() };
/// let limits = chatmark::Limits::default();
/// assert_eq!(chatmark::resolve(&body, &limits).unwrap_err().code.as_str(), "missing_chat_id");
/// body.chat_id = Field::Value(ChatId::Int(7));
/// assert_eq!(chatmark::resolve(&body, &limits).unwrap().formatted.text, "x");
/// ```
pub fn resolve(body: &SendMessage<'_>, limits: &Limits) -> Result<Resolved, ResolveError> {
    match body.chat_id {
        Field::Value(ChatId::Int(_)) => {}
        Field::Value(ChatId::Str(s)) if !s.is_empty() => {}
        _ => {
            return Err(ResolveError::new(
                ErrorCode::MissingChatId,
                "chat_id",
                "chat_id must be a non-empty string or an integer",
            ))
        }
    }
    resolve_text(body, limits)
}

/// Resolves the formatting part of a body (R1–R4, R6, R8 without R5), for tools that take
/// only `text`, `parse_mode` and `text_styles`.
///
/// # Examples
///
/// ```
/// use chatmark::{Field, SendMessage};
/// let body = SendMessage { text: Field::Value("- "), parse_mode: Field::Value("markdown"), ..Default::default() };
/// let e = chatmark::resolve_text(&body, &Default::default()).unwrap_err();
/// assert_eq!(e.code.as_str(), "empty_after_formatting");
/// ```
pub fn resolve_text(body: &SendMessage<'_>, limits: &Limits) -> Result<Resolved, ResolveError> {
    // R1
    let text = required_text(&body.text)?;
    if text.is_empty() {
        return Err(ResolveError::new(
            ErrorCode::TextEmpty,
            "text",
            "text must not be empty",
        ));
    }
    let units = utf16_len(text);
    if limits.max_text_len != 0 && units > limits.max_text_len {
        return Err(ResolveError::new(
            ErrorCode::TextTooLong,
            "text",
            msg!(
                "text is ",
                units,
                " UTF-16 units long; the limit is ",
                limits.max_text_len
            ),
        ));
    }
    // R2
    let mode = match body.parse_mode {
        Field::Absent | Field::Null => ParseMode::Plain,
        Field::Value(m) if !m.eq_ignore_ascii_case("plain") => m.parse().map_err(|_| {
            ResolveError::new(
                ErrorCode::InvalidParseMode,
                "parse_mode",
                msg!(
                    "parse_mode must be \"markdown\" or \"html\", not ",
                    Quoted(m)
                ),
            )
        })?,
        _ => {
            return Err(ResolveError::new(
                ErrorCode::InvalidParseMode,
                "parse_mode",
                "parse_mode must be \"markdown\" or \"html\"",
            ))
        }
    };
    let (formatted, diagnostics) = if mode == ParseMode::Plain {
        // R3, N6, R6
        let (styles, diagnostics) = match &body.text_styles {
            Field::Absent | Field::Null => (Vec::new(), Vec::new()),
            Field::Invalid => return Err(ResolveError::invalid_text_styles()),
            Field::Value(runs) => {
                ResolveError::check_run_count(runs.len(), limits)?;
                normalize(text, runs)
            }
        };
        (
            Formatted {
                text: text.to_owned(),
                text_styles: styles,
            },
            diagnostics,
        )
    } else {
        let (f, mut d) = parse_with_diagnostics(text, mode);
        if body.text_styles.is_given() {
            let notice = Diagnostic {
                code: DiagnosticCode::TextStylesIgnored,
                start: 0,
                len: 0,
                message: msg!("text_styles ignored because parse_mode is ", mode.as_str()),
            };
            // L3: the notice comes first by position (0, 0); the cap holds with it
            d = core::iter::once(notice)
                .chain(d)
                .take(crate::diagnostics::MAX_DIAGNOSTICS)
                .collect();
        }
        (f, d)
    };
    // R4
    if formatted.text.is_empty() {
        return Err(ResolveError::new(
            ErrorCode::EmptyAfterFormatting,
            "text",
            "the text is empty once the markup is removed",
        ));
    }
    Ok(Resolved {
        formatted,
        mode,
        diagnostics,
    })
}
