//! The command line as a careless or hostile user drives it (issue 11): misspelt flags,
//! file arguments, a reader that leaves early, and bodies JSON values cannot hold (N1, R6).

mod common;

use common::{run, text};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chatmark-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn a_misspelt_long_flag_is_a_usage_error_with_a_tip() {
    for args in [
        &["--jsnol"][..],
        &["--prety", "x"],
        &["--mode", "html", "--explian"],
        &["x", "--prety"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}: {}", text(&o.stdout));
        assert!(text(&o.stderr).contains("unexpected argument"), "{args:?}");
    }
    assert!(text(&run(&["--jsnol"], "").stderr).contains("--jsonl"));
}

#[test]
fn text_starting_with_a_dash_is_still_text_p3() {
    let o = run(&["- item"], "");
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"item\",\"text_styles\":[{\"start\":0,\"len\":4,\"st\":[\"lst_1\"]}]}\n"
    );
    let o = run(&["--pretty", "- item"], "");
    assert!(o.status.success());
    // after `--`, anything is the message, flag-like or not
    let o = run(&["--", "--jsnol"], "");
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"--jsnol\",\"text_styles\":[]}\n"
    );
    // a lone `-` reads stdin
    let o = run(&["-"], "**x**\n");
    assert!(text(&o.stdout).starts_with("{\"text\":\"x\""));
}

#[test]
fn options_are_accepted_before_or_after_the_text() {
    let pretty = run(&["--pretty", "**x**"], "");
    assert!(pretty.status.success());
    assert!(text(&pretty.stdout).contains("\n  \"text\": \"x\""));
    // after the text, with a value as the next argument or after `=`, between other options
    for args in [
        &["**x**", "--pretty"][..],
        &["--diagnostics", "**x**", "--pretty"],
        &["**x**", "--mode", "markdown", "--pretty"],
        &["**x**", "--pretty", "--mode=markdown"],
    ] {
        let o = run(args, "");
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        assert!(text(&o.stdout).contains("\n  \"text\": \"x\""), "{args:?}");
    }
    let o = run(&["<b>x</b>", "--mode", "html"], "");
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"x\",\"text_styles\":[{\"start\":0,\"len\":1,\"st\":[\"b\"]}]}\n"
    );
    // a message that starts with `-` may come first too (P3)
    let o = run(&["- item", "--max-len", "3"], "");
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("text_too_long"));
    // `--` still ends the options: what follows is the message, flag-like or not
    let o = run(&["--pretty", "--", "--mode"], "");
    assert!(text(&o.stdout).contains("\"text\": \"--mode\""));
    let o = run(&["--", "x", "--pretty"], "");
    assert_eq!(
        o.status.code(),
        Some(2),
        "two words after `--` are two messages"
    );
    assert!(text(&o.stderr).contains("one argument"));
    // a value-taking option at the end still wants its value
    let o = run(&["x", "--mode"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    // and with --jsonl, the files and the flag in either order
    let file = temp_file(
        "after.jsonl",
        "{\"text\":\"*a*\",\"parse_mode\":\"markdown\"}\n",
    );
    let o = run(&[file.to_str().unwrap(), "--jsonl", "--diagnostics"], "");
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"a\",\"text_styles\":[{\"start\":0,\"len\":1,\"st\":[\"i\"]}],\"diagnostics\":[]}\n"
    );
}

#[test]
fn jsonl_reads_file_arguments_in_order_and_dash_as_stdin() {
    let a = temp_file("a.jsonl", "{\"text\":\"a\"}\n");
    let b = temp_file(
        "b.jsonl",
        "{\"text\":\"*b*\",\"parse_mode\":\"markdown\"}\n",
    );
    let a = a.to_str().unwrap();
    let b = b.to_str().unwrap();
    let o = run(&["--jsonl", a, "-", b], "{\"text\":\"stdin\"}\n");
    let lines: Vec<String> = text(&o.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("\"a\""));
    assert!(lines[1].contains("\"stdin\""));
    assert!(lines[2].contains("\"st\":[\"i\"]"));
    let o = run(&["render", "--to", "html", "--jsonl", a], "ignored\n");
    assert_eq!(text(&o.stdout), "{\"html\":\"a\"}\n");
    let o = run(&["render", "--to", "html", a], "");
    assert_eq!(text(&o.stdout), "a\n");
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let o = run(&["--jsonl", "/nonexistent/in.jsonl"], "{\"text\":\"a\"}\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(text(&o.stderr).contains("/nonexistent/in.jsonl"));
}

#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chatmark"))
        .arg("--jsonl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..200_000 {
            if stdin
                .write_all(b"{\"text\":\"*a*\",\"parse_mode\":\"markdown\"}\n")
                .is_err()
            {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("{\"text\":\"a\""));
    // stdout is closed here, like `| head -1`
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stderr), "");
}

#[test]
fn bodies_with_numbers_beyond_f64_are_read_by_value_n1() {
    let o = run(
        &["--jsonl"],
        "{\"text\":\"ab\",\"text_styles\":[{\"start\":0,\"len\":1e400,\"st\":[\"b\"]}],\"x\":-1e999}\n",
    );
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"ab\",\"text_styles\":[{\"start\":0,\"len\":2,\"st\":[\"b\"]}]}\n"
    );
}

#[test]
fn render_refuses_too_many_runs_r6() {
    let runs = vec!["{\"start\":0,\"len\":1,\"st\":\"b\"}"; 10_001].join(",");
    let o = run(
        &["render", "--to", "html", "--jsonl"],
        &format!("{{\"text\":\"a\",\"text_styles\":[{runs}]}}\n"),
    );
    assert!(
        text(&o.stdout).contains("\"too_many_text_styles\""),
        "{}",
        text(&o.stdout)
    );
}

/// `--jsonl` as tools write and read it (issue 20): a UTF-8 byte-order mark that begins a
/// file or stdin is no part of the first body; a path that cannot be read (a directory) is
/// named in the error; U+2028 and U+2029 leave escaped, so a reader that splits lines on
/// them (as JavaScript's line terminators) still sees one result per line.
#[test]
fn jsonl_skips_a_bom_names_unreadable_paths_and_escapes_js_line_separators() {
    let bom = "\u{feff}{\"text\":\"*a*\",\"parse_mode\":\"markdown\"}\n{\"text\":\"b\"}\n";
    let want = "{\"text\":\"a\",\"text_styles\":[{\"start\":0,\"len\":1,\"st\":[\"i\"]}]}\n{\"text\":\"b\",\"text_styles\":[]}\n";
    assert_eq!(text(&run(&["--jsonl"], bom).stdout), want);
    let file = temp_file("bom.jsonl", bom);
    let o = run(
        &["--jsonl", file.to_str().unwrap(), file.to_str().unwrap()],
        "",
    );
    assert_eq!(text(&o.stdout), want.repeat(2));
    // only at the start of an input: elsewhere U+FEFF is a body's first character
    let o = run(&["--jsonl"], "{\"text\":\"b\"}\n\u{feff}{\"text\":\"b\"}\n");
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "{\"text\":\"b\",\"text_styles\":[]}");
    assert!(
        lines[1].starts_with("{\"error\":{\"code\":\"invalid_json\""),
        "{out}"
    );

    let dir = std::env::temp_dir();
    let o = run(&["--jsonl", dir.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(dir.to_str().unwrap()),
        "{}",
        text(&o.stderr)
    );
    let o = run(
        &["render", "--to", "html", "--jsonl", dir.to_str().unwrap()],
        "",
    );
    assert!(
        text(&o.stderr).contains(dir.to_str().unwrap()),
        "{}",
        text(&o.stderr)
    );

    let o = run(&["--jsonl"], "{\"text\":\"a\\u2028b\u{2029}c\"}\n");
    assert_eq!(
        text(&o.stdout),
        "{\"text\":\"a\\u2028b\\u2029c\",\"text_styles\":[]}\n"
    );
    let o = run(
        &["render", "--to", "html", "--jsonl"],
        "{\"text\":\"a\u{2028}b\"}\n",
    );
    assert_eq!(text(&o.stdout), "{\"html\":\"a\\u2028b\"}\n");
    // and in the single-message JSON output too
    assert_eq!(
        text(&run(&["a\u{2028}b"], "").stdout),
        "{\"text\":\"a\\u2028b\",\"text_styles\":[]}\n"
    );
}

#[test]
fn split_prints_the_parts_as_a_json_array_s1_s4() {
    let o = run(
        &["split", "--max-len", "12", "**bold words** and more text"],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "[{\"text\":\"bold words\",\"text_styles\":[{\"start\":0,\"len\":10,\"st\":[\"b\"]}]},\
         {\"text\":\"and more\",\"text_styles\":[]},{\"text\":\"text\",\"text_styles\":[]}]\n"
    );
    // from stdin, in another mode, with no R1 length limit: 3000 units in two parts
    let long = "ab ".repeat(1000);
    let o = run(&["split", "--mode", "plain"], &format!("{long}\n"));
    let parts: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(parts.as_array().unwrap().len(), 2);
    // nothing to send gives no part; a limit below 2 is refused (S1)
    assert_eq!(text(&run(&["split", "- "], "").stdout), "[]\n");
    let o = run(&["split", "--max-len", "1", "text"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("invalid_limit"));
}

#[test]
fn split_explain_draws_each_part_s4() {
    let o = run(
        &["split", "--explain", "--max-len", "8", "*one* two three"],
        "",
    );
    let out = text(&o.stdout);
    assert!(
        out.starts_with("part 1 of 2 (7 UTF-16 units):\none two\n^^^ i\npart 2 of 2"),
        "{out}"
    );
}

#[test]
fn split_jsonl_answers_parts_or_errors_per_line_s1() {
    let input = "{\"text\":\"one two\",\"limit\":4}\n{\"text\":\"\"}\n{\"text\":\"x\",\"limit\":1}\nnot json\n{\"text\":\"a b\"}\n";
    let o = run(&["split", "--jsonl", "--max-len", "2"], input);
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["parts"][1]["text"], "two");
    assert_eq!(lines[1], serde_json::json!({ "parts": [] }));
    assert_eq!(lines[2]["error"]["code"], "invalid_limit");
    assert_eq!(lines[2]["error"]["field"], "limit");
    assert_eq!(lines[3]["error"]["code"], "invalid_json");
    // --max-len is the limit of bodies without one
    assert_eq!(lines[4]["parts"].as_array().unwrap().len(), 2);
}
