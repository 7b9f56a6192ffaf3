//! Markdown mode (spec section 2: P1–P4, F1–F3, I1–I7) over a UTF-8 or UTF-16 source
//! ([`Source`]), in one pass over the message. The scan ([`scan`]) reads each line's start
//! and then its inline constructs up to the line break, matching delimiter runs online
//! (I4–I6, [`emphasis`]) and pairing tags (I3) as it goes, and reports each construct to a
//! sink ([`sink`]). Natively the sink is the writer ([`direct`], [`emit`]): the text and
//! runs are written as the constructs are read, on a guess about the openers not yet
//! closed that is checked when the message ends. When the guess was wrong, and always in
//! the npm package's wasm, the sink is [`marks::Marks`], one mark per unit range that is
//! not plain text, and a walk over them writes the text and runs ([`emit`]). All of it is
//! generic over the code unit, so each encoding gets its own code. Nothing recurses and
//! all is linear in the input (L1). A message with no unit that can begin a construct
//! skips them ([`plain`]).
//!
//! One file per concern: `syntax` (the byte classes), `lines` (line starts), `inline`
//! (flanking, tag names, code-span closers), `chars` and `unicode` (I4's character
//! classes), `emphasis` (the matcher), `scan`, `sink`, `marks`, `direct`, `emit`.

pub(crate) mod chars;
#[cfg(not(target_arch = "wasm32"))]
mod direct;
mod emit;
mod emphasis;
mod inline;
mod lines;
mod marks;
mod plain;
mod scan;
mod sink;
pub(crate) mod syntax;
mod unicode;

use crate::builder::RunBuilder;
use crate::diagnostics::{to_diagnostics, Note};
use crate::text::source::{well_formed, Source, TypedSource};
use crate::vocab::style::INLINE_SLOTS;
use crate::{Diagnostic, Formatted, FormattedUtf16};
#[cfg(not(target_arch = "wasm32"))]
use emit::Utf8Out;
use emit::{Emit, Output, Utf16Out};
use emphasis::Matcher;
use marks::Marks;
use scan::{Heads, Scan, NO_HEADS};

/// Parses `input` in markdown mode (spec section 2). Never fails: bad markup is text.
///
/// # Examples
///
/// ```
/// let f = chatmark::parse_markdown("- **Hello** {red}world{/red}");
/// assert_eq!(f.text, "Hello world");
/// let codes: Vec<Vec<&str>> = f
///     .text_styles
///     .iter()
///     .map(|r| r.st.iter().map(|c| c.as_str()).collect())
///     .collect();
/// assert_eq!(codes, [vec!["b", "lst_1"], vec!["lst_1"], vec!["c_db342e", "lst_1"]]);
/// ```
pub fn parse_markdown(input: &str) -> Formatted {
    #[cfg(target_arch = "wasm32")]
    return parse_markdown_utf16(&input.encode_utf16().collect::<Vec<u16>>()).to_formatted();
    #[cfg(not(target_arch = "wasm32"))]
    parse_utf8(input, false).0
}

/// Parses `input` in markdown mode and also returns diagnostics (unmatched tags, L3) with
/// positions in UTF-16 units of `input`.
///
/// # Examples
///
/// ```
/// let (f, diags) = chatmark::parse_markdown_with_diagnostics("x{/red}");
/// assert_eq!(f.text, "x{/red}");
/// assert_eq!(diags[0].code.as_str(), "unmatched_closing_tag");
/// assert_eq!((diags[0].start, diags[0].len), (1, 6));
/// ```
pub fn parse_markdown_with_diagnostics(input: &str) -> (Formatted, Vec<Diagnostic>) {
    #[cfg(target_arch = "wasm32")]
    {
        // The npm package holds one copy of the parser, the UTF-16 one (its strings are
        // UTF-16); UTF-8 input (a resolved JSON body) is read through it. Diagnostics
        // count UTF-16 units either way (L3).
        let units: Vec<u16> = input.encode_utf16().collect();
        let (f, diagnostics) = parse_markdown_utf16_with_diagnostics(&units);
        (f.to_formatted(), diagnostics)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let (f, notes) = parse_utf8(input, true);
        (f, to_diagnostics(Source::Utf8(input), notes))
    }
}

/// [`parse`] of UTF-8 `input` into a new result, natively (the wasm reads UTF-8 through
/// the UTF-16 parser).
#[cfg(not(target_arch = "wasm32"))]
fn parse_utf8(input: &str, notes: bool) -> (Formatted, Vec<Note>) {
    let (mut text, mut runs) = (String::with_capacity(input.len()), RunBuilder::default());
    let found = parse(
        input,
        Utf8Out {
            src: input,
            text: &mut text,
        },
        &mut runs,
        notes,
    );
    let f = Formatted {
        text,
        text_styles: runs.finish(),
    };
    (f, found)
}

/// Parses UTF-16 `input` in markdown mode, the text written as UTF-16 too: for hosts whose
/// strings are UTF-16 (JavaScript, Java, C#), which then never transcode. The same parser
/// as [`parse_markdown`], with the same result; a lone surrogate reads as U+FFFD, one unit
/// for one (L2).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "**hé** 😀".encode_utf16().collect();
/// let f = chatmark::parse_markdown_utf16(&input);
/// assert_eq!(String::from_utf16(&f.text).unwrap(), "hé 😀");
/// assert_eq!((f.text_styles[0].start, f.text_styles[0].len), (0, 2));
/// assert_eq!(f.to_formatted(), chatmark::parse_markdown("**hé** 😀"));
/// ```
pub fn parse_markdown_utf16(input: &[u16]) -> FormattedUtf16 {
    let mut out = FormattedUtf16::default();
    parse_markdown_utf16_into(input, &mut out);
    out
}

/// [`parse_markdown_utf16`] into `out`, replacing what it held but reusing its buffers, so
/// that a caller parsing message after message allocates nothing once they have grown.
///
/// # Examples
///
/// ```
/// let mut out = chatmark::FormattedUtf16::default();
/// for s in ["*a*", "b"] {
///     let input: Vec<u16> = s.encode_utf16().collect();
///     chatmark::parse_markdown_utf16_into(&input, &mut out);
/// }
/// assert_eq!(out.text, [u16::from(b'b')]);
/// assert!(out.text_styles.is_empty());
/// ```
pub fn parse_markdown_utf16_into(input: &[u16], out: &mut FormattedUtf16) {
    parse_utf16(&well_formed(input), out, false);
}

/// [`parse_markdown_utf16`] with the diagnostics too, positions in units of `input` (L3).
///
/// # Examples
///
/// ```
/// let input: Vec<u16> = "😀{red}x".encode_utf16().collect();
/// let (f, diags) = chatmark::parse_markdown_utf16_with_diagnostics(&input);
/// assert_eq!(f.text, input);
/// assert_eq!((diags[0].start, diags[0].len), (2, 5));
/// ```
pub fn parse_markdown_utf16_with_diagnostics(input: &[u16]) -> (FormattedUtf16, Vec<Diagnostic>) {
    let input = well_formed(input);
    let mut out = FormattedUtf16::default();
    let notes = parse_utf16(&input, &mut out, true);
    (out, to_diagnostics(Source::Utf16(&input), notes))
}

/// [`parse`] of well-formed UTF-16 `input` into `out`, replacing what it held but reusing
/// its buffers.
fn parse_utf16(input: &[u16], out: &mut FormattedUtf16, notes: bool) -> Vec<Note> {
    out.text.clear();
    out.text.reserve(input.len());
    let mut runs = RunBuilder::reusing(core::mem::take(&mut out.text_styles));
    let text = Utf16Out {
        src: input,
        text: &mut out.text,
    };
    let found = parse(input, text, &mut runs, notes);
    runs.finish_into(&mut out.text_styles);
    found
}

/// The parser's working buffers, kept per thread and reused across calls so that a
/// message costs no allocation beyond its result once the buffers have grown.
struct Scratch {
    /// The markup found, in source order.
    marks: Marks,
    /// The emphasis matcher of the current paragraph.
    matcher: Matcher,
    /// The last unpaired opening tag per tag and spelling (I3), none between messages.
    heads: Heads,
    /// The backtick runs of the current paragraph (I1).
    ticks: Vec<u64>,
    /// The output walk's open matched tags (mark, code bits), per inline slot, below the
    /// innermost one.
    slots: [Vec<(u32, u32)>; INLINE_SLOTS],
    /// The one pass's opening tags ([`direct::Openers`]).
    openers: Vec<u32>,
    /// The runs of a chat-sized message's one pass, before they move to the result.
    #[cfg(not(target_arch = "wasm32"))]
    runs: Vec<crate::TextStyle>,
}

impl Default for Scratch {
    fn default() -> Self {
        Self::NEW
    }
}

impl Scratch {
    /// Entries a buffer keeps between calls; a larger one (after a huge message) shrinks.
    const KEEP: usize = 1 << 12;

    /// Empty buffers, as a constant: the thread-local needs no lazy initialisation code.
    const NEW: Self = Self {
        marks: Marks::NEW,
        matcher: Matcher::NEW,
        heads: NO_HEADS,
        ticks: Vec::new(),
        slots: [const { Vec::new() }; INLINE_SLOTS],
        openers: Vec::new(),
        #[cfg(not(target_arch = "wasm32"))]
        runs: Vec::new(),
    };

    /// Empties what a message of `units` units used. Only after a message of over half [`Scratch::KEEP`] units are the buffers
    /// trimmed: a buffer holds at most about an entry per unit (two marks per tag of three
    /// units or more, two per line with codes), so a shorter message grows none past
    /// [`Scratch::KEEP`], and the capacity tests are skipped for it.
    #[inline(always)]
    fn reset(&mut self, units: usize) {
        self.marks.clear();
        self.matcher.reset();
        self.ticks.clear();
        self.slots.iter_mut().for_each(Vec::clear);
        self.openers.clear();
        if units > Self::KEEP / 2 {
            self.marks.shrink_to(Self::KEEP);
            self.matcher.shrink_to(Self::KEEP);
            self.ticks.shrink_to(Self::KEEP);
            self.openers.shrink_to(Self::KEEP);
            for slot in &mut self.slots {
                slot.shrink_to(Self::KEEP);
            }
        }
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const { core::cell::RefCell::new(Scratch::NEW) };
}

/// Parses `src` into its own encoding's `out` and `runs`, with this thread's scratch
/// buffers (fresh ones if they are in use); diagnostics are collected only when `notes`
/// is asked for. A plain message (I7) is copied whole, with no run.
fn parse<'a, T: TypedSource<'a>, O: Output>(
    src: T,
    mut out: O,
    runs: &mut RunBuilder,
    notes: bool,
) -> Vec<Note> {
    let n = src.units().len();
    // Marks hold 32-bit positions: a message past 4 GiB (far beyond any limit) stays text.
    if plain::is_plain(src.source()) || u32::try_from(n).is_err() {
        out.push(0, n);
        return Vec::new();
    }
    let mut found = Vec::new();
    crate::builder::with_scratch(&SCRATCH, |scratch: &mut Scratch| {
        found = one_pass(src, out, runs, scratch, notes);
        scratch.reset(n);
    });
    found
}

/// The one pass of `src` writing `out` and `runs` ([`direct`]); if its guess was wrong, the
/// scan into marks and the walk ([`by_marks`]). The npm package's wasm holds only the
/// latter: both would not fit its size budget (issue 14).
#[cfg(not(target_arch = "wasm32"))]
fn one_pass<'a, T: TypedSource<'a>, O: Output>(
    src: T,
    out: O,
    runs: &mut RunBuilder,
    s: &mut Scratch,
    want_notes: bool,
) -> Vec<Note> {
    use direct::Direct;
    use marks::CHAT_SIZE;
    // a chat-sized message's runs are written into the scratch, then copied at their size
    let spare = src.units().len() <= CHAT_SIZE && runs.borrow_spare(&mut s.runs);
    let mut direct = Direct::new(src, out, runs, &mut s.slots, want_notes, &mut s.openers);
    Scan::new(&mut direct, &mut s.matcher, &mut s.ticks, &mut s.heads).run(src);
    let found = match direct.finish() {
        Some(notes) => notes,
        None => {
            let mut out = direct.emit.out;
            out.clear();
            runs.clear();
            s.reset(0);
            by_marks(src, out, runs, s, want_notes)
        }
    };
    if spare {
        runs.settle(&mut s.runs);
    }
    found
}

#[cfg(target_arch = "wasm32")]
fn one_pass<'a, T: TypedSource<'a>, O: Output>(
    src: T,
    out: O,
    runs: &mut RunBuilder,
    s: &mut Scratch,
    want_notes: bool,
) -> Vec<Note> {
    by_marks(src, out, runs, s, want_notes)
}

/// The scan of `src` into the scratch marks, then the walk writing `out` and `runs`.
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn by_marks<'a, T: TypedSource<'a>, O: Output>(
    src: T,
    out: O,
    runs: &mut RunBuilder,
    s: &mut Scratch,
    want_notes: bool,
) -> Vec<Note> {
    Scan::new(&mut s.marks, &mut s.matcher, &mut s.ticks, &mut s.heads).run(src);
    runs.reserve(s.marks.runs_bound(src.units().len()));
    Emit::<O, false>::new(out, runs, &mut s.slots, want_notes).walk(src, &mut s.marks)
}

#[cfg(test)]
impl Scratch {
    /// The largest capacity of any buffer, in entries.
    fn largest(&self) -> usize {
        let slots = self.slots.iter().map(Vec::capacity);
        [
            self.marks.largest(),
            self.matcher.capacity(),
            self.ticks.capacity(),
            self.openers.capacity(),
            self.runs.capacity(),
        ]
        .into_iter()
        .chain(slots)
        .fold(0, usize::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-thread buffers hold at most [`Scratch::KEEP`] entries between calls, however
    /// long the last message was (the memory figures' bound holds on any thread).
    #[test]
    fn scratch_stays_within_its_bound_between_messages() {
        // (a test runs on a thread of its own: the buffers start empty)
        let largest = || SCRATCH.with(|s| s.borrow().largest());
        // a mark per unit or so: delimiter runs, tags, escapes and lines with codes
        let dense = "*a* {red}b{/red} \\* ~~c~~ *d\n- e\n".repeat(200);
        let short = &dense[..Scratch::KEEP / 2];
        let _ = parse_markdown(short);
        assert!(largest() <= Scratch::KEEP, "{}", largest());
        assert!(
            largest() >= Scratch::KEEP / 16,
            "the marks were not kept: {}",
            largest()
        );
        let long = dense.repeat(8);
        assert!(long.len() > 4 * Scratch::KEEP);
        let _ = parse_markdown(&long);
        assert!(largest() <= Scratch::KEEP, "{}", largest());
    }

    /// The runs and diagnostics of one path of [`one_pass`] (`direct`) or [`by_marks`], the
    /// text being left in the output's buffer.
    fn one_path<'a, T: TypedSource<'a>, O: Output>(
        src: T,
        out: O,
        direct: bool,
        notes: bool,
    ) -> (Vec<crate::TextStyle>, String) {
        let (mut runs, mut s) = (RunBuilder::default(), Scratch::default());
        let found = if direct {
            one_pass(src, out, &mut runs, &mut s, notes)
        } else {
            by_marks(src, out, &mut runs, &mut s, notes)
        };
        (runs.finish(), format!("{found:?}"))
    }

    /// Pieces of text between pairs: non-ASCII text in long stretches, code spans (the one
    /// pass's writer knows its UTF-16 length from the scan's count of them, C5), escapes.
    const WORDS: [&str; 13] = [
        "a",
        "word",
        "é",
        "😀",
        " ",
        ", ",
        ". ",
        " `a*b` ",
        " \\* ",
        "x_y",
        " `é😀` ",
        " `é\n😀 x` ",
        "chào bạn đặc biệt 😀 đơn",
    ];

    /// Line breaks into lines with prefixes, blank lines and fences (P1–P4, F1).
    const BREAKS: [&str; 9] = [
        "\n",
        "\n- ",
        "\n1. ",
        "\n> ",
        "\n# ",
        "\n\n",
        "\r\n",
        "\n```\nz\n```\n",
        "\n```é\n😀 é\n```\n",
    ];

    /// A random opener and its closer: a tag of any slot and spelling (I3), or delimiters
    /// (`*` `**` `***` `_` `__` `~~`, and the split openers of I4).
    fn pair(rng: &mut crate::rng::Rng) -> (String, String) {
        let t = rng.pick(&["red", "orange", "yellow", "green", "big", "underline"]);
        let (a, b) = match rng.below(12) {
            0 => return (format!("{{{t}}}"), format!("{{/{t}}}")),
            1 => return (format!("<{t}>"), format!("</{t}>")),
            2 => ("*", "*"),
            3 => ("**", "**"),
            4 => ("***", "***"),
            5 => ("_", "_"),
            6 => ("__", "__"),
            7 => ("~~", "~~"),
            8 => ("***", "*"),
            9 => ("***", "**"),
            10 => ("**", "*"),
            _ => ("****", "**"),
        };
        (a.into(), b.into())
    }

    /// A random message of balanced pairs, crossed or left open one time in ten, on lines
    /// with prefixes, code spans and escapes.
    fn message(rng: &mut crate::rng::Rng) -> String {
        let mut m = String::new();
        let mut open: Vec<String> = Vec::new();
        for _ in 0..rng.below(24) {
            match rng.below(10) {
                0..=2 => {
                    let (a, b) = pair(rng);
                    m += &a;
                    m += rng.pick(&WORDS[..4]);
                    open.push(b);
                }
                3..=5 if !open.is_empty() => {
                    let i = if rng.below(10) == 0 {
                        rng.below(open.len())
                    } else {
                        open.len() - 1
                    };
                    m += rng.pick(&WORDS[..4]);
                    m += &open.remove(i);
                }
                6 => m += rng.pick(&BREAKS),
                _ => m += rng.pick(&WORDS),
            }
        }
        while !open.is_empty() && rng.below(10) != 0 {
            m += "z";
            m += &open.pop().unwrap_or_default();
        }
        m
    }

    /// Whether the one pass's guess holds for `m`.
    fn guess_holds(m: &str) -> bool {
        let mut s = Scratch::default();
        let (mut text, mut runs) = (String::new(), RunBuilder::default());
        let out = Utf8Out {
            src: m,
            text: &mut text,
        };
        let mut d = direct::Direct::new(m, out, &mut runs, &mut s.slots, false, &mut s.openers);
        Scan::new(&mut d, &mut s.matcher, &mut s.ticks, &mut s.heads).run(m);
        d.finish().is_some()
    }

    /// Both paths of [`one_pass`] write the same text, runs and diagnostics: the one pass
    /// when its guess holds, and the marks and walk ([`by_marks`]) it falls back to, over
    /// random messages ([`message`]) in both encodings (I3–I5, P1–P4); both paths are
    /// taken often.
    #[test]
    fn the_one_pass_writes_what_the_walk_writes() {
        let mut rng = crate::rng::Rng(0x9E37_79B9_7F4A_7C15);
        let (mut guessed, total) = (0, 20_000);
        for k in 0..total {
            let m = message(&mut rng);
            let notes = k % 2 == 0;
            let utf8 = |direct| {
                let mut text = String::new();
                let out = Utf8Out {
                    src: &m,
                    text: &mut text,
                };
                let written = one_path(m.as_str(), out, direct, notes);
                (text, written)
            };
            assert_eq!(utf8(true), utf8(false), "{m:?}");
            let units: Vec<u16> = m.encode_utf16().collect();
            let utf16 = |direct| {
                let mut text = Vec::new();
                let src = units.as_slice();
                let written = one_path(
                    src,
                    Utf16Out {
                        src,
                        text: &mut text,
                    },
                    direct,
                    notes,
                );
                (text, written)
            };
            assert_eq!(utf16(true), utf16(false), "{m:?}");
            guessed += usize::from(guess_holds(&m));
        }
        assert!(
            guessed > total / 5 && guessed < total * 9 / 10,
            "{guessed} of {total}"
        );
    }
}
