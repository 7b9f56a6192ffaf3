//! `ChatmarkError(code, field, message)`, the refused-input error (R7) with the codes of the
//! `chatmark --jsonl` contract. The class is Python's (`chatmark/_errors.py`, a `ValueError`
//! that pickles and prints as the CLI does); the extension imports it once and raises it.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static CHATMARK_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A `ChatmarkError` with the wire `code`, the `field` concerned and a human `message`.
pub(crate) fn error(py: Python<'_>, code: &str, field: &str, message: &str) -> PyErr {
    match CHATMARK_ERROR
        .import(py, "chatmark._errors", "ChatmarkError")
        .and_then(|ty| ty.call1((code, field, message)))
    {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The engine's refusal as a `ChatmarkError`.
pub(crate) fn resolve_error(py: Python<'_>, e: &chatmark::ResolveError) -> PyErr {
    error(py, e.code.as_str(), e.field, &e.message)
}

/// N6: `text_styles` present but not a list (or tuple).
pub(crate) fn styles_error(py: Python<'_>) -> PyErr {
    error(
        py,
        "invalid_text_styles",
        "text_styles",
        "text_styles must be a list",
    )
}
