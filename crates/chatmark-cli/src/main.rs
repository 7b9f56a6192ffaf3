//! The `chatmark` command: formats one message from the shell, or speaks the JSONL
//! conformance contract (`--jsonl`: one sendMessage-like body per stdin line, one result or
//! error per stdout line, in order, flushed per line). Exit 0 on success, 2 on a usage error,
//! 3 on a refused message. Options may come before or after the message (`chatmark '**x**'
//! --pretty`); `--` ends them, so a message that starts with `--` goes after it.
//!
//! `chatmark render --to html|markdown [--jsonl]` renders back (spec W1, W2): it reads
//! `{"text","text_styles"}` (normalised by section 4 first) from stdin — one JSON document,
//! or with `--jsonl` one per line — and prints the markup. It is recognised as the first
//! argument only, so `chatmark 'some text'` is unchanged; `chatmark -- render` formats the
//! word "render" (and `import`, below, likewise).
//!
//! `chatmark import [--jsonl] [FILE…]` reads CommonMark (spec section 9): one document, or
//! with `--jsonl` one `{"text"}` body per line, answered `{"text","text_styles"}` or
//! `{"error"}` per line. `chatmark --mode commonmark TEXT` does the same for one message.
//! Neither applies the text limit (M11): pipe the results to `chatmark split --jsonl`.
//!
//! `chatmark split [--max-len N] [--mode M] [TEXT]` formats a message (without R1's length
//! limit) and splits it into parts of at most N UTF-16 units (spec section 8), printed as a
//! JSON array of `{"text","text_styles"}`; `--explain` draws each part first. With `--jsonl`
//! it reads one body `{"text","parse_mode"?,"text_styles"?,"limit"?}` per line and answers
//! `{"parts":[…]}` or `{"error":…}` per line.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use chatmark::{
    resolve_json, resolve_text, split_json, Answer, Diagnostic, ErrorCode, Field, Formatted,
    Limits, ParseMode, SendMessage,
};
use clap::{CommandFactory, Parser, ValueEnum};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Mode {
    Markdown,
    Html,
    Plain,
    /// CommonMark with GitHub's tables, strikethrough and task lists, imported (spec
    /// section 9; no text limit).
    Commonmark,
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
    /// JSONL contract: each input line is a body {"text","parse_mode"?,"text_styles"?}.
    #[arg(long, conflicts_with_all = ["explain"])]
    jsonl: bool,
    /// The message; read from stdin when absent or `-` (one final newline dropped). Options may
    /// come before or after it. It may start with `-` (`- item`); put it after `--` when it
    /// starts with `--`. With --jsonl: the files to read, in order (`-` or none: stdin).
    #[arg(value_name = "TEXT | FILE", allow_hyphen_values = true)]
    args: Vec<OsString>,
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
    /// One JSON body per input line, one JSON result per stdout line.
    #[arg(long)]
    jsonl: bool,
    /// The files to read, in order (`-` or none: stdin).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Import CommonMark (spec section 9): the text with its runs, the closest the platform
/// can show. No text limit is applied (M11); split the results with `chatmark split --jsonl`.
///
/// Without --jsonl: one document (the FILE, or stdin), one JSON result. With --jsonl: one
/// body {"text"} per input line, one {"text","text_styles"} or {"error": {code, field,
/// message}} per output line.
#[derive(Debug, Parser)]
#[command(name = "chatmark import", bin_name = "chatmark import", version, long_about = None)]
struct ImportCli {
    /// One JSON body {"text"} per input line, one JSON result per stdout line.
    #[arg(long, conflicts_with_all = ["explain", "pretty"])]
    jsonl: bool,
    /// Draw each run under the text it covers.
    #[arg(long)]
    explain: bool,
    /// Pretty-print the JSON.
    #[arg(long)]
    pretty: bool,
    /// The files to read, in order (`-` or none: stdin).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Split a long message into parts that can each be sent (spec section 8, S1–S5).
///
/// Prints the parts as a JSON array of {"text","text_styles"}. With --jsonl, each input
/// line is a body {"text","parse_mode"?,"text_styles"?,"limit"?} and each output line
/// {"parts":[…]} or {"error": {code, field, message}}.
#[derive(Debug, Parser)]
#[command(name = "chatmark split", bin_name = "chatmark split", version, long_about = None)]
struct SplitCli {
    /// Most UTF-16 units of text per part (with --jsonl: for bodies without "limit").
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_text_len)]
    max_len: usize,
    /// How to read the text.
    #[arg(long, value_enum, default_value_t = Mode::Markdown)]
    mode: Mode,
    /// Pretty-print the JSON.
    #[arg(long)]
    pretty: bool,
    /// Draw each part, and its runs under it, before the JSON.
    #[arg(long)]
    explain: bool,
    /// JSONL contract: each input line is a body, each output line its parts or an error.
    #[arg(long, conflicts_with_all = ["explain", "mode", "pretty"])]
    jsonl: bool,
    /// The message; read from stdin when absent or `-` (one final newline dropped). With
    /// --jsonl: the files to read, in order (`-` or none: stdin).
    #[arg(value_name = "TEXT | FILE", allow_hyphen_values = true)]
    args: Vec<OsString>,
}

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    let program = args.next().unwrap_or_else(|| "chatmark".into());
    let rest: Vec<OsString> = args.collect();
    let result = if rest.first().is_some_and(|a| a == "render") {
        let cli = RenderCli::parse_from(std::iter::once(program).chain(rest.into_iter().skip(1)));
        render(&cli)
    } else if rest.first().is_some_and(|a| a == "import") {
        let cli = ImportCli::parse_from(std::iter::once(program).chain(rest.into_iter().skip(1)));
        import(&cli)
    } else if rest.first().is_some_and(|a| a == "split") {
        let cli = SplitCli::parse_from(std::iter::once(program).chain(rest.into_iter().skip(1)));
        split(&cli)
    } else {
        let rest = options_first(&program, rest);
        let cli = Cli::parse_from(std::iter::once(program).chain(rest));
        let limits = Limits {
            max_text_len: cli.max_len,
            ..Limits::default()
        };
        if cli.jsonl && matches!(cli.mode, Mode::Commonmark) {
            import_jsonl(&cli.args.iter().map(PathBuf::from).collect::<Vec<_>>())
        } else if cli.jsonl {
            jsonl(&cli, &limits)
        } else {
            single(&cli, &limits)
        }
    };
    match result {
        Ok(code) => code,
        // `chatmark --jsonl < big | head -1`: the reader left; stop quietly, as Unix tools do
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chatmark: {e}");
            ExitCode::from(1)
        }
    }
}

/// The arguments with the options first and the message (or files) after a `--`, so that
/// options are accepted on either side of the message, as common tools accept them.
///
/// TEXT may start with `-` (`- item`), so clap takes any argument after the first TEXT as
/// TEXT too (`allow_hyphen_values`): it cannot tell `--pretty` after the message from
/// the message itself. Sorted here instead: before a `--`, an argument is an option when it
/// is a long flag of [`Cli`] (`--mode html`, `--mode=html`: a flag taking a value takes
/// the next argument with it), `--help`, `-h`, `--version` or `-V`; everything else,
/// `-` and `- item` included, is TEXT, in order. After `--`, everything is TEXT. An
/// argument that looks like a long flag (`--` then a letter) but names none (`--jsnol`) is a
/// misspelt flag, not a message: clap refuses it (exit 2, with its "similar argument" tip).
fn options_first(program: &OsString, rest: Vec<OsString>) -> Vec<OsString> {
    let cmd = Cli::command();
    let mut options = Vec::new();
    let mut text = Vec::new();
    let mut args = rest.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            text.extend(args.by_ref());
            break;
        }
        match kind(&cmd, &arg) {
            Token::Text => text.push(arg),
            Token::Flag => options.push(arg),
            Token::Valued => options.extend([Some(arg), args.next()].into_iter().flatten()),
            Token::Misspelt => {
                let strict = Cli::command().mut_arg("args", |a| a.allow_hyphen_values(false));
                if let Err(e) = strict.try_get_matches_from([program, &arg]) {
                    e.exit();
                }
                text.push(arg);
            }
        }
    }
    options.push("--".into());
    options.extend(text);
    options
}

/// What an argument before `--` is, for [`options_first`].
enum Token {
    /// The message, or a file with `--jsonl`.
    Text,
    /// An option complete in itself (`--pretty`, `--mode=html`, `-h`).
    Flag,
    /// An option whose value is the next argument (`--mode html`).
    Valued,
    /// `--` and a letter, naming no option (`--jsnol`).
    Misspelt,
}

fn kind(cmd: &clap::Command, arg: &OsString) -> Token {
    let Some(s) = arg.to_str() else {
        return Token::Text;
    };
    if matches!(s, "-h" | "-V") {
        return Token::Flag;
    }
    let Some(flag) = s.strip_prefix("--") else {
        return Token::Text; // `-`, `- item`
    };
    let (name, inline_value) = flag
        .split_once('=')
        .map_or((flag, false), |(n, _)| (n, true));
    if !name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) {
        return Token::Text; // `---`, `--5`
    }
    if matches!(name, "help" | "version") {
        return Token::Flag;
    }
    match cmd.get_arguments().find(|a| a.get_long() == Some(name)) {
        Some(a) if a.get_action().takes_values() && !inline_value => Token::Valued,
        Some(_) => Token::Flag,
        None => Token::Misspelt,
    }
}

/// Writes one answer line (fields in wire order) and flushes it, so a reader sees each
/// result as soon as it is made.
///
/// U+2028 and U+2029 are written as `\u2028` and `\u2029`, as JSON-in-JavaScript writers
/// do: a reader that splits lines on JavaScript's line terminators still sees one answer per
/// line. (They can stand only inside strings, so replacing them keeps the JSON valid.)
fn print(out: &mut impl Write, v: &Answer<'_>, pretty: bool) -> io::Result<()> {
    let json = if pretty {
        serde_json::to_string_pretty(v)?
    } else {
        serde_json::to_string(v)?
    };
    writeln!(out, "{}", escape_separators(json))?;
    out.flush()
}

/// JSON text with U+2028 and U+2029 written as escapes (see [`print`]).
fn escape_separators(json: String) -> String {
    if json.contains(['\u{2028}', '\u{2029}']) {
        json.replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029")
    } else {
        json
    }
}

/// Reads all of stdin as text, lossily only when it is not UTF-8 (L2), without a second copy.
fn read_stdin() -> io::Result<String> {
    let mut buf = Vec::new();
    io::stdin().read_to_end(&mut buf)?;
    Ok(String::from_utf8(buf)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The message of a command that takes one: its one argument, or stdin (`-` or none) with
/// one final newline dropped (`echo text | chatmark`: the shell's, not the message's).
fn message(args: &[OsString], mut cmd: clap::Command) -> io::Result<String> {
    Ok(match args {
        [t] if t != "-" => t.to_string_lossy().into_owned(),
        [] | [_] => {
            // `echo text | chatmark`: the shell's final newline is not part of the message.
            let mut text = read_stdin()?;
            if text.ends_with('\n') {
                text.pop();
                if text.ends_with('\r') {
                    text.pop();
                }
            }
            text
        }
        [..] => {
            cmd.error(
                clap::error::ErrorKind::TooManyValues,
                "give the message as one argument (quote it), or on stdin",
            )
            .exit();
        }
    })
}

/// A body of `text` read in `mode` (CommonMark is no `parse_mode`: the callers import it
/// instead, spec section 9).
fn body(text: &str, mode: Mode) -> SendMessage<'_> {
    let mode = match mode {
        Mode::Markdown => Field::Value(ParseMode::Markdown.as_str()),
        Mode::Html => Field::Value(ParseMode::Html.as_str()),
        Mode::Plain | Mode::Commonmark => Field::Absent,
    };
    SendMessage {
        text: Field::Value(text),
        parse_mode: mode,
        ..SendMessage::default()
    }
}

fn single(cli: &Cli, limits: &Limits) -> io::Result<ExitCode> {
    let text = message(&cli.args, Cli::command())?;
    if matches!(cli.mode, Mode::Commonmark) {
        let f = chatmark::from_commonmark(&text);
        let diagnostics = cli.diagnostics.then_some(&[][..]);
        show(&f, diagnostics, cli.explain, cli.pretty)?;
        return Ok(ExitCode::SUCCESS);
    }
    match resolve_text(&body(&text, cli.mode), limits) {
        Ok(r) => {
            let diagnostics = cli.diagnostics.then_some(r.diagnostics.as_slice());
            show(&r.formatted, diagnostics, cli.explain, cli.pretty)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("chatmark: {} ({}): {}", e.code, e.field, e.message);
            Ok(ExitCode::from(3))
        }
    }
}

/// Prints one formatted message: drawn first with `explain`, then as JSON.
fn show(
    f: &Formatted,
    diagnostics: Option<&[Diagnostic]>,
    explain_it: bool,
    pretty: bool,
) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if explain_it {
        explain(&mut out, f, diagnostics.unwrap_or_default())?;
    }
    let answer = Answer::Formatted {
        formatted: f,
        diagnostics,
    };
    print(&mut out, &answer, pretty)
}

/// Draws the text (line breaks as `⏎`) and, under it, one line per run, then the
/// diagnostics.
fn explain(out: &mut impl Write, f: &Formatted, diagnostics: &[Diagnostic]) -> io::Result<()> {
    let text = &f.text;
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
    for run in &f.text_styles {
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
    for d in diagnostics {
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
    let files: Vec<PathBuf> = cli.args.iter().map(PathBuf::from).collect();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for_each_line(&files, |text| {
        let resolved = resolve_json(text, limits, false);
        let answer = match &resolved {
            Ok(r) => Answer::Formatted {
                formatted: &r.formatted,
                diagnostics: cli.diagnostics.then_some(r.diagnostics.as_slice()),
            },
            Err(error) => Answer::Error(error),
        };
        print(&mut out, &answer, false)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Calls `f` with each line of the `files` in order (none, or `-`: stdin), read lossily as
/// UTF-8 (L2), `\n` or `\r\n` removed, until the input ends or `f` fails. A UTF-8
/// byte-order mark that begins a file (or stdin) is skipped, as editors on Windows write
/// one. A file that cannot be opened or read (a directory) is an error naming it.
fn for_each_line(files: &[PathBuf], mut f: impl FnMut(&str) -> io::Result<()>) -> io::Result<()> {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut line = Vec::new();
    for path in files {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut input: Box<dyn BufRead> = if path.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            let file = File::open(path).map_err(named)?;
            Box::new(BufReader::new(file))
        };
        let mut first = true;
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line).map_err(named)? == 0 {
                break;
            }
            let body = match line.strip_prefix(b"\xEF\xBB\xBF") {
                Some(rest) if first => rest,
                _ => &line[..],
            };
            first = false;
            let text = String::from_utf8_lossy(body);
            let text = text.strip_suffix('\n').unwrap_or(&text);
            f(text.strip_suffix('\r').unwrap_or(text))?;
        }
    }
    Ok(())
}

fn split(cli: &SplitCli) -> io::Result<ExitCode> {
    let stdout = io::stdout();
    if cli.jsonl {
        let mut out = BufWriter::new(stdout.lock());
        let files: Vec<PathBuf> = cli.args.iter().map(PathBuf::from).collect();
        let limits = Limits {
            max_text_len: cli.max_len,
            ..Limits::default()
        };
        for_each_line(&files, |text| {
            let parts = split_json(text, &limits);
            let answer = match &parts {
                Ok(parts) => Answer::Parts(parts),
                Err(error) => Answer::Error(error),
            };
            print(&mut out, &answer, false)
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = message(&cli.args, SplitCli::command())?;
    // no R1 length limit: long texts are what splitting is for; nothing to send gives no part
    let unlimited = Limits {
        max_text_len: 0,
        ..Limits::default()
    };
    let formatted = match cli.mode {
        // imported as it comes: the import applies no text limit either (M11)
        Mode::Commonmark => chatmark::from_commonmark(&text),
        _ => match resolve_text(&body(&text, cli.mode), &unlimited) {
            Ok(r) => r.formatted,
            Err(e)
                if matches!(
                    e.code,
                    ErrorCode::TextEmpty | ErrorCode::EmptyAfterFormatting
                ) =>
            {
                Formatted::default()
            }
            Err(e) => {
                eprintln!("chatmark: {} ({}): {}", e.code, e.field, e.message);
                return Ok(ExitCode::from(3));
            }
        },
    };
    let parts = match chatmark::split(&formatted, cli.max_len) {
        Ok(parts) => parts,
        Err(e) => {
            eprintln!("chatmark: {}: {e}", e.code());
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = stdout.lock();
    if cli.explain {
        for (k, part) in parts.iter().enumerate() {
            let units = chatmark::utf16_len(&part.text);
            writeln!(
                out,
                "part {} of {} ({units} UTF-16 units):",
                k + 1,
                parts.len()
            )?;
            explain(&mut out, part, &[])?;
        }
    }
    let json = if cli.pretty {
        serde_json::to_string_pretty(&parts)?
    } else {
        serde_json::to_string(&parts)?
    };
    writeln!(out, "{}", escape_separators(json))?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn import(cli: &ImportCli) -> io::Result<ExitCode> {
    if cli.jsonl {
        return import_jsonl(&cli.files);
    }
    let doc = match cli.files.as_slice() {
        [] => read_stdin()?,
        [path] if path.as_os_str() == "-" => read_stdin()?,
        [path] => read_file(path)?,
        [..] => ImportCli::command()
            .error(
                clap::error::ErrorKind::TooManyValues,
                "without --jsonl, import reads one document",
            )
            .exit(),
    };
    show(
        &chatmark::from_commonmark(&doc),
        None,
        cli.explain,
        cli.pretty,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The import's JSONL contract: one `{"text"}` body per line of the `files`, one answer
/// per line.
fn import_jsonl(files: &[PathBuf]) -> io::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for_each_line(files, |line| {
        let imported = chatmark::import_json(line);
        let answer = match &imported {
            Ok(f) => Answer::Formatted {
                formatted: f,
                diagnostics: None,
            },
            Err(error) => Answer::Error(error),
        };
        print(&mut out, &answer, false)
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A whole file as text, read lossily (L2), its error naming it.
fn read_file(path: &PathBuf) -> io::Result<String> {
    let bytes = std::fs::read(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Reads a render body: `text` (a string) and optional `text_styles`, normalised (N1–N6)
/// within the default cap on runs (R6).
fn render_input(json: &str) -> Result<Formatted, chatmark::ResolveError> {
    Formatted::from_json(json, &Limits::default())
}

/// Renders `f` as the wire answer would carry it.
fn rendered(f: &Formatted, to: Target) -> Rendering {
    match to {
        Target::Html => Rendering::Html(f.to_html()),
        Target::Markdown => Rendering::Markdown(f.to_markdown()),
    }
}

enum Rendering {
    Html(String),
    Markdown(chatmark::Markdown),
}

impl Rendering {
    fn answer(&self) -> Answer<'_> {
        match self {
            Rendering::Html(html) => Answer::Html(html),
            Rendering::Markdown(md) => Answer::Markdown(md),
        }
    }
}

fn render(cli: &RenderCli) -> io::Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if cli.jsonl {
        for_each_line(&cli.files, |text| {
            let rendering = render_input(text).map(|f| rendered(&f, cli.to));
            let answer = match &rendering {
                Ok(r) => r.answer(),
                Err(error) => Answer::Error(error),
            };
            print(&mut out, &answer, false)
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let doc = match cli.files.as_slice() {
        [] => read_stdin()?,
        [path] if path.as_os_str() == "-" => read_stdin()?,
        [path] => {
            let bytes = std::fs::read(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        [..] => RenderCli::command()
            .error(
                clap::error::ErrorKind::TooManyValues,
                "without --jsonl, render reads one document",
            )
            .exit(),
    };
    match render_input(&doc) {
        Ok(f) => {
            match rendered(&f, cli.to) {
                Rendering::Html(html) => writeln!(out, "{html}")?,
                Rendering::Markdown(md) => {
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
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("chatmark: {} ({}): {}", e.code, e.field, e.message);
            Ok(ExitCode::from(3))
        }
    }
}
