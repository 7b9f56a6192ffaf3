//! The Python binding of the chatmark engine: the extension module `chatmark._chatmark`
//! behind the Python package `chatmark` (`python/chatmark`), built by maturin into one
//! abi3 wheel for CPython 3.9 and later.
//!
//! Every function converts its strings once ([`text`]: UTF-8 in, the engine's UTF-8 entry
//! points, `str` out on first access), runs the engine without the GIL on long texts, and
//! calls no Python code per run or per character. Client runs and bodies are read from
//! Python values as the spec reads JSON ([`read`]), so a `dict` resolves as its JSON text
//! does. Refusals raise `ChatmarkError(code, field, message)` with the `chatmark --jsonl`
//! codes ([`errors`]); wrong argument types raise `TypeError`. Nothing here panics (L2).
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

mod errors;
mod read;
mod text;
mod types;

use std::borrow::Cow;

use chatmark::{Field, Limits, SendMessage};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyList, PyString, PyTuple};

use errors::{error, resolve_error, styles_error};
use read::{chat_id, chat_id_ok, is_mapping, lookup, string_field, RunReader};
use text::{engine, Utf8};
use types::{Formatted, Markdown, Run, Unexpressed};

/// Parses `text` with one of the engine's UTF-8 parsers.
fn parse(
    py: Python<'_>,
    text: &Bound<'_, PyString>,
    f: fn(&str) -> chatmark::Formatted,
) -> PyResult<Formatted> {
    let utf8 = Utf8::read(text)?;
    let t = utf8.as_str();
    let inner = engine(py, t.len(), || f(&t));
    Ok(Formatted::wrap(
        py,
        inner,
        utf8.exact().then_some((text, &*t)),
    ))
}

/// Parses a message in the platform's markdown dialect (spec section 2) into plain text and
/// canonical runs.
///
/// >>> parse_markdown("**Hello** {red}world{/red}")
/// Formatted(text="Hello world", text_styles=[Run(start=0, len=5, st=["b"]), Run(start=6, len=5, st=["c_db342e"])])
#[pyfunction]
#[pyo3(signature = (text))]
fn parse_markdown(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Formatted> {
    parse(py, text, chatmark::parse_markdown)
}

/// Parses a message in the HTML subset (spec section 3) into plain text and canonical runs.
///
/// >>> parse_html("<b>Hello</b> &amp; <i>bye</i>")
/// Formatted(text="Hello & bye", text_styles=[Run(start=0, len=5, st=["b"]), Run(start=8, len=3, st=["i"])])
#[pyfunction]
#[pyo3(signature = (text))]
fn parse_html(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Formatted> {
    parse(py, text, chatmark::parse_html)
}

/// Imports text written for CommonMark 0.31.2 with GitHub's tables, strikethrough and task
/// lists (what language models, READMEs and changelogs produce) as the closest message the
/// platform can show (spec section 9, M1–M11): headings, lists, quotes and tables become
/// line codes, links their text and URL. Never fails; no length limit (compose with
/// `split`).
///
/// >>> from_commonmark("## Steps\n\n1. Install **Rust**\n2. Read [the book](https://doc.rust-lang.org/book/)")
/// Formatted(text="Steps\n\nInstall Rust\nRead the book (https://doc.rust-lang.org/book/)", text_styles=[Run(start=0, len=5, st=["b"]), Run(start=7, len=8, st=["lst_2"]), Run(start=15, len=4, st=["b", "lst_2"]), Run(start=20, len=47, st=["lst_2"])])
#[pyfunction]
#[pyo3(signature = (text))]
fn from_commonmark(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Formatted> {
    parse(py, text, chatmark::from_commonmark)
}

/// `text_styles` read for `normalize`: N6, then R6 with `max` (`0`: no cap).
fn read_styles(py: Python<'_>, styles: &Bound<'_, PyAny>, max: usize) -> PyResult<RunReader> {
    let reader = RunReader::read(styles, max)?.ok_or_else(|| styles_error(py))?;
    if max != 0 && reader.count > max {
        return Err(error(
            py,
            "too_many_text_styles",
            "text_styles",
            &format!("text_styles has more than {max} entries, the limit"),
        ));
    }
    Ok(reader)
}

/// A limit argument: a non-negative `int` (`0`: no limit).
fn limit_arg(v: i64, name: &str) -> PyResult<usize> {
    usize::try_from(v)
        .map_err(|_| PyValueError::new_err(format!("{name} must be 0 (no limit) or more, not {v}")))
}

/// Normalises client runs over `text` (spec section 4, N1–N6) into canonical form.
///
/// Runs may be `Run`s or mappings `{"start", "len", "st"}` read as the spec reads JSON:
/// unknown codes are ignored, offsets clamped, surrogate pairs kept whole, overlaps combined
/// (the later run wins within a family). Raises `ChatmarkError` `invalid_text_styles` when
/// `text_styles` is not a list (or tuple), `too_many_text_styles` past `max_text_styles`
/// entries (`0`: no cap).
///
/// >>> normalize("Hello world", [{"start": 0, "len": 99, "st": ["b", "nope"]}, {"start": 6, "len": 5, "st": "i"}])
/// [Run(start=0, len=6, st=["b"]), Run(start=6, len=5, st=["b", "i"])]
#[pyfunction]
#[pyo3(signature = (text, text_styles, *, max_text_styles = 10_000))]
fn normalize<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    text_styles: &Bound<'py, PyAny>,
    max_text_styles: i64,
) -> PyResult<Bound<'py, PyList>> {
    let max = limit_arg(max_text_styles, "max_text_styles")?;
    let reader = read_styles(py, text_styles, max)?;
    let utf8 = Utf8::read(text)?;
    let t = utf8.as_str();
    let raw = reader.raw();
    let runs = engine(py, t.len() + 16 * raw.len(), || {
        chatmark::normalize(&t, &raw).0
    });
    Formatted::runs_list(&runs, py)
}

/// Resolves a `sendMessage` body (spec section 5, R1–R8) into the message to store and
/// show, or raises `ChatmarkError(code, field, message)` with the `chatmark --jsonl` codes.
///
/// `body` is a `dict` (or another mapping), or its JSON text as `str` or `bytes`:
/// `{"text", "parse_mode"?, "text_styles"?}`, and `chat_id` when `check_chat_id` (R5).
/// Another JSON value (a list, a number, `None`) is a body with no field, as in JSON;
/// other types are a `TypeError`.
/// `max_len` is R1's limit in UTF-16 units of the raw text, `max_text_styles` R6's
/// (`0`: no limit).
///
/// >>> resolve({"text": "<b>hi</b>", "parse_mode": "HTML"})
/// Formatted(text="hi", text_styles=[Run(start=0, len=2, st=["b"])])
/// >>> resolve('{"text": ""}')
/// Traceback (most recent call last):
/// ...
/// chatmark._errors.ChatmarkError: text_empty (text): text must not be empty
#[pyfunction]
#[pyo3(signature = (body, *, max_len = 2000, max_text_styles = 10_000, check_chat_id = false))]
fn resolve(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    max_len: i64,
    max_text_styles: i64,
    check_chat_id: bool,
) -> PyResult<Formatted> {
    let limits = Limits {
        max_text_len: limit_arg(max_len, "max_len")?,
        max_text_styles: limit_arg(max_text_styles, "max_text_styles")?,
    };
    // JSON text: a str read once, bytes borrowed when they are UTF-8
    let (utf8, bytes);
    let json = if let Ok(s) = body.cast::<PyString>() {
        utf8 = Utf8::read(s)?;
        Some(utf8.as_str())
    } else if let Ok(b) = body.cast::<PyBytes>() {
        Some(json_bytes(b.as_bytes()))
    } else if let Ok(b) = body.cast::<PyByteArray>() {
        bytes = b.to_vec();
        Some(json_bytes(&bytes))
    } else {
        None
    };
    if let Some(json) = json {
        let result = engine(py, json.len(), || {
            chatmark::resolve_json(&json, &limits, check_chat_id)
        });
        return match result {
            Ok(r) => Ok(Formatted::wrap(py, r.formatted, None)),
            Err(e) => Err(resolve_error(py, &e)),
        };
    }
    if is_mapping(body) {
        return resolve_mapping(py, body, &limits, check_chat_id);
    }
    if body.is_none()
        || body.is_instance_of::<PyInt>()
        || body.is_instance_of::<PyFloat>()
        || body.is_instance_of::<PyList>()
        || body.is_instance_of::<PyTuple>()
    {
        // another JSON value (`json.loads("[1, 2]")`): no field is given, as the JSON reader
        // reads a body that is not an object
        let body = SendMessage::default();
        let result = if check_chat_id {
            chatmark::resolve(&body, &limits)
        } else {
            chatmark::resolve_text(&body, &limits)
        };
        return match result {
            Ok(r) => Ok(Formatted::wrap(py, r.formatted, None)),
            Err(e) => Err(resolve_error(py, &e)),
        };
    }
    Err(PyTypeError::new_err(format!(
        "body must be a dict (or another JSON value), or JSON text as str or bytes, not {}",
        body.get_type().name()?
    )))
}

/// JSON text from bytes: UTF-8 read lossily, as the CLI reads it (L2), a byte-order mark
/// skipped.
fn json_bytes(b: &[u8]) -> Cow<'_, str> {
    text::utf8(b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b))
}

/// A string field's text, read once.
fn field_text<'py>(f: &Field<Bound<'py, PyString>>) -> PyResult<Field<Utf8<'py>>> {
    Ok(match f {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Invalid => Field::Invalid,
        Field::Value(s) => Field::Value(Utf8::read(s)?),
    })
}

/// Resolves a body given as a mapping, read field by field as its JSON would be.
fn resolve_mapping(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    limits: &Limits,
    check_chat_id: bool,
) -> PyResult<Formatted> {
    let chat_ok = check_chat_id && chat_id_ok(lookup(body, intern!(py, "chat_id"))?.as_ref());
    let text_field = string_field(lookup(body, intern!(py, "text"))?);
    let mode_field = string_field(lookup(body, intern!(py, "parse_mode"))?);
    let text = field_text(&text_field)?;
    let mode = field_text(&mode_field)?;
    let plain = matches!(mode, Field::Absent | Field::Null);
    // R3: with a parse_mode the runs are ignored whatever they hold, so they are not read
    let runs = match lookup(body, intern!(py, "text_styles"))? {
        None => Field::Absent,
        Some(v) if v.is_none() => Field::Null,
        Some(v) if !plain => {
            if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
                Field::Value(RunReader::default())
            } else {
                Field::Invalid
            }
        }
        Some(v) => {
            RunReader::read(&v, limits.max_text_styles)?.map_or(Field::Invalid, Field::Value)
        }
    };
    let text_str = as_str(&text);
    let mode_str = as_str(&mode);
    let body = SendMessage {
        chat_id: chat_id(chat_ok),
        text: as_ref(&text_str),
        parse_mode: as_ref(&mode_str),
        text_styles: match &runs {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Invalid => Field::Invalid,
            Field::Value(r) => Field::Value(r.raw()),
        },
    };
    let len = match &text_str {
        Field::Value(t) => t.len(),
        _ => 0,
    };
    let result = engine(py, len, || {
        if check_chat_id {
            chatmark::resolve(&body, limits)
        } else {
            chatmark::resolve_text(&body, limits)
        }
    });
    match result {
        Ok(r) => {
            let input = match (&text_field, &text, &text_str) {
                (Field::Value(s), Field::Value(u), Field::Value(t)) if u.exact() => Some((s, &**t)),
                _ => None,
            };
            Ok(Formatted::wrap(py, r.formatted, input))
        }
        Err(e) => Err(resolve_error(py, &e)),
    }
}

fn as_str<'a>(f: &'a Field<Utf8<'_>>) -> Field<Cow<'a, str>> {
    match f {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Invalid => Field::Invalid,
        Field::Value(u) => Field::Value(u.as_str()),
    }
}

fn as_ref<'a>(f: &'a Field<Cow<'_, str>>) -> Field<&'a str> {
    match f {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Invalid => Field::Invalid,
        Field::Value(s) => Field::Value(s),
    }
}

/// A message to render or split: a `Formatted` as it is, or a mapping
/// `{"text", "text_styles"?}` normalised first (N1–N6, at most 10,000 runs: R6), as
/// `chatmark render` reads one.
enum Message<'a> {
    Borrowed(&'a chatmark::Formatted),
    Owned(chatmark::Formatted),
}

impl Message<'_> {
    fn get(&self) -> &chatmark::Formatted {
        match self {
            Message::Borrowed(f) => f,
            Message::Owned(f) => f,
        }
    }
}

fn message<'a>(py: Python<'_>, f: &'a Bound<'_, PyAny>) -> PyResult<Message<'a>> {
    if let Ok(f) = f.cast::<Formatted>() {
        return Ok(Message::Borrowed(&f.get().inner));
    }
    if !is_mapping(f) {
        return Err(PyTypeError::new_err(format!(
            "expected a Formatted or a dict with text and text_styles, not {}",
            f.get_type().name()?
        )));
    }
    let text = match string_field(lookup(f, intern!(py, "text"))?) {
        Field::Value(s) => s,
        Field::Absent | Field::Null => {
            return Err(error(py, "missing_text", "text", "text is required"))
        }
        Field::Invalid => return Err(error(py, "invalid_text", "text", "text must be a string")),
    };
    let utf8 = Utf8::read(&text)?;
    let t = utf8.as_str();
    let runs = match lookup(f, intern!(py, "text_styles"))? {
        Some(v) if !v.is_none() => {
            let reader = read_styles(py, &v, Limits::default().max_text_styles)?;
            let raw = reader.raw();
            engine(py, t.len() + 16 * raw.len(), || {
                chatmark::normalize(&t, &raw).0
            })
        }
        _ => Vec::new(),
    };
    Ok(Message::Owned(chatmark::Formatted {
        text: t.into_owned(),
        text_styles: runs,
    }))
}

/// Renders a message as an HTML fragment that a browser shows as the message looks (W1):
/// colours and sizes as inline styles, lists as `ul`/`ol`/`li`, `\n` as `<br>`, every text
/// character escaped. `f` is a `Formatted`, or a mapping `{"text", "text_styles"}`.
///
/// >>> to_html(parse_markdown("**Hi** {red}<you>{/red}"))
/// '<b>Hi</b> <span style="color:#db342e">&lt;you&gt;</span>'
/// >>> to_html({"text": "one\ntwo", "text_styles": [{"start": 0, "len": 7, "st": ["lst_1"]}]})
/// '<ul><li>one<br></li><li>two</li></ul>'
#[pyfunction]
#[pyo3(signature = (f))]
fn to_html(py: Python<'_>, f: &Bound<'_, PyAny>) -> PyResult<String> {
    let m = message(py, f)?;
    let m = m.get();
    Ok(engine(py, m.text.len(), || m.to_html()))
}

/// Renders a message back as the markdown dialect (W2), with what it could not express
/// (codes with no markdown spelling, leading spaces, …). When `lossless`,
/// `parse_markdown(result.markdown)` gives the message back.
///
/// >>> md = to_markdown(parse_html("<b>a*b</b> <small>c</small>"))
/// >>> md.markdown
/// '**a\\*b** c'
/// >>> md.unexpressed
/// [Unexpressed(start=4, len=1, what="code", code="f_13")]
#[pyfunction]
#[pyo3(signature = (f))]
fn to_markdown(py: Python<'_>, f: &Bound<'_, PyAny>) -> PyResult<Markdown> {
    let m = message(py, f)?;
    let m = m.get();
    Ok(Markdown(engine(py, m.text.len(), || m.to_markdown())))
}

/// `split`'s limit: an `int` (not a `bool`); one below 2 is S1's `invalid_limit`, and one
/// past the machine's range is no limit.
fn split_limit(py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "limit must be an int, not {}",
            v.get_type().name()?
        )));
    }
    match v.extract::<usize>() {
        Ok(n) => Ok(n),
        Err(_) if v.lt(0i64)? => Err(error(
            py,
            "invalid_limit",
            "limit",
            &format!("limit must be at least 2 UTF-16 units, not {v}"),
        )),
        Err(_) => Ok(usize::MAX),
    }
}

/// Splits a message longer than `limit` UTF-16 units into parts that can each be sent as
/// one `sendMessage` with their own `text` and `text_styles` (spec section 8, S1–S5): cut
/// at the last paragraph break, else line break, sentence end, white space, grapheme
/// cluster or code point that leaves a part at least half full; only white space is dropped
/// at a cut, and each character keeps its codes. A text that fits is one part, an empty
/// text none. `f` is a `Formatted`, or a mapping `{"text", "text_styles"}`; `limit`
/// defaults to R1's 2000. A `limit` below 2 raises `ChatmarkError` `invalid_limit`.
///
/// >>> f = parse_markdown("**Report**: all good.\n\nDetails come in the next part.")
/// >>> split(f, 30)
/// [Formatted(text="Report: all good.", text_styles=[Run(start=0, len=6, st=["b"])]), Formatted(text="Details come in the next part.", text_styles=[])]
/// >>> [p.text for p in split({"text": "one two three"}, limit=8)]
/// ['one two', 'three']
#[pyfunction]
#[pyo3(signature = (f, limit = None), text_signature = "(f, limit=2000)")]
fn split<'py>(
    py: Python<'py>,
    f: &Bound<'py, PyAny>,
    limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let m = message(py, f)?;
    let m = m.get();
    let limit = match limit {
        None => Limits::default().max_text_len,
        Some(v) => split_limit(py, v)?,
    };
    let parts = engine(py, m.text.len(), || chatmark::split(m, limit))
        .map_err(|e| resolve_error(py, &chatmark::ResolveError::from(e)))?;
    PyList::new(py, parts.into_iter().map(|p| Formatted::wrap(py, p, None)))
}

/// The number of UTF-16 code units of `text` (JavaScript's `length`, what run offsets
/// count): `len(text.encode("utf-16-le", "surrogatepass")) // 2` without the copy.
///
/// >>> utf16_len("a😀")
/// 3
#[pyfunction]
#[pyo3(signature = (text))]
fn utf16_len(text: &Bound<'_, PyString>) -> PyResult<usize> {
    text::utf16_len(text)
}

/// The UTF-16 offset of the `str` index `index` of `text` (`0 <= index <= len(text)`,
/// else `IndexError`).
///
/// >>> utf16_offset("😀 hi", 2)
/// 3
#[pyfunction]
#[pyo3(signature = (text, index))]
fn utf16_offset(text: &Bound<'_, PyString>, index: isize) -> PyResult<usize> {
    text::utf16_offset(text, index)
}

/// The `str` index of the UTF-16 offset `offset` of `text` (`0 <= offset <=
/// utf16_len(text)`, else `IndexError`; an offset inside a surrogate pair is a
/// `ValueError`). Slices a run out of the text: `text[str_index(text, r.start):
/// str_index(text, r.end)]`.
///
/// >>> f = parse_markdown("😀 **hi**")
/// >>> r = f.text_styles[0]
/// >>> f.text[str_index(f.text, r.start):str_index(f.text, r.end)]
/// 'hi'
#[pyfunction]
#[pyo3(signature = (text, offset))]
fn str_index(text: &Bound<'_, PyString>, offset: isize) -> PyResult<usize> {
    text::str_index(text, offset)
}

/// The extension module.
#[pymodule]
fn _chatmark(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Run>()?;
    m.add_class::<Formatted>()?;
    m.add_class::<Markdown>()?;
    m.add_class::<Unexpressed>()?;
    m.add_function(wrap_pyfunction!(parse_markdown, m)?)?;
    m.add_function(wrap_pyfunction!(parse_html, m)?)?;
    m.add_function(wrap_pyfunction!(from_commonmark, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(to_html, m)?)?;
    m.add_function(wrap_pyfunction!(to_markdown, m)?)?;
    m.add_function(wrap_pyfunction!(split, m)?)?;
    m.add_function(wrap_pyfunction!(utf16_len, m)?)?;
    m.add_function(wrap_pyfunction!(utf16_offset, m)?)?;
    m.add_function(wrap_pyfunction!(str_index, m)?)?;
    let codes: Vec<&str> = chatmark::StyleCode::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    m.add("STYLE_CODES", PyTuple::new(py, codes)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
