//! The `chatmark render` subcommand (W1, W2) and the top-level forms it must not break.

mod common;

use common::run;
use std::process::Output;

fn stdout(o: &Output) -> String {
    common::text(&o.stdout)
}

const BODY: &str = r#"{"text":"Hello world\nitem","text_styles":[{"start":0,"len":5,"st":["b"]},{"start":6,"len":5,"st":["c_db342e"]},{"start":12,"len":4,"st":["lst_1"]}]}"#;

#[test]
fn render_html_document() {
    let o = run(&["render", "--to", "html"], BODY);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "<b>Hello</b> <span style=\"color:#db342e\">world</span><br><ul><li>item</li></ul>\n"
    );
}

#[test]
fn render_markdown_document_and_notes() {
    let o = run(&["render", "--to", "markdown"], BODY);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "**Hello** {red}world{/red}\n- item\n");
    let o = run(
        &["render", "--to", "markdown"],
        r#"{"text":"ab","text_styles":[{"start":1,"len":1,"st":["f_13"]}]}"#,
    );
    assert_eq!(stdout(&o), "ab\n");
    assert!(String::from_utf8_lossy(&o.stderr).contains("code f_13"));
}

#[test]
fn render_jsonl_one_line_per_line() {
    let input = format!(
        "{BODY}\nnot json\n{}\n{}\n",
        r#"{"text":"  x <b>","text_styles":[{"start":2,"len":1,"st":"i, f_20"}]}"#,
        r#"{"text":"x","text_styles":{}}"#
    );
    let o = run(&["render", "--to", "markdown", "--jsonl"], &input);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["lossless"], true);
    assert_eq!(lines[1]["error"]["code"], "invalid_json");
    assert_eq!(lines[2]["markdown"], "*x* \\<b>");
    assert_eq!(
        lines[2]["unexpressed"],
        serde_json::json!([
            {"start": 0, "len": 2, "what": "leading_spaces"},
            {"start": 2, "len": 1, "what": "code", "code": "f_20"}
        ])
    );
    assert_eq!(lines[3]["error"]["code"], "invalid_text_styles");
    let o = run(
        &["render", "--to", "html", "--jsonl"],
        "{\"text\":\"<x>\"}\n",
    );
    assert_eq!(stdout(&o), "{\"html\":\"&lt;x&gt;\"}\n");
}

#[test]
fn top_level_forms_still_work() {
    let o = run(&["**some** text"], "");
    assert_eq!(
        stdout(&o),
        "{\"text\":\"some text\",\"text_styles\":[{\"start\":0,\"len\":4,\"st\":[\"b\"]}]}\n"
    );
    // the word itself, after `--`, or from stdin
    let o = run(&["--", "render"], "");
    assert_eq!(stdout(&o), "{\"text\":\"render\",\"text_styles\":[]}\n");
    let o = run(&[], "render\n");
    assert_eq!(stdout(&o), "{\"text\":\"render\",\"text_styles\":[]}\n");
    let o = run(&["- item"], "");
    assert!(stdout(&o).contains("lst_1"));
    let o = run(
        &["--jsonl"],
        "{\"text\":\"*a*\",\"parse_mode\":\"markdown\"}\n",
    );
    assert!(stdout(&o).contains("\"i\""));
    // render needs --to: a usage error
    let o = run(&["render"], "");
    assert_eq!(o.status.code(), Some(2));
}
