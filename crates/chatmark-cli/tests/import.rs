//! `chatmark import` and `chatmark --mode commonmark` (spec section 9): one document, the
//! JSONL contract, `--explain`, and no text limit (M11).

mod common;

use common::run;
use serde_json::{json, Value};

fn json_lines(o: &std::process::Output) -> Vec<Value> {
    common::text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn mode_commonmark_formats_one_message_m3() {
    let o = run(&["--mode", "commonmark", "# Title\n\n- a"], "");
    assert!(o.status.success());
    assert_eq!(
        json_lines(&o),
        [json!({"text": "Title\n\na", "text_styles": [
            {"start": 0, "len": 5, "st": ["b", "f_18"]},
            {"start": 7, "len": 1, "st": ["lst_1"]}
        ]})]
    );
    // from stdin too, its final newline dropped
    let o = run(&["--mode", "commonmark"], "**x**\n");
    assert_eq!(json_lines(&o)[0]["text"], "x");
}

#[test]
fn import_explains_and_pretty_prints() {
    let o = run(&["import", "--explain"], "Run `ls` **now**\n");
    let out = common::text(&o.stdout);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("Run `ls` now"));
    assert_eq!(lines.next(), Some("         ^^^ b"));
    let o = run(&["import", "--pretty"], "*a*");
    assert!(common::text(&o.stdout).starts_with("{\n  \"text\": \"a\""));
}

#[test]
fn import_reads_a_file_and_applies_no_limit_m11() {
    let dir = std::env::temp_dir().join(format!("chatmark-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.md");
    std::fs::write(&path, "word ".repeat(1000)).unwrap();
    let o = run(&["import", path.to_str().unwrap()], "");
    assert!(o.status.success());
    let text = json_lines(&o)[0]["text"].as_str().unwrap().to_owned();
    assert_eq!(text.len(), 4999);
    // as does --mode commonmark, past the default 2000 of the other modes
    let o = run(&["--mode", "commonmark", &"w".repeat(2500)], "");
    assert!(o.status.success());
    let missing = run(&["import", dir.join("nope.md").to_str().unwrap()], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(common::text(&missing.stderr).contains("nope.md"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn import_jsonl_one_answer_per_line() {
    let input = "{\"text\": \"[a](https://b.c)\"}\nnot json\n{\"text\": 3}\n{}\n{\"text\": \"\"}\n";
    let o = run(&["import", "--jsonl"], input);
    assert!(o.status.success());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[0],
        json!({"text": "a (https://b.c)", "text_styles": []})
    );
    assert_eq!(lines[1]["error"]["code"], "invalid_json");
    assert_eq!(lines[2]["error"]["code"], "invalid_text");
    assert_eq!(lines[3]["error"]["code"], "missing_text");
    assert_eq!(lines[4], json!({"text": "", "text_styles": []}));
    // --mode commonmark --jsonl is the same contract
    let o = run(&["--mode", "commonmark", "--jsonl"], input);
    assert_eq!(json_lines(&o), lines);
    // one document only without --jsonl: a usage error
    let o = run(&["import", "a.md", "b.md"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_word_import_after_double_dash_is_a_message() {
    let o = run(&["--", "import"], "");
    assert_eq!(
        json_lines(&o),
        [json!({"text": "import", "text_styles": []})]
    );
}

/// The README's import example is what the command prints: the answer in its ````markdown
/// block, through `chatmark import --explain`, gives its console block.
#[test]
fn the_readme_example_is_what_import_explain_prints() {
    let readme = include_str!("../../../README.md");
    let (_, rest) = readme.split_once("````markdown\n").unwrap();
    let (answer, rest) = rest.split_once("````\n").unwrap();
    let (_, rest) = rest
        .split_once("$ chatmark import --explain answer.md\n")
        .unwrap();
    let (shown, _) = rest.split_once("\n```").unwrap();
    let o = run(&["import", "--explain"], answer);
    assert!(o.status.success());
    assert_eq!(common::text(&o.stdout), format!("{shown}\n"));
}
