//! Python strings in and out, converted once at the boundary.
//!
//! In: a `str` is encoded to UTF-8 once (`PyUnicode_AsUTF8String`, the limited API's
//! conversion before 3.10) and the engine's UTF-8 entry points read it: measured from
//! Python, cheaper than the UTF-16 entry points, which need the string encoded to UTF-16
//! through a codec and the text decoded back (figures in the commit that chose this). A
//! `str` holding lone surrogates (`"\ud800"`, from `surrogatepass` or `surrogateescape`)
//! cannot be UTF-8: it is read through its UTF-16 encoding instead, where each lone
//! surrogate becomes U+FFFD, one unit, as the spec's L2 says of JavaScript strings, so that
//! offsets stay aligned.
//!
//! Out: UTF-8 to `str` once, and only when asked for ([`crate::types::Formatted`] keeps the
//! engine's text and makes the `str` on first access); a result whose text is the input
//! hands back the input `str` itself.
//!
//! The engine runs without the GIL on long texts ([`engine`]), so other Python threads go
//! on meanwhile.

use std::borrow::Cow;

use pyo3::exceptions::{PyIndexError, PyUnicodeEncodeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// From this many bytes of input on, the engine runs with the GIL released, so that other
/// threads run meanwhile. Releasing and taking it back costs about 500 instructions
/// (callgrind), about 1% of a call on 4 KiB (the engine and the conversions take some 10
/// and 5 instructions a byte); a typical chat message, a few hundred bytes, keeps the GIL.
pub(crate) const DETACH_FROM: usize = 4 * 1024;

/// Runs `f` (pure engine work on `len` bytes of input) without the GIL when the input is
/// long, with it otherwise.
pub(crate) fn engine<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_FROM {
        py.detach(f)
    } else {
        f()
    }
}

/// A Python `str` read as UTF-8: the bytes of its UTF-8 encoding, or (for a string with
/// lone surrogates) a lossy copy.
pub(crate) enum Utf8<'py> {
    Encoded(Bound<'py, PyBytes>),
    Lossy(String),
}

impl<'py> Utf8<'py> {
    /// Reads `s` (see the module docs). Fails only when Python is out of memory.
    pub(crate) fn read(s: &Bound<'py, PyString>) -> PyResult<Self> {
        match s.encode_utf8() {
            Ok(bytes) => Ok(Utf8::Encoded(bytes)),
            Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => {
                Ok(Utf8::Lossy(String::from_utf16_lossy(&utf16_units(s)?)))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the text is the `str` exactly (it had no lone surrogate to replace).
    pub(crate) fn exact(&self) -> bool {
        matches!(self, Utf8::Encoded(_))
    }

    /// The text. Python's UTF-8 encoder writes valid UTF-8, so this borrows (checking it
    /// again costs a few nanoseconds per message; the lossy reading is never needed).
    pub(crate) fn as_str(&self) -> Cow<'_, str> {
        match self {
            Utf8::Encoded(b) => utf8(b.as_bytes()),
            Utf8::Lossy(s) => Cow::Borrowed(s),
        }
    }
}

/// UTF-8 bytes as text: borrowed when valid, lossy otherwise. Checked with SIMD (simdutf8):
/// std's check took 16% of a `parse_markdown` call over the corpus, and its lossy reading
/// more.
pub(crate) fn utf8(b: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

/// `s` encoded as UTF-16 with `surrogatepass`: every code point of the `str`, lone
/// surrogates included, as the units JavaScript would hold.
fn utf16_units(s: &Bound<'_, PyString>) -> PyResult<Vec<u16>> {
    let py = s.py();
    let encoded = s.call_method1(
        intern!(py, "encode"),
        (intern!(py, "utf-16-le"), intern!(py, "surrogatepass")),
    )?;
    let bytes = encoded.cast::<PyBytes>()?.as_bytes();
    Ok(bytes
        .chunks_exact(2)
        .map(|p| match p {
            [lo, hi] => u16::from_le_bytes([*lo, *hi]),
            _ => 0xFFFD,
        })
        .collect())
}

/// The code points of a `str` as Python indexes them, for the offset helpers: from its
/// UTF-8 encoding (each `char` one code point), or, for a string with surrogates, from its
/// UTF-32 encoding with `surrogatepass` (a surrogate is one code point, one UTF-16 unit).
fn code_points(s: &Bound<'_, PyString>) -> PyResult<Vec<u32>> {
    match s.encode_utf8() {
        Ok(bytes) => Ok(utf8(bytes.as_bytes()).chars().map(u32::from).collect()),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => {
            let py = s.py();
            let encoded = s.call_method1(
                intern!(py, "encode"),
                (intern!(py, "utf-32-le"), intern!(py, "surrogatepass")),
            )?;
            let bytes = encoded.cast::<PyBytes>()?.as_bytes();
            Ok(bytes
                .chunks_exact(4)
                .map(|q| match q {
                    [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
                    _ => 0xFFFD,
                })
                .collect())
        }
        Err(e) => Err(e),
    }
}

/// UTF-16 units of one code point.
fn units(cp: u32) -> usize {
    if cp > 0xFFFF {
        2
    } else {
        1
    }
}

/// The number of UTF-16 units of `s` (JavaScript's `length`): the `len(text.encode(
/// "utf-16-le", "surrogatepass")) // 2` of Python, without the copy.
pub(crate) fn utf16_len(s: &Bound<'_, PyString>) -> PyResult<usize> {
    match Utf8::read(s)? {
        Utf8::Encoded(b) => {
            let text = utf8(b.as_bytes());
            Ok(engine(s.py(), text.len(), || chatmark::utf16_len(&text)))
        }
        // a lone surrogate is one unit either way: U+FFFD here, itself in UTF-16
        Utf8::Lossy(text) => Ok(chatmark::utf16_len(&text)),
    }
}

/// The UTF-16 offset of the `str` index `index` (0 to `len(s)`).
pub(crate) fn utf16_offset(s: &Bound<'_, PyString>, index: isize) -> PyResult<usize> {
    let cps = code_points(s)?;
    let index = usize::try_from(index)
        .ok()
        .filter(|&i| i <= cps.len())
        .ok_or_else(|| {
            PyIndexError::new_err(format!(
                "index {index} is outside the string (0 to {})",
                cps.len()
            ))
        })?;
    Ok(cps.iter().take(index).map(|&cp| units(cp)).sum())
}

/// The `str` index of the UTF-16 offset `offset` (0 to `utf16_len(s)`), which must not fall
/// inside a surrogate pair.
pub(crate) fn str_index(s: &Bound<'_, PyString>, offset: isize) -> PyResult<usize> {
    let cps = code_points(s)?;
    let total: usize = cps.iter().map(|&cp| units(cp)).sum();
    let offset = usize::try_from(offset)
        .ok()
        .filter(|&o| o <= total)
        .ok_or_else(|| {
            PyIndexError::new_err(format!(
                "UTF-16 offset {offset} is outside the string (0 to {total})"
            ))
        })?;
    let mut at = 0;
    for (index, &cp) in cps.iter().enumerate() {
        if at == offset {
            return Ok(index);
        }
        at += units(cp);
        if at > offset {
            return Err(PyValueError::new_err(format!(
                "UTF-16 offset {offset} falls inside the surrogate pair of index {index}"
            )));
        }
    }
    Ok(cps.len())
}
