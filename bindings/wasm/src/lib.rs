//! The wasm binding of the chatmark engine, behind the npm package `chatmark`.
//!
//! Nothing crosses the boundary as JSON, and no string is marshalled by wasm-bindgen: every
//! export takes and returns numbers. Inputs are written by the JS wrapper (`js/engine.js`)
//! straight into three buffers owned here: UTF-16 units (markdown and HTML text, copied
//! from the JS string as it is, read by the engine's UTF-16 parsers with no transcoding and
//! no UTF-8 validation), bytes (other UTF-8 text, `TextEncoder.encodeInto`) and numbers (`f64`: the
//! fields of client runs). Results are left in two output buffers, `u32` words (runs as
//! `(start, len, code mask)` triples, string slices as `(offset, len)`) and UTF-16 units
//! (the text and messages), which the wrapper reads through typed-array views over wasm
//! memory and turns into plain objects. [`head`] is the address of the boundary's words
//! ([`layout`]): where those buffers are now (they move when they grow), and the request
//! `resolve` reads.
//!
//! What needs JSON (`resolveJsonl`, the `chatmark-jsonl` bin) parses it in JS and calls the
//! same typed exports, so neither serde nor serde_json is in the wasm.
//!
//! The crate builds two flavours: with the default feature `html` (the `chatmark` entry) and
//! without it (`chatmark/markdown`: no HTML tokenizer, entity table, HTML semantics or
//! markdown renderer; an HTML body answers [`UNSUPPORTED`]). Nothing here panics: every
//! failure is a status.
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
use core::sync::atomic::{AtomicU32, Ordering};

use chatmark::{
    ChatId, Diagnostic, Field, Formatted, FormattedUtf16, Limits, RawTextStyle, ResolveError,
    SendMessage, StyleCode, TextStyle,
};
use wasm_bindgen::prelude::*;

/// The allocator of the wasm: talc, smaller and no slower than std's dlmalloc here (issue 14).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod layout;

/// The statuses of the calls: [`OK`], [`ERROR`] or, on the markdown-only build when the body
/// is valid up to its `parse_mode`, which is HTML, [`UNSUPPORTED`].
pub use layout::{ERROR, OK, UNSUPPORTED};

/// The boundary's words, named in [`layout`]: where the buffers are, and the resolve request.
static HEAD: [AtomicU32; layout::COUNT] = [const { AtomicU32::new(0) }; layout::COUNT];

/// The buffers of the boundary, reused from call to call.
struct Io {
    bytes: Vec<u8>,
    nums: Vec<f64>,
    units: Vec<u16>,
    out: Vec<u32>,
    out16: Vec<u16>,
    /// What the UTF-16 parsers write into: their text in `out16`'s buffer, lent for the
    /// call (swapped, so that no vector is dropped, a call in the size-tuned wasm), and
    /// their runs, kept for the capacity.
    parsed: FormattedUtf16,
}

thread_local! {
    // const: no lazy initialisation code in the wasm
    static IO: RefCell<Io> = const {
        RefCell::new(Io {
            bytes: Vec::new(),
            nums: Vec::new(),
            units: Vec::new(),
            out: Vec::new(),
            out16: Vec::new(),
            parsed: FormattedUtf16 {
                text: Vec::new(),
                text_styles: Vec::new(),
            },
        })
    };
}

/// An address or a count as a word (wasm32's `usize` is 32 bits).
fn word(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn set_head(k: usize, v: u32) {
    if let Some(h) = HEAD.get(k) {
        h.store(v, Ordering::Relaxed);
    }
}

fn get_head(k: usize) -> u32 {
    HEAD.get(k).map_or(0, |h| h.load(Ordering::Relaxed))
}

/// Runs `f` on the buffers and publishes where the outputs are.
fn with_io(f: impl FnOnce(&mut Io) -> u32) -> u32 {
    IO.try_with(|io| {
        let Ok(mut io) = io.try_borrow_mut() else {
            return ERROR;
        };
        io.out.clear();
        io.out16.clear();
        let status = f(&mut io);
        set_head(layout::OUT_PTR, word(io.out.as_ptr() as usize));
        set_head(layout::OUT_LEN, word(io.out.len()));
        set_head(layout::OUT16_PTR, word(io.out16.as_ptr() as usize));
        status
    })
    .unwrap_or(ERROR)
}

/// The address of the boundary's words ([`layout`]).
#[wasm_bindgen]
pub fn head() -> u32 {
    word(HEAD.as_ptr() as usize)
}

/// Makes room for `bytes` input bytes, `nums` input numbers and `units` input UTF-16 units,
/// and publishes the buffers' addresses in the head. JS writes into them before the next
/// call.
#[wasm_bindgen]
pub fn reserve(bytes: u32, nums: u32, units: u32) {
    let _ = IO.try_with(|io| {
        if let Ok(mut io) = io.try_borrow_mut() {
            let (b, n, u) = (bytes as usize, nums as usize, units as usize);
            if io.bytes.len() < b {
                io.bytes.resize(b, 0);
            }
            if io.nums.len() < n {
                io.nums.resize(n, 0.0);
            }
            if io.units.len() < u {
                io.units.resize(u, 0);
            }
            set_head(layout::IN_PTR, word(io.bytes.as_ptr() as usize));
            set_head(layout::IN_CAP, word(io.bytes.len()));
            set_head(layout::NUM_PTR, word(io.nums.as_ptr() as usize));
            set_head(layout::NUM_CAP, word(io.nums.len()));
            set_head(layout::UNIT_PTR, word(io.units.as_ptr() as usize));
            set_head(layout::UNIT_CAP, word(io.units.len()));
        }
    });
}

/// Appends a string to the UTF-16 output and its `(offset, len)` to the words.
fn put_str(out: &mut Vec<u32>, out16: &mut Vec<u16>, s: &str) {
    let from = out16.len();
    chatmark::push_utf16(out16, s);
    out.push(word(from));
    out.push(word(out16.len() - from));
}

fn put_runs(out: &mut Vec<u32>, runs: &[TextStyle]) {
    out.push(word(runs.len()));
    for r in runs {
        // bit k for the k-th code of the table (1.1)
        out.extend([word(r.start), word(r.len), r.st.bits()]);
    }
}

fn put_diagnostics(out: &mut Vec<u32>, out16: &mut Vec<u16>, diags: Option<&[Diagnostic]>) {
    let Some(diags) = diags else { return };
    out.push(word(diags.len()));
    for d in diags {
        put_str(out, out16, d.code.as_str());
        out.extend([word(d.start), word(d.len)]);
        put_str(out, out16, &d.message);
    }
}

/// A formatted message: `[text len or layout::UNCHANGED when the text is the input, runs…,
/// diagnostics…]` in words, the text (unless unchanged) in UTF-16 units.
fn put_formatted(io: &mut Io, input: &str, f: &Formatted, diags: Option<&[Diagnostic]>) {
    let Io { out, out16, .. } = io;
    if f.text == input {
        out.push(layout::UNCHANGED);
    } else {
        chatmark::push_utf16(out16, &f.text);
        out.push(word(out16.len()));
    }
    put_runs(out, &f.text_styles);
    put_diagnostics(out, out16, diags);
}

/// An error: `(code, field, message)` as three strings.
fn put_error(io: &mut Io, e: &ResolveError) -> u32 {
    let Io { out, out16, .. } = io;
    put_str(out, out16, e.code.as_str());
    put_str(out, out16, e.field);
    put_str(out, out16, &e.message);
    ERROR
}

/// The input bytes `from..from + len` as text (always UTF-8: JS wrote them with
/// `encodeInto`; anything else reads as the empty string rather than failing).
fn input_str(bytes: &[u8], from: usize, len: usize) -> &str {
    bytes
        .get(from..from.saturating_add(len))
        .and_then(|b| core::str::from_utf8(b).ok())
        .unwrap_or("")
}

/// Parses the first `len` input units with one of the engine's UTF-16 parsers, which writes
/// the text straight into the output units (`into`, reusing the output buffers), or with
/// `with_diagnostics`: the words are as [`put_formatted`] leaves them, "unchanged" meaning the input
/// exactly (it had no lone surrogate to replace, L2). Plain text needs no engine: the
/// wrapper answers it.
fn parse_units(
    len: u32,
    diagnostics: bool,
    into: fn(&[u16], &mut FormattedUtf16),
    with_diagnostics: fn(&[u16]) -> (FormattedUtf16, Vec<Diagnostic>),
) -> u32 {
    with_io(|io| {
        let Io {
            units,
            out,
            out16,
            parsed,
            ..
        } = io;
        let input = units.get(..len as usize).unwrap_or_default();
        let diags = if diagnostics {
            let (f, d) = with_diagnostics(input);
            out16.extend_from_slice(&f.text);
            parsed.text_styles = f.text_styles;
            Some(d)
        } else {
            core::mem::swap(out16, &mut parsed.text);
            into(input, parsed);
            core::mem::swap(out16, &mut parsed.text);
            None
        };
        if same_units(out16, input) {
            out.push(layout::UNCHANGED);
            out16.clear();
        } else {
            out.push(word(out16.len()));
        }
        put_runs(out, &parsed.text_styles);
        put_diagnostics(out, out16, diags.as_deref());
        OK
    })
}

/// Whether two texts are the same units: eight of each in a SIMD register per step where
/// the wasm has them (`==` on slices is a `memcmp` of single bytes there).
fn same_units(a: &[u16], b: &[u16]) -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{i16x8_all_true, i16x8_eq, u16x8};
        if a.len() != b.len() {
            return false;
        }
        // eight units from an array reference: destructured from a slice (or from a chunk
        // chosen against a fallback), each unit is a load of its own
        let v = |c: &[u16; 8]| {
            let [a, b, c, d, e, f, g, h] = *c;
            u16x8(a, b, c, d, e, f, g, h)
        };
        fn eight(s: &[u16], k: usize) -> Option<&[u16; 8]> {
            s.get(k..).and_then(<[u16]>::first_chunk)
        }
        let mut k = 0;
        while let (Some(p), Some(q)) = (eight(a, k), eight(b, k)) {
            if !i16x8_all_true(i16x8_eq(v(p), v(q))) {
                return false;
            }
            k += 8;
        }
        a.get(k..) == b.get(k..)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        a == b
    }
}

/// Parses the first `len` input units in markdown mode (spec section 2) with the engine's
/// UTF-16 parser (see `parse_units`). Always [`OK`].
#[wasm_bindgen]
pub fn parse_markdown(len: u32, diagnostics: bool) -> u32 {
    parse_units(
        len,
        diagnostics,
        chatmark::parse_markdown_utf16_into,
        chatmark::parse_markdown_utf16_with_diagnostics,
    )
}

/// Parses the first `len` input units in HTML mode (spec section 3) with the engine's
/// UTF-16 parser (see `parse_units`). Always [`OK`]; only in the build with HTML mode.
#[cfg(feature = "html")]
#[wasm_bindgen]
pub fn parse_html(len: u32, diagnostics: bool) -> u32 {
    parse_units(
        len,
        diagnostics,
        chatmark::parse_html_utf16_into,
        chatmark::parse_html_utf16_with_diagnostics,
    )
}

/// An `f64` field of a client run as N1 reads it: integral values, saturating at ±2^63
/// (±Infinity, which is what JavaScript reads `1e400` as, included); anything else (NaN
/// marks absent and non-integral values) as `None`.
fn integral(v: f64) -> Option<i64> {
    // `as` saturates (±Infinity too), and -0.0 becomes 0.
    (v.is_infinite() || v.fract() == 0.0).then_some(v as i64)
}

/// Reads `n` client runs from the input numbers, from index 0: per run `start`, `len`,
/// `st` kind (`layout::ST_*`), the number `c` of strings, then `c` pairs `(byte offset,
/// byte len)` into the input bytes.
fn read_runs<'a>(bytes: &'a [u8], nums: &[f64], n: usize) -> Vec<RawTextStyle<'a>> {
    let mut runs = Vec::with_capacity(n.min(nums.len() / 4));
    let mut at = nums.iter().copied();
    let mut next = || at.next().unwrap_or(f64::NAN);
    for _ in 0..n {
        let start = integral(next());
        let len = integral(next());
        let kind = next();
        let count = next();
        let count = if count.is_finite() && count > 0.0 {
            count as usize
        } else {
            0
        };
        let mut codes = Vec::with_capacity(count.min(64));
        for _ in 0..count {
            let (off, len) = (next(), next());
            codes.push(input_str(bytes, off as usize, len as usize));
        }
        let st = match kind as u32 {
            layout::ST_LIST => Some(codes),
            layout::ST_STRING => Some(
                codes
                    .first()
                    .map_or_else(Vec::new, |s| RawTextStyle::split_codes(s)),
            ),
            _ => None,
        };
        runs.push(RawTextStyle { start, len, st });
    }
    runs
}

/// Normalises `n_runs` client runs (N1–N6) over the first `text_len` input bytes: the
/// canonical runs (and the diagnostics when asked) in the words. Always [`OK`].
#[wasm_bindgen]
pub fn normalize(text_len: u32, n_runs: u32, diagnostics: bool) -> u32 {
    with_io(|io| {
        let bytes = core::mem::take(&mut io.bytes);
        let nums = core::mem::take(&mut io.nums);
        let text = input_str(&bytes, 0, text_len as usize);
        let raw = read_runs(&bytes, &nums, n_runs as usize);
        let (runs, diags) = chatmark::normalize(text, &raw);
        let Io { out, out16, .. } = io;
        put_runs(out, &runs);
        put_diagnostics(out, out16, diagnostics.then_some(diags.as_slice()));
        drop(raw);
        io.bytes = bytes;
        io.nums = nums;
        OK
    })
}

/// Reads the message to render: text (the first `text_len` input bytes) and `n_runs` client
/// runs, normalised (N1–N6) so that any input renders.
fn formatted_input(io: &mut Io, text_len: u32, n_runs: u32) -> Formatted {
    let text = input_str(&io.bytes, 0, text_len as usize);
    let raw = read_runs(&io.bytes, &io.nums, n_runs as usize);
    Formatted {
        text: text.to_owned(),
        text_styles: chatmark::normalize(text, &raw).0,
    }
}

/// Renders a message (text and client runs, as [`normalize`] takes them) as an HTML fragment
/// (W1): one string. Always [`OK`].
#[wasm_bindgen]
pub fn render_html(text_len: u32, n_runs: u32) -> u32 {
    with_io(|io| {
        let html = formatted_input(io, text_len, n_runs).to_html();
        let Io { out, out16, .. } = io;
        put_str(out, out16, &html);
        OK
    })
}

/// Renders a message as markdown (W2): the markdown, `lossless` (0 or 1), the number of
/// unexpressed spans, then each as `(start, len, what, code or the empty string)`. Always
/// [`OK`]. Only in the build with everything (the markdown-only entry has no `toMarkdown`).
#[cfg(feature = "html")]
#[wasm_bindgen]
pub fn render_markdown(text_len: u32, n_runs: u32) -> u32 {
    with_io(|io| {
        let md = formatted_input(io, text_len, n_runs).to_markdown();
        let Io { out, out16, .. } = io;
        put_str(out, out16, &md.text);
        out.push(u32::from(md.is_lossless()));
        out.push(word(md.unexpressed.len()));
        for u in &md.unexpressed {
            out.extend([word(u.start), word(u.len)]);
            put_str(out, out16, u.what.as_str());
            put_str(out, out16, u.what.code().map_or("", StyleCode::as_str));
        }
        OK
    })
}

/// Splits a message into parts that can each be sent (spec section 8, S1–S5): its text is
/// the first `len` input UTF-16 units (lone surrogates read as U+FFFD, L2), its runs are
/// read as [`normalize`] reads them and normalised first (N1–N5), and `limit` counts UTF-16
/// units, at least 2 (S1: the package refuses a smaller one before it calls; one here reads
/// as 2). Always [`OK`], with `[number of parts, then per part: its text's length in
/// units, its runs…]` in the words and the parts' texts one after the other in the UTF-16
/// output.
#[wasm_bindgen]
pub fn split(len: u32, n_runs: u32, limit: u32) -> u32 {
    with_io(|io| {
        let Io {
            units,
            bytes,
            nums,
            out,
            out16,
            ..
        } = io;
        // (both calls read a lone surrogate as U+FFFD)
        let text = units.get(..len as usize).unwrap_or_default();
        let runs = chatmark::normalize_utf16(text, &read_runs(bytes, nums, n_runs as usize)).0;
        // the number of parts first, filled in once they are written
        let at = out.len();
        out.push(0);
        let mut parts = 0;
        let limit = (limit as usize).max(2);
        // (a limit of 2 or more cannot fail)
        let _ = chatmark::split_utf16_each(text, &runs, limit, |text, runs| {
            out16.extend_from_slice(text);
            out.push(word(text.len()));
            put_runs(out, runs);
            parts += 1;
        });
        if let Some(n) = out.get_mut(at) {
            *n = word(parts);
        }
        OK
    })
}

/// A body field's tag as JS classifies the JSON value (`layout::FIELD_*`).
fn field<T>(tag: u32, value: impl FnOnce() -> T) -> Field<T> {
    match tag {
        layout::FIELD_ABSENT => Field::Absent,
        layout::FIELD_NULL => Field::Null,
        layout::FIELD_VALUE => Field::Value(value()),
        _ => Field::Invalid,
    }
}

/// A `sendMessage` body as JS has read it from the JSON value, with the options of the
/// call: written by JS into the head's request words (`layout::REQ_*`) before it calls
/// [`resolve`].
struct ResolveRequest {
    /// Check `chat_id` (R5).
    check_chat_id: bool,
    /// `chat_id` is a non-empty string or an integer.
    chat_ok: bool,
    /// `text`'s tag ([`field`]) and its length, the first input bytes.
    text: (u32, usize),
    /// `parse_mode`'s tag and its length, the input bytes after the text.
    mode: (u32, usize),
    /// `text_styles`' tag and the number of runs in the input numbers.
    styles: (u32, usize),
    /// The limits ([`layout::DEFAULT_LIMIT`] in a word for the default, `0` lifting the limit).
    limits: Limits,
    /// Report diagnostics.
    diagnostics: bool,
}

impl ResolveRequest {
    /// The request JS has written into the head.
    fn read() -> Self {
        let n = |k| get_head(k) as usize;
        let defaults = Limits::default();
        let limit = |k, default| match get_head(k) {
            layout::DEFAULT_LIMIT => default,
            v => v as usize,
        };
        ResolveRequest {
            check_chat_id: get_head(layout::REQ_CHECK_CHAT_ID) != 0,
            chat_ok: get_head(layout::REQ_CHAT_OK) != 0,
            text: (get_head(layout::REQ_TEXT_TAG), n(layout::REQ_TEXT_LEN)),
            mode: (get_head(layout::REQ_MODE_TAG), n(layout::REQ_MODE_LEN)),
            styles: (get_head(layout::REQ_STYLES_TAG), n(layout::REQ_N_RUNS)),
            limits: Limits {
                max_text_len: limit(layout::REQ_MAX_TEXT_LEN, defaults.max_text_len),
                max_text_styles: limit(layout::REQ_MAX_TEXT_STYLES, defaults.max_text_styles),
            },
            diagnostics: get_head(layout::REQ_DIAGNOSTICS) != 0,
        }
    }
}

/// Resolves the `sendMessage` body of the `ResolveRequest` in the head (R1–R8; R5 only
/// when asked): `text` and `parse_mode` in the input bytes, `text_styles` as [`normalize`]
/// reads runs. [`OK`] with the result (as `put_formatted` leaves it, "unchanged" meaning the
/// input text), [`ERROR`] with the error, or [`UNSUPPORTED`].
#[wasm_bindgen]
pub fn resolve() -> u32 {
    let req = ResolveRequest::read();
    with_io(|io| {
        let bytes = core::mem::take(&mut io.bytes);
        let nums = core::mem::take(&mut io.nums);
        let text = input_str(&bytes, 0, req.text.1);
        let mode = input_str(&bytes, req.text.1, req.mode.1);
        let runs = field(req.styles.0, || read_runs(&bytes, &nums, req.styles.1));
        let (limits, diagnostics) = (req.limits, req.diagnostics);
        let mut body = SendMessage {
            chat_id: if req.chat_ok {
                Field::Value(ChatId::Int(0))
            } else {
                Field::Absent
            },
            text: field(req.text.0, || text),
            parse_mode: field(req.mode.0, || mode),
            text_styles: runs,
        };
        let html = matches!(body.parse_mode, Field::Value(m) if m.eq_ignore_ascii_case("html"));
        let unsupported = html && !cfg!(feature = "html");
        if unsupported {
            // refuse what comes first in R8's order, else the mode: resolve as plain text
            body.parse_mode = Field::Absent;
            body.text_styles = Field::Absent;
        }
        let result = if req.check_chat_id {
            chatmark::resolve(&body, &limits)
        } else {
            chatmark::resolve_text(&body, &limits)
        };
        let status = match result {
            Err(e) => put_error(io, &e),
            Ok(_) if unsupported => UNSUPPORTED,
            Ok(r) => {
                put_formatted(
                    io,
                    text,
                    &r.formatted,
                    diagnostics.then_some(r.diagnostics.as_slice()),
                );
                OK
            }
        };
        drop(body);
        io.bytes = bytes;
        io.nums = nums;
        status
    })
}

/// The closed set of style codes in table order (spec 1.1), one string each, and the
/// engine's version, for the wrapper's self-check.
#[wasm_bindgen]
pub fn about() -> u32 {
    with_io(|io| {
        let Io { out, out16, .. } = io;
        put_str(out, out16, env!("CARGO_PKG_VERSION"));
        for c in StyleCode::ALL {
            put_str(out, out16, c.as_str());
        }
        OK
    })
}

/// Whether this build has HTML mode (the `chatmark` entry) or not (`chatmark/markdown`).
#[wasm_bindgen]
pub fn has_html() -> bool {
    cfg!(feature = "html")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puts `text` (and more strings) in the input bytes and `nums` in the input numbers,
    /// as the JS wrapper does through wasm memory.
    fn input(bytes: &str, nums: &[f64]) -> u32 {
        IO.with(|io| {
            let mut io = io.borrow_mut();
            io.bytes.clear();
            io.bytes.extend_from_slice(bytes.as_bytes());
            io.nums = nums.to_vec();
        });
        word(bytes.len())
    }

    /// The output words, and the UTF-16 output as a string.
    fn output() -> (Vec<u32>, Vec<u16>) {
        IO.with(|io| {
            let io = io.borrow();
            (io.out.clone(), io.out16.clone())
        })
    }

    fn s(out16: &[u16], off: u32, len: u32) -> String {
        String::from_utf16_lossy(&out16[off as usize..(off + len) as usize])
    }

    /// Writes a resolve request into the head and resolves it, as the JS wrapper does:
    /// tags and lengths of `text`, `parse_mode` and `text_styles`, and the two limits
    /// (`u32::MAX` for the default).
    fn request(
        check_chat_id: bool,
        chat_ok: bool,
        text: (u32, u32),
        mode: (u32, u32),
        styles: (u32, u32),
        limits: (u32, u32),
        diagnostics: bool,
    ) -> u32 {
        let words = [
            (layout::REQ_CHECK_CHAT_ID, u32::from(check_chat_id)),
            (layout::REQ_CHAT_OK, u32::from(chat_ok)),
            (layout::REQ_TEXT_TAG, text.0),
            (layout::REQ_TEXT_LEN, text.1),
            (layout::REQ_MODE_TAG, mode.0),
            (layout::REQ_MODE_LEN, mode.1),
            (layout::REQ_STYLES_TAG, styles.0),
            (layout::REQ_N_RUNS, styles.1),
            (layout::REQ_MAX_TEXT_LEN, limits.0),
            (layout::REQ_MAX_TEXT_STYLES, limits.1),
            (layout::REQ_DIAGNOSTICS, u32::from(diagnostics)),
        ];
        // The head is one static shared by the test threads (one thread in the wasm):
        // hold the lock from the first word written to the end of the resolve.
        static HEAD_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _held = HEAD_LOCK
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (k, v) in words {
            set_head(k, v);
        }
        resolve()
    }

    /// Puts `text` in the input units, as the JS wrapper does for markdown and HTML.
    fn input16(text: &[u16]) -> u32 {
        IO.with(|io| io.borrow_mut().units = text.to_vec());
        word(text.len())
    }

    #[test]
    fn markdown_reads_and_writes_utf16_units() {
        let units: Vec<u16> = "**a** 😀".encode_utf16().collect();
        let n = input16(&units);
        assert_eq!(parse_markdown(n, false), OK);
        let (out, out16) = output();
        // text "a 😀" (4 units), one run (0, 1, bold)
        assert_eq!(out, [4, 1, 0, 1, 1]);
        assert_eq!(s(&out16, 0, 4), "a 😀");
        // unchanged text is not copied
        let n = input16(&units[6..]);
        assert_eq!(parse_markdown(n, false), OK);
        assert_eq!(output().0, [u32::MAX, 0]);
        // a lone surrogate is replaced (L2), so the text is no longer the input
        let n = input16(&[0x61, 0xd800]);
        assert_eq!(parse_markdown(n, false), OK);
        let (out, out16) = output();
        assert_eq!(out, [2, 0]);
        assert_eq!(out16, [0x61, 0xfffd]);
        // diagnostics follow the text in the units
        let units: Vec<u16> = "é {red}x".encode_utf16().collect();
        let n = input16(&units);
        assert_eq!(parse_markdown(n, true), OK);
        let (out, out16) = output();
        assert_eq!(&out[..3], [u32::MAX, 0, 1]);
        assert_eq!(s(&out16, out[3], out[4]), "unclosed_tag");
        assert_eq!(&out[5..7], [2, 5]);
        assert!(s(&out16, out[7], out[8]).contains("never closed"));
    }

    #[cfg(feature = "html")]
    #[test]
    fn html_reads_and_writes_utf16_units_h1() {
        let units: Vec<u16> = "<b>é</b> &amp; 😀".encode_utf16().collect();
        let n = input16(&units);
        assert_eq!(parse_html(n, false), OK);
        let (out, out16) = output();
        // text "é & 😀" (6 units), one run (0, 1, bold)
        assert_eq!(out, [6, 1, 0, 1, 1]);
        assert_eq!(s(&out16, 0, 6), "é & 😀");
        let n = input16(&units[8..]);
        assert_eq!(parse_html(n, true), OK);
        assert_eq!(output().0, [5, 0, 0]);
        let n = input16(&[0x61]);
        assert_eq!(parse_html(n, false), OK);
        assert_eq!(output().0, [u32::MAX, 0]);
    }

    #[test]
    fn normalize_reads_numbers_lists_and_comma_strings_n1_n2() {
        // "abcd" then the code strings "i, b" (bytes 4..8) and "zz" (8..10)
        let nums = [
            0.0,
            2.0,
            2.0,
            1.0,
            4.0,
            4.0, // start 0, len 2, st "i, b"
            1.0,
            9.5,
            1.0,
            1.0,
            8.0,
            2.0, // len not integral: dropped
            f64::NAN,
            1.0,
            0.0,
            0.0, // no start, no st
        ];
        input("abcdi, bzz", &nums);
        assert_eq!(normalize(4, 3, true), OK);
        let (out, _) = output();
        assert_eq!(&out[..4], [1, 0, 2, 0b11]);
        assert_eq!(out[4], 2, "two runs dropped");
    }

    #[test]
    fn resolve_refuses_in_r8_order() {
        let text = "x".repeat(5);
        let n = input(&text, &[]);
        assert_eq!(
            request(
                true,
                false,
                (3, n),
                (0, 0),
                (0, 0),
                (u32::MAX, u32::MAX),
                false
            ),
            ERROR
        );
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "missing_chat_id");
        assert_eq!(s(&out16, out[2], out[3]), "chat_id");
        assert_eq!(
            request(false, false, (3, n), (0, 0), (0, 0), (3, u32::MAX), false),
            ERROR
        );
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "text_too_long");
        assert_eq!(
            request(false, false, (3, n), (0, 0), (0, 0), (0, u32::MAX), false),
            OK
        );
        assert_eq!(output().0, [u32::MAX, 0]);
        assert_eq!(
            request(
                false,
                false,
                (1, 0),
                (0, 0),
                (0, 0),
                (u32::MAX, u32::MAX),
                false
            ),
            ERROR
        );
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "missing_text");
    }

    #[test]
    fn resolve_reads_the_mode_after_the_text_r2() {
        let n = input("<b>x</b>HTML", &[]);
        let status = request(
            false,
            false,
            (3, n - 4),
            (3, 4),
            (0, 0),
            (u32::MAX, u32::MAX),
            false,
        );
        if cfg!(feature = "html") {
            assert_eq!(status, OK);
            assert_eq!(output().0, [1, 1, 0, 1, 1]);
        } else {
            assert_eq!(status, UNSUPPORTED);
        }
        // text_empty comes before the mode, in either build
        let n = input("html", &[]);
        assert_eq!(
            request(
                false,
                false,
                (3, 0),
                (3, n),
                (0, 0),
                (u32::MAX, u32::MAX),
                false
            ),
            ERROR
        );
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "text_empty");
    }

    #[test]
    fn renders_html_w1() {
        let n = input("a <b>b", &[0.0, 1.0, 1.0, 1.0, 5.0, 1.0]);
        assert_eq!(render_html(n - 1, 1), OK);
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "<b>a</b> &lt;b&gt;");
    }

    #[cfg(feature = "html")]
    #[test]
    fn renders_markdown_w2() {
        let n = input("abf_13", &[1.0, 1.0, 1.0, 1.0, 2.0, 4.0]);
        assert_eq!(render_markdown(n - 4, 1), OK);
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), "ab");
        assert_eq!(&out[2..6], [0, 1, 1, 1]);
        assert_eq!(s(&out16, out[6], out[7]), "code");
        assert_eq!(s(&out16, out[8], out[9]), "f_13");
    }

    #[test]
    fn split_writes_each_part_and_its_runs_s1_s4() {
        // "ab cd" with a bold run over "b c" (start 1, len 3, st "b")
        let n = input("b", &[1.0, 3.0, 1.0, 1.0, 0.0, 1.0]);
        assert_eq!(n, 1);
        let units: Vec<u16> = "ab cd".encode_utf16().collect();
        let len = input16(&units);
        assert_eq!(split(len, 1, 2), OK);
        let (out, out16) = output();
        // two parts: "ab" with (1, 1, bold), "cd" with (0, 1, bold)
        assert_eq!(out, [2, 2, 1, 1, 1, 1, 2, 1, 0, 1, 1]);
        assert_eq!(s(&out16, 0, 4), "abcd");
        // a lone surrogate is one U+FFFD (L2); a limit below 2 (which the package refuses
        // before it calls, S1) reads as 2
        let len = input16(&[0x61, 0xd800]);
        assert_eq!(split(len, 0, 2), OK);
        assert_eq!(output().1, [0x61, 0xfffd]);
        assert_eq!(split(len, 0, 1), OK);
        assert_eq!(output().0, [1, 2, 0]);
    }

    #[test]
    fn about_says_version_and_codes() {
        assert_eq!(about(), OK);
        let (out, out16) = output();
        assert_eq!(s(&out16, out[0], out[1]), env!("CARGO_PKG_VERSION"));
        assert_eq!(out.len(), 2 * 21);
        assert_eq!(s(&out16, out[2], out[3]), "b");
        assert_eq!(has_html(), cfg!(feature = "html"));
    }
}
