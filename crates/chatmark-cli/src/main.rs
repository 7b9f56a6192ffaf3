//! The `chatmark` command: formats one message from the shell, or speaks the JSONL
//! conformance contract (`--jsonl`: one sendMessage-like body per stdin line, one result or
//! error per stdout line, in order, flushed per line). Exit 0 on success, 2 on a usage error,
//! 3 on a refused message.
//!
//! `chatmark render --to html|markdown [--jsonl]` renders back (spec W1, W2): it reads
//! `{"text","text_styles"}` (normalised by section 4 first) from stdin — one JSON document,
//! or with `--jsonl` one per line — and prints the markup. It is recognised as the first
//! argument only, so `chatmark 'some text'` is unchanged; `chatmark -- render` formats the
//! word "render".

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

use chatmark::{
    json_value_from_str, resolve_json, resolve_text, Field, Formatted, Limits, Markdown, ParseMode,
    ResolveError, Resolved, SendMessage,
};
use clap::{Parser, ValueEnum};
use serde::Serialize;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Mode {
    Markdown,
    Html,
    Plain,
}

/// Format a chat message into plain text plus UTF-16 style runs.
#[derive(Debug, Parser)]
#[command(name = "chatmark", version, about, long_about = None)]
struct Cli {
    /// How to read the text.
    #[arg(long, value_enum, default_value_t = Mode::Markdown)]
    mode: Mode,
    /// Pretty-print the JSON.
    #[arg(long)]
    pretty: bool,
    /// Draw each run under the text it covers.
    #[arg(long)]
    explain: bool,
    /// Add diagnostics (what was ignored or changed) to the output.
    #[arg(long)]
    diagnostics: bool,
    /// Text limit in UTF-16 units (0: none).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_text_len)]
    max_len: usize,
    /// JSONL contract: each stdin line is a body {"text","parse_mode"?,"text_styles"?}.
    #[arg(long, conflicts_with_all = ["explain"])]
    jsonl: bool,
    /// The message; read from stdin when absent or `-` (one final newline dropped). May start
    /// with `-` (`- item`).
    #[arg(allow_hyphen_values = true)]
    text: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    Html,
    Markdown,
}

/// Render a message `{"text","text_styles"}` from stdin back to markup (spec W1, W2).
///
/// Output with --jsonl, one line per input line: {"html": …}, or {"markdown": …, "lossless":
/// bool, "unexpressed": [{"start","len","what","code"?}]} (positions in UTF-16 units of
/// the text; what is code, leading_spaces, partial_line_codes, placement or text), or
/// {"error": {code, field, message}}.
#[derive(Debug, Parser)]
#[command(name = "chatmark render", bin_name = "chatmark render", version, long_about = None)]
struct RenderCli {
    /// The markup to write.
    #[arg(long, value_enum)]
    to: Target,
    /// One JSON body per stdin line, one JSON result per stdout line.
    #[arg(long)]
    jsonl: bool,
}

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    let program = args.next().unwrap_or_else(|| "chatmark".into());
    let rest: Vec<std::ffi::OsString> = args.collect();
    if rest.first().is_some_and(|a| a == "render") {
        let cli = RenderCli::parse_from(std::iter::once(program).chain(rest.into_iter().skip(1)));
        return match render(&cli) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("chatmark: {e}");
                ExitCode::from(1)
            }
        };
    }
    let cli = Cli::parse_from(std::iter::once(program).chain(rest));
    let limits = Limits {
        max_text_len: cli.max_len,
        ..Limits::default()
    };
    let result = if cli.jsonl {
        jsonl(&cli, &limits)
    } else {
        single(&cli, &limits)
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("chatmark: {e}");
            ExitCode::from(1)
        }
    }
}

/// One result line, fields in wire order.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer<'a> {
    Formatted {
        #[serde(flatten)]
        formatted: &'a Formatted,
        #[serde(skip_serializing_if = "Option::is_none")]
        diagnostics: Option<&'a [chatmark::Diagnostic]>,
    },
    Error {
        error: &'a ResolveError,
    },
}

fn output<'a>(
    formatted: &'a Formatted,
    diagnostics: Option<&'a [chatmark::Diagnostic]>,
) -> Answer<'a> {
    Answer::Formatted {
        formatted,
        diagnostics,
    }
}

fn print(out: &mut impl Write, v: &Answer<'_>, pretty: bool) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, v)?;
    } else {
        serde_json::to_writer(&mut *out, v)?;
    }
    writeln!(out)?;
    out.flush()
}

fn single(cli: &Cli, limits: &Limits) -> io::Result<ExitCode> {
    let text = match cli.text.as_deref() {
        Some(t) if t != "-" => t.to_owned(),
        _ => {
            let mut buf = Vec::new();
            io::stdin().read_to_end(&mut buf)?;
            // `echo text | chatmark`: the shell's final newline is not part of the message.
            let mut text = String::from_utf8_lossy(&buf).into_owned();
            if text.ends_with('\n') {
                text.pop();
                if text.ends_with('\r') {
                    text.pop();
                }
            }
            text
        }
    };
    let mode = match cli.mode {
        Mode::Markdown => Field::Value(ParseMode::Markdown.as_str()),
        Mode::Html => Field::Value(ParseMode::Html.as_str()),
        Mode::Plain => Field::Absent,
    };
    let body = SendMessage {
        text: Field::Value(&text),
        parse_mode: mode,
        ..SendMessage::default()
    };
    match resolve_text(&body, limits) {
        Ok(r) => {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            if cli.explain {
                explain(&mut out, &r)?;
            }
            let diags = cli.diagnostics.then_some(r.diagnostics.as_slice());
            print(&mut out, &output(&r.formatted, diags), cli.pretty)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("chatmark: {} ({}): {}", e.code, e.field, e.message);
            Ok(ExitCode::from(3))
        }
    }
}

/// Draws the text (line breaks as `⏎`) and, under it, one line per run.
fn explain(out: &mut impl Write, r: &Resolved) -> io::Result<()> {
    let text = &r.formatted.text;
    // Column (in characters) of each UTF-16 offset: one walk over the text.
    let mut col_of_unit = Vec::with_capacity(text.len() + 1);
    let mut shown = String::with_capacity(text.len());
    for (col, c) in text.chars().enumerate() {
        for _ in 0..c.len_utf16() {
            col_of_unit.push(col);
        }
        shown.push(match c {
            '\n' => '⏎',
            '\r' => '␍',
            '\t' => '→',
            c => c,
        });
    }
    let end_col = text.chars().count();
    col_of_unit.push(end_col);
    writeln!(out, "{shown}")?;
    for run in &r.formatted.text_styles {
        let from = col_of_unit.get(run.start).copied().unwrap_or(end_col);
        let to = col_of_unit.get(run.end()).copied().unwrap_or(end_col);
        let codes: Vec<&str> = run.st.iter().map(|c| c.as_str()).collect();
        writeln!(
            out,
            "{}{} {}",
            " ".repeat(from),
            "^".repeat(to.saturating_sub(from).max(1)),
            codes.join(" ")
        )?;
    }
    for d in &r.diagnostics {
        writeln!(
            out,
            "note: {} at {}+{}: {}",
            d.code.as_str(),
            d.start,
            d.len,
            d.message
        )?;
    }
    Ok(())
}

fn jsonl(cli: &Cli, limits: &Limits) -> io::Result<ExitCode> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for_each_line(&mut input, |text| {
        let resolved =
            json_value_from_str(text, "body").and_then(|body| resolve_json(&body, limits, false));
        let answer = match &resolved {
            Ok(r) => output(
                &r.formatted,
                cli.diagnostics.then_some(r.diagnostics.as_slice()),
            ),
            Err(error) => Answer::Error { error },
        };
        print(&mut out, &answer, false)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Calls `f` with each line of `input` (read lossily as UTF-8, L2; `\n` or `\r\n` removed),
/// in order, until the input ends or `f` fails.
fn for_each_line(
    input: &mut impl BufRead,
    mut f: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        f(text.strip_suffix('\r').unwrap_or(text))?;
    }
}

/// Reads a render body: `text` (a string) and optional `text_styles`, normalised (N1–N6).
fn render_input(line: &str) -> Result<Formatted, ResolveError> {
    Formatted::from_json(&json_value_from_str(line, "body")?)
}

#[derive(Serialize)]
#[serde(untagged)]
enum Rendered<'a> {
    Html { html: String },
    Markdown(Markdown),
    Error { error: &'a ResolveError },
}

fn rendered(f: &Formatted, to: Target) -> Rendered<'static> {
    match to {
        Target::Html => Rendered::Html { html: f.to_html() },
        Target::Markdown => Rendered::Markdown(f.to_markdown()),
    }
}

fn render(cli: &RenderCli) -> io::Result<ExitCode> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if !cli.jsonl {
        let mut buf = Vec::new();
        input.read_to_end(&mut buf)?;
        let doc = String::from_utf8_lossy(&buf);
        return match render_input(&doc) {
            Ok(f) => {
                match rendered(&f, cli.to) {
                    Rendered::Html { html } => writeln!(out, "{html}")?,
                    Rendered::Markdown(md) => {
                        writeln!(out, "{}", md.text)?;
                        for u in &md.unexpressed {
                            eprintln!(
                                "note: not expressed at {}+{}: {}{}",
                                u.start,
                                u.len,
                                u.what.as_str(),
                                u.what.code().map(|c| format!(" {c}")).unwrap_or_default()
                            );
                        }
                    }
                    Rendered::Error { .. } => {}
                }
                out.flush()?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("chatmark: {} ({}): {}", e.code, e.field, e.message);
                Ok(ExitCode::from(3))
            }
        };
    }
    for_each_line(&mut input, |text| {
        let answer = render_input(text);
        let v = match &answer {
            Ok(f) => rendered(f, cli.to),
            Err(error) => Rendered::Error { error },
        };
        serde_json::to_writer(&mut out, &v)?;
        writeln!(out)?;
        out.flush()
    })?;
    Ok(ExitCode::SUCCESS)
}
