//! Client runs and `sendMessage` bodies read from Python values as the spec reads JSON
//! (N1, N2, N6, R1–R3, R5, R6), so that a `dict` from `json.loads` resolves exactly as its
//! JSON text does:
//!
//! - `start` and `len` count when they are integral by value: an `int` (not a `bool`, as
//!   JSON's `true` is no number) or a `float` with no fraction; beyond ±2^63, and the
//!   infinities (`json.loads("1e400")`), they saturate; anything else drops the run (N1);
//! - `st` is a `list` or `tuple` (its `str` items; others ignored) or one comma-separated
//!   `str` (N2); anything else drops the run;
//! - an entry that is neither a mapping nor a [`Run`] is dropped (N1);
//! - `text_styles` that is not a `list` or `tuple` is `invalid_text_styles` (N6).
//!
//! Everything is read in one pass in Rust: no Python code runs per run (a mapping other than
//! a `dict` is read through its `__getitem__`). Code strings are copied into one buffer that
//! the engine's raw runs borrow.

use chatmark::{ChatId, Field, RawTextStyle, StyleCode, TextStyle};
use pyo3::exceptions::PyKeyError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};

use crate::text::Utf8;
use crate::types::Run;

/// One entry of `text_styles` as read: a [`Run`] (already valid), or a mapping's fields.
enum Entry {
    Run(TextStyle),
    Raw {
        start: Option<i64>,
        len: Option<i64>,
        st: Codes,
    },
}

/// A mapping's `st`: absent or unusable, a list of codes (a range of [`RunReader::spans`]),
/// or one comma string (one span).
enum Codes {
    None,
    List(usize, usize),
    Comma(usize),
}

/// The runs of one call, read from Python: the entries and the code strings they borrow.
#[derive(Default)]
pub(crate) struct RunReader {
    entries: Vec<Entry>,
    /// Every code string, one after another.
    buf: String,
    /// Where each code string is in `buf`.
    spans: Vec<(usize, usize)>,
    /// Entries seen, kept or not (R6 counts them all).
    pub(crate) count: usize,
}

impl RunReader {
    /// Reads `text_styles` (a `list` or `tuple`): `None` when it is neither (N6). At most
    /// `max + 1` entries are kept (`max == 0`: all), enough for R6 to refuse the rest.
    pub(crate) fn read(styles: &Bound<'_, PyAny>, max: usize) -> PyResult<Option<RunReader>> {
        let keep = if max == 0 { usize::MAX } else { max + 1 };
        let mut reader = RunReader::default();
        if let Ok(list) = styles.cast::<PyList>() {
            reader.count = list.len();
            reader.entries.reserve(reader.count.min(keep));
            for item in list.iter().take(keep) {
                reader.entry(&item)?;
            }
        } else if let Ok(tuple) = styles.cast::<PyTuple>() {
            reader.count = tuple.len();
            reader.entries.reserve(reader.count.min(keep));
            for item in tuple.iter().take(keep) {
                reader.entry(&item)?;
            }
        } else {
            return Ok(None);
        }
        Ok(Some(reader))
    }

    fn entry(&mut self, item: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(run) = item.cast::<Run>() {
            self.entries.push(Entry::Run(run.get().0));
            return Ok(());
        }
        let py = item.py();
        if !is_mapping(item) {
            // N1: not an object
            self.entries.push(Entry::Raw {
                start: None,
                len: None,
                st: Codes::None,
            });
            return Ok(());
        }
        let start = lookup(item, intern!(py, "start"))?;
        let len = lookup(item, intern!(py, "len"))?;
        let st = lookup(item, intern!(py, "st"))?;
        let start = start.as_ref().and_then(integral);
        let len = len.as_ref().and_then(integral);
        let st = match st {
            Some(st) => self.codes(&st)?,
            None => Codes::None,
        };
        self.entries.push(Entry::Raw { start, len, st });
        Ok(())
    }

    /// N2: `st` as a list or tuple of strings, or one comma string.
    fn codes(&mut self, st: &Bound<'_, PyAny>) -> PyResult<Codes> {
        if let Ok(s) = st.cast::<PyString>() {
            self.push(s)?;
            return Ok(Codes::Comma(self.spans.len() - 1));
        }
        let from = self.spans.len();
        if let Ok(list) = st.cast::<PyList>() {
            for item in list.iter() {
                if let Ok(s) = item.cast::<PyString>() {
                    self.push(s)?;
                }
            }
        } else if let Ok(tuple) = st.cast::<PyTuple>() {
            for item in tuple.iter() {
                if let Ok(s) = item.cast::<PyString>() {
                    self.push(s)?;
                }
            }
        } else {
            return Ok(Codes::None);
        }
        Ok(Codes::List(from, self.spans.len()))
    }

    fn push(&mut self, s: &Bound<'_, PyString>) -> PyResult<()> {
        let from = self.buf.len();
        self.buf.push_str(&Utf8::read(s)?.as_str());
        self.spans.push((from, self.buf.len()));
        Ok(())
    }

    fn code(&self, k: usize) -> &str {
        self.spans
            .get(k)
            .and_then(|&(a, b)| self.buf.get(a..b))
            .unwrap_or("")
    }

    /// The runs in the engine's raw form, borrowing the code strings.
    pub(crate) fn raw(&self) -> Vec<RawTextStyle<'_>> {
        self.entries
            .iter()
            .map(|e| match e {
                Entry::Run(r) => RawTextStyle {
                    start: i64::try_from(r.start).ok(),
                    len: i64::try_from(r.len).ok(),
                    st: Some(r.st.iter().map(StyleCode::as_str).collect()),
                },
                Entry::Raw { start, len, st } => RawTextStyle {
                    start: *start,
                    len: *len,
                    st: match *st {
                        Codes::None => None,
                        Codes::List(a, b) => Some((a..b).map(|k| self.code(k)).collect()),
                        Codes::Comma(k) => Some(RawTextStyle::split_codes(self.code(k))),
                    },
                },
            })
            .collect()
    }
}

/// Whether `v` is a JSON object's counterpart: a `dict` or another mapping.
pub(crate) fn is_mapping(v: &Bound<'_, PyAny>) -> bool {
    v.cast::<PyDict>().is_ok() || v.cast::<PyMapping>().is_ok()
}

/// `v[key]` of a mapping, `None` when the key is absent (`KeyError`). A `dict` is read
/// directly; another mapping through its `__getitem__`, whose other errors propagate.
pub(crate) fn lookup<'py>(
    v: &Bound<'py, PyAny>,
    key: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if let Ok(dict) = v.cast::<PyDict>() {
        return dict.get_item(key);
    }
    match v.get_item(key) {
        Ok(x) => Ok(Some(x)),
        Err(e) if e.is_instance_of::<PyKeyError>(v.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// N1: an integral number by value, saturating; `None` for anything else.
pub(crate) fn integral(v: &Bound<'_, PyAny>) -> Option<i64> {
    if let Ok(i) = v.cast::<PyInt>() {
        if i.is_instance_of::<pyo3::types::PyBool>() {
            return None;
        }
        return Some(i.extract::<i64>().unwrap_or_else(|_| {
            // beyond ±2^63: saturate by sign
            if i.lt(0i64).unwrap_or(false) {
                i64::MIN
            } else {
                i64::MAX
            }
        }));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        let f = f.value();
        // `as` saturates (the infinities too), and -0.0 becomes 0
        return (f.is_infinite() || f.fract() == 0.0).then_some(f as i64);
    }
    None
}

/// A body's string field: absent, `None`, a `str`, or of the wrong type.
pub(crate) fn string_field<'py>(v: Option<Bound<'py, PyAny>>) -> Field<Bound<'py, PyString>> {
    match v {
        None => Field::Absent,
        Some(v) if v.is_none() => Field::Null,
        Some(v) => v
            .cast_into::<PyString>()
            .map_or(Field::Invalid, Field::Value),
    }
}

/// A body's `chat_id` as R5 judges it, kept as a flag: a non-empty string or an integral
/// number (N1's reading, as JSON's).
pub(crate) fn chat_id_ok(v: Option<&Bound<'_, PyAny>>) -> bool {
    match v {
        None => false,
        Some(v) => match v.cast::<PyString>() {
            Ok(s) => s.code_point_len().is_ok_and(|n| n > 0),
            Err(_) => integral(v).is_some(),
        },
    }
}

/// `chat_id` for the engine: R5 only asks whether it is acceptable.
pub(crate) fn chat_id(ok: bool) -> Field<ChatId<'static>> {
    if ok {
        Field::Value(ChatId::Int(0))
    } else {
        Field::Absent
    }
}
