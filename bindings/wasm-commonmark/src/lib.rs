//! The wasm binding of chatmark's CommonMark import (spec section 9), behind the npm
//! package's `chatmark/commonmark` entry: a wasm of its own, so that the package's other
//! entries carry none of pulldown-cmark.
//!
//! [`from_commonmark`] takes the text as a string (wasm-bindgen's glue encodes it to UTF-8,
//! a lone surrogate as U+FFFD: L2) and returns the runs as `(start, len, code mask)` triples
//! (bit `k` for the `k`-th code of the table of spec 1.1); the text it made is then taken
//! once with [`take_text`]. `js/commonmark-api.js` turns both into `{text, text_styles}`.
//! Nothing here panics: the import never does (L2), and the text is handed over through a
//! thread-local cell.
#![forbid(unsafe_code)]
// L2, as in the engine: nothing outside tests may panic on what JS passes in.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

use core::cell::RefCell;

use wasm_bindgen::prelude::*;

/// The allocator of the wasm: talc, as in the package's other wasm files.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

thread_local! {
    /// The text of the last import, until [`take_text`] takes it.
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A count or an offset as a word (wasm32's `usize` is 32 bits).
fn word(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Imports `text` as CommonMark (spec section 9): returns its runs as `(start, len, mask)`
/// triples and keeps its text for [`take_text`].
#[wasm_bindgen]
pub fn from_commonmark(text: &str) -> Vec<u32> {
    let f = chatmark::from_commonmark(text);
    let mut runs = Vec::with_capacity(3 * f.text_styles.len());
    for r in &f.text_styles {
        runs.extend([word(r.start), word(r.len), r.st.bits()]);
    }
    let _ = TEXT.try_with(|t| {
        if let Ok(mut t) = t.try_borrow_mut() {
            *t = f.text;
        }
    });
    runs
}

/// The text of the last [`from_commonmark`], taken (the empty string after).
#[wasm_bindgen]
pub fn take_text() -> String {
    TEXT.try_with(|t| {
        t.try_borrow_mut()
            .map(|mut t| core::mem::take(&mut *t))
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_as_triples_and_the_text_taken_once() {
        let runs = from_commonmark("# Hi\n\n- *a*");
        // "Hi" b f_18 (bits 0 and 6), then "a" i lst_1 (bits 1 and 13)
        assert_eq!(runs, [0, 2, 1 | 1 << 6, 4, 1, 1 << 1 | 1 << 13]);
        assert_eq!(take_text(), "Hi\n\na");
        assert_eq!(take_text(), "");
    }
}
