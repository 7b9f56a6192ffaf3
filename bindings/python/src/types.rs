//! The package's value types: [`Run`] and [`Formatted`] (spec 1: text plus canonical runs
//! in UTF-16 units), and [`Markdown`] with its [`Unexpressed`] spans (W2). All are frozen
//! and compare by value; each has `to_dict()` and `to_json()` giving the wire shape, and a
//! `repr` that reads like it.
//!
//! A [`Formatted`] keeps the engine's result as it is (Rust text and runs): its `str` is
//! made on first access and kept, its `text_styles` list is made on each access, and
//! `to_dict()`, `to_json()`, rendering and splitting read the Rust values directly.

use chatmark::{StyleCode, StyleSet, TextStyle};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::errors::styles_error;
use crate::read::RunReader;
use crate::text::{engine, Utf8};

/// The code strings, made once per interpreter: `st` tuples share them.
static CODES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

fn code_str(py: Python<'_>, code: StyleCode) -> Bound<'_, PyString> {
    let codes = CODES.get_or_init(py, || {
        StyleCode::ALL
            .iter()
            .map(|c| PyString::intern(py, c.as_str()).unbind())
            .collect()
    });
    match codes.get(code as usize) {
        Some(s) => s.bind(py).clone(),
        None => PyString::new(py, code.as_str()),
    }
}

/// A JSON string literal of `s` (non-ASCII kept as it is).
fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The answer of `__eq__`: `NotImplemented` for another type (so that Python tries the
/// other side, then identity), else the comparison.
fn compared(py: Python<'_>, eq: Option<bool>) -> Py<PyAny> {
    match eq {
        Some(b) => pyo3::types::PyBool::new(py, b)
            .to_owned()
            .into_any()
            .unbind(),
        None => py.NotImplemented(),
    }
}

/// A hash of a value, the same in every process (std's `DefaultHasher` has fixed keys).
fn hash_of(v: &impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// A non-negative `int` argument (not a `bool`): `TypeError` or `ValueError` otherwise.
pub(crate) fn index_arg(v: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            v.get_type().name()?
        )));
    }
    v.extract::<usize>()
        .map_err(|_| PyValueError::new_err(format!("{name} must be a non-negative int, not {v}")))
}

/// One style run: `len` UTF-16 code units of the text from `start`, carrying the codes `st`
/// (spec 1). Frozen and hashable; equal runs have equal JSON.
///
/// >>> r = Run(0, 5, ["c_db342e", "b"])
/// >>> r, r.end, r.to_dict()
/// (Run(start=0, len=5, st=["b", "c_db342e"]), 5, {'start': 0, 'len': 5, 'st': ['b', 'c_db342e']})
// `__eq__` and `__hash__` are written out below rather than asked of the macro (`eq, hash`):
// pyo3 0.30.1's `pyclass` joins those slots and the freelist's without a comma.
#[pyclass(frozen, freelist = 256, module = "chatmark", name = "Run")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Run(pub(crate) TextStyle);

impl Run {
    fn st_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let codes: Vec<_> = self.0.st.iter().map(|c| code_str(py, c)).collect();
        PyTuple::new(py, codes)
    }

    fn st_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let codes: Vec<_> = self.0.st.iter().map(|c| code_str(py, c)).collect();
        PyList::new(py, codes)
    }

    pub(crate) fn dict<'py>(style: &TextStyle, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "start"), style.start)?;
        d.set_item(intern!(py, "len"), style.len)?;
        d.set_item(intern!(py, "st"), Run(*style).st_list(py)?)?;
        Ok(d)
    }

    fn repr(style: &TextStyle) -> String {
        let codes: Vec<String> = style.st.iter().map(|c| json_str(c.as_str())).collect();
        format!(
            "Run(start={}, len={}, st=[{}])",
            style.start,
            style.len,
            codes.join(", ")
        )
    }
}

#[pymethods]
impl Run {
    /// `Run(start, len, st)`: `st` is an iterable of codes (or one comma-separated string);
    /// codes outside the closed set are a `ValueError`, and of two codes of one family the
    /// later wins (spec 1.3).
    #[new]
    #[pyo3(signature = (start, len, st))]
    fn new(
        start: &Bound<'_, PyAny>,
        len: &Bound<'_, PyAny>,
        st: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let start = index_arg(start, "start")?;
        let len = index_arg(len, "len")?;
        let mut set = StyleSet::EMPTY;
        let mut add = |s: &str| -> PyResult<()> {
            let code: StyleCode = s.trim().parse().map_err(|_| {
                PyValueError::new_err(format!("unknown style code {}", json_str(s)))
            })?;
            set.insert(code);
            Ok(())
        };
        if let Ok(s) = st.cast::<PyString>() {
            let s = Utf8::read(s)?;
            for code in s.as_str().split(',') {
                add(code)?;
            }
        } else {
            for item in st.try_iter()? {
                let item = item?;
                let s = item.cast::<PyString>().map_err(|_| {
                    PyTypeError::new_err("st must hold strings (style codes such as \"b\")")
                })?;
                add(&Utf8::read(s)?.as_str())?;
            }
        }
        Ok(Run(TextStyle {
            start,
            len,
            st: set,
        }))
    }

    /// First UTF-16 unit covered.
    #[getter]
    fn start(&self) -> usize {
        self.0.start
    }

    /// Number of UTF-16 units covered.
    #[getter]
    fn len(&self) -> usize {
        self.0.len
    }

    /// One past the last UTF-16 unit covered (`start + len`).
    #[getter]
    fn end(&self) -> usize {
        self.0.end()
    }

    /// The codes, in canonical order (C4).
    #[getter]
    fn st<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.st_tuple(py)
    }

    /// The wire shape: `{"start": …, "len": …, "st": [...]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        Run::dict(&self.0, py)
    }

    /// The wire JSON, compact: `{"start":6,"len":5,"st":["b"]}`.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        Run::repr(&self.0)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        compared(
            other.py(),
            other.cast::<Run>().ok().map(|o| o.get() == self),
        )
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let r = slf.get();
        Ok((
            slf.get_type(),
            PyTuple::new(
                py,
                [
                    r.0.start.into_pyobject(py)?.into_any(),
                    r.0.len.into_pyobject(py)?.into_any(),
                    r.st_tuple(py)?.into_any(),
                ],
            )?,
        ))
    }

    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("start", "len", "st")
    }
}

/// What `Formatted.__reduce__` gives pickle: the class and the arguments to make it again.
type Reduced<'py> = (
    Bound<'py, PyType>,
    (Bound<'py, PyString>, Bound<'py, PyList>),
);

/// A formatted message: plain `text` and its canonical `text_styles` (C1–C6), as
/// `sendMessage` takes them. Frozen, hashable, compared by value.
///
/// >>> f = Formatted("Hello world", [{"start": 3, "len": 2, "st": ["b"]}, Run(0, 3, "b")])
/// >>> f.text_styles  # normalised: the two runs merge (C3)
/// [Run(start=0, len=5, st=["b"])]
/// >>> f.to_json()
/// '{"text":"Hello world","text_styles":[{"start":0,"len":5,"st":["b"]}]}'
#[pyclass(frozen, freelist = 64, module = "chatmark", name = "Formatted")]
pub struct Formatted {
    pub(crate) inner: chatmark::Formatted,
    /// The text as a `str`, made on first access (or the input's, when unchanged).
    text: PyOnceLock<Py<PyString>>,
}

impl Formatted {
    /// Wraps an engine result; `input` is the `str` it was made from, handed back as the
    /// text when the text is unchanged.
    pub(crate) fn wrap(
        py: Python<'_>,
        inner: chatmark::Formatted,
        input: Option<(&Bound<'_, PyString>, &str)>,
    ) -> Formatted {
        let text = PyOnceLock::new();
        if let Some((s, utf8)) = input {
            if utf8 == inner.text {
                let _ = text.set(py, s.clone().unbind());
            }
        }
        Formatted { inner, text }
    }

    fn py_text<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.text
            .get_or_init(py, || PyString::new(py, &self.inner.text).unbind())
            .bind(py)
            .clone()
    }

    pub(crate) fn runs_list<'py>(
        runs: &[TextStyle],
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyList>> {
        // sized once: no growth as the runs are appended
        PyList::new(py, runs.iter().map(|r| Run(*r)))
    }
}

#[pymethods]
impl Formatted {
    /// `Formatted(text, text_styles=())`: the runs (`Run`s or mappings, as `normalize`
    /// takes them) are normalised (N1–N6), so every `Formatted` is canonical.
    #[new]
    #[pyo3(signature = (text, text_styles = None))]
    fn new(
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        text_styles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let utf8 = Utf8::read(text)?;
        let t = utf8.as_str();
        let runs = match text_styles {
            None => Vec::new(),
            Some(styles) => {
                let reader = RunReader::read(styles, 0)?.ok_or_else(|| styles_error(py))?;
                let raw = reader.raw();
                engine(py, t.len() + 16 * raw.len(), || {
                    chatmark::normalize(&t, &raw).0
                })
            }
        };
        let inner = chatmark::Formatted {
            text: t.into_owned(),
            text_styles: runs,
        };
        Ok(Formatted::wrap(py, inner, None))
    }

    /// The plain text, markup removed.
    #[getter]
    fn text<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.py_text(py)
    }

    /// The canonical runs over `text`, in UTF-16 units (a new list on each access).
    #[getter]
    fn text_styles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Formatted::runs_list(&self.inner.text_styles, py)
    }

    /// The wire shape: `{"text": …, "text_styles": [{"start", "len", "st"}, …]}`, ready to
    /// send as `sendMessage` fields.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "text"), self.py_text(py))?;
        let runs = PyList::empty(py);
        for r in &self.inner.text_styles {
            runs.append(Run::dict(r, py)?)?;
        }
        d.set_item(intern!(py, "text_styles"), runs)?;
        Ok(d)
    }

    /// The wire JSON, compact, as the `chatmark` command prints it.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        let runs: Vec<String> = self.inner.text_styles.iter().map(Run::repr).collect();
        format!(
            "Formatted(text={}, text_styles=[{}])",
            json_str(&self.inner.text),
            runs.join(", ")
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let eq = other
            .cast::<Formatted>()
            .ok()
            .map(|o| o.get().inner == self.inner);
        compared(other.py(), eq)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let f = slf.get();
        Ok((
            slf.get_type(),
            (
                f.py_text(py),
                Formatted::runs_list(&f.inner.text_styles, py)?,
            ),
        ))
    }

    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("text", "text_styles")
    }
}

/// One thing a markdown rendering does not express (W2): `len` UTF-16 units of the message
/// from `start`, and what was lost there (`what`: `code`, `leading_spaces`,
/// `partial_line_codes`, `placement` or `text`; `code`: the style code, for `code`).
///
/// >>> [u] = to_markdown({"text": "  a", "text_styles": []}).unexpressed
/// >>> u.what, u.to_dict()
/// ('leading_spaces', {'start': 0, 'len': 2, 'what': 'leading_spaces'})
#[pyclass(frozen, eq, hash, module = "chatmark", name = "Unexpressed")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Unexpressed {
    start: usize,
    len: usize,
    what: &'static str,
    code: Option<StyleCode>,
}

impl From<&chatmark::Unexpressed> for Unexpressed {
    fn from(u: &chatmark::Unexpressed) -> Self {
        Unexpressed {
            start: u.start,
            len: u.len,
            what: u.what.as_str(),
            code: u.what.code(),
        }
    }
}

impl Unexpressed {
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "start"), self.start)?;
        d.set_item(intern!(py, "len"), self.len)?;
        d.set_item(intern!(py, "what"), self.what)?;
        if let Some(c) = self.code {
            d.set_item(intern!(py, "code"), code_str(py, c))?;
        }
        Ok(d)
    }

    fn repr(&self) -> String {
        let code = self
            .code
            .map_or_else(|| "None".to_owned(), |c| json_str(c.as_str()));
        format!(
            "Unexpressed(start={}, len={}, what={}, code={code})",
            self.start,
            self.len,
            json_str(self.what)
        )
    }
}

#[pymethods]
impl Unexpressed {
    /// First UTF-16 unit of the message concerned.
    #[getter]
    fn start(&self) -> usize {
        self.start
    }

    /// Length in UTF-16 units.
    #[getter]
    fn len(&self) -> usize {
        self.len
    }

    /// What was lost: `code`, `leading_spaces`, `partial_line_codes`, `placement`, `text`.
    #[getter]
    fn what(&self) -> &'static str {
        self.what
    }

    /// The style code lost, when `what` is `code`; else `None`.
    #[getter]
    fn code<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.code.map(|c| code_str(py, c))
    }

    /// The wire shape: `{"start", "len", "what", "code"?}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }

    fn __repr__(&self) -> String {
        self.repr()
    }
}

/// A markdown rendering (W2): the `markdown`, whether it is `lossless` (then
/// `parse_markdown(markdown)` gives the message back), and what it did not express.
///
/// >>> md = to_markdown(parse_html("<b>bold</b> and <u>under</u>"))
/// >>> md.markdown, md.lossless
/// ('**bold** and {underline}under{/underline}', True)
#[pyclass(frozen, module = "chatmark", name = "Markdown")]
pub struct Markdown(pub(crate) chatmark::Markdown);

#[pymethods]
impl Markdown {
    /// The markdown text.
    #[getter]
    fn markdown(&self) -> &str {
        &self.0.text
    }

    /// Whether nothing was lost (`unexpressed` is empty).
    #[getter]
    fn lossless(&self) -> bool {
        self.0.is_lossless()
    }

    /// What the markdown does not express, in order of position (a new list each access).
    #[getter]
    fn unexpressed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for u in &self.0.unexpressed {
            list.append(Bound::new(py, Unexpressed::from(u))?)?;
        }
        Ok(list)
    }

    /// The wire shape: `{"markdown", "lossless", "unexpressed": [...]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "markdown"), &self.0.text)?;
        d.set_item(intern!(py, "lossless"), self.0.is_lossless())?;
        let list = PyList::empty(py);
        for u in &self.0.unexpressed {
            list.append(Unexpressed::from(u).dict(py)?)?;
        }
        d.set_item(intern!(py, "unexpressed"), list)?;
        Ok(d)
    }

    /// The wire JSON, compact, as `chatmark render --to markdown --jsonl` prints it.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_default()
    }

    /// The markdown text.
    fn __str__(&self) -> &str {
        &self.0.text
    }

    fn __repr__(&self) -> String {
        let u: Vec<String> = self
            .0
            .unexpressed
            .iter()
            .map(|u| Unexpressed::from(u).repr())
            .collect();
        format!(
            "Markdown(markdown={}, lossless={}, unexpressed=[{}])",
            json_str(&self.0.text),
            if self.0.is_lossless() {
                "True"
            } else {
                "False"
            },
            u.join(", ")
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        compared(
            other.py(),
            other.cast::<Markdown>().ok().map(|o| o.get().0 == self.0),
        )
    }
}
