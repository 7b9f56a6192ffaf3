//! L1: nesting depth is bounded only by memory. 10^5 levels of every nesting shape parse on a
//! thread with a 256 KiB stack, which any recursion per level would overflow.

const DEPTH: usize = 100_000;

fn on_small_stack(name: &str, input: String, check: fn(&str, &chatmark::Formatted)) {
    let name = name.to_owned();
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let md = chatmark::parse_markdown(&input);
            let html = chatmark::parse_html(&input);
            // the shape-specific check names which mode it expects
            check(&input, if name.starts_with("html") { &html } else { &md });
            assert_eq!(md.check_canonical(), Ok(()), "{name}");
            assert_eq!(html.check_canonical(), Ok(()), "{name}");
        })
        .unwrap()
        .join()
        .unwrap();
}

fn rep(s: &str, n: usize) -> String {
    s.repeat(n)
}

#[test]
fn deep_emphasis() {
    let input = rep("*a ", DEPTH) + "x" + &rep(" a*", DEPTH);
    on_small_stack("md emphasis", input, |_, f| {
        assert!(!f.text_styles.is_empty())
    });
    let input = rep("**", DEPTH) + "x" + &rep("**", DEPTH);
    on_small_stack("md strong", input, |_, f| assert_eq!(f.text, "x"));
}

#[test]
fn deep_tags() {
    let input = rep("{red}{big}", DEPTH) + "x" + &rep("{/big}{/red}", DEPTH);
    on_small_stack("md tags", input, |_, f| assert_eq!(f.text, "x"));
    let input = rep("<underline>", DEPTH) + "x";
    on_small_stack("md unclosed tags", input, |i, f| assert_eq!(f.text, i));
}

#[test]
fn deep_quotes() {
    let input = rep(">", DEPTH) + " x";
    on_small_stack("md quotes", input, |_, f| {
        assert_eq!(f.text, "x");
        assert_eq!(
            f.text_styles[0].st.iter().last().map(|c| c.as_str()),
            Some("ind_5")
        );
    });
    let input = rep("> ", DEPTH) + "x";
    on_small_stack("md spaced quotes", input, |_, f| assert_eq!(f.text, "x"));
}

#[test]
fn deep_html() {
    let input = rep("<b>", DEPTH) + "x";
    on_small_stack("html b", input, |_, f| assert_eq!(f.text, "x"));
    let input = rep("<ul><li>", DEPTH) + "x";
    on_small_stack("html ul li", input, |_, f| assert_eq!(f.text, "x"));
    let input = rep("<blockquote><span style=\"color:red\">", DEPTH) + "x";
    on_small_stack("html blockquote", input, |_, f| assert_eq!(f.text, "x"));
    let input = rep("<b><i>", DEPTH) + "x" + &rep("</b>", DEPTH) + "y";
    on_small_stack("html misnested", input, |_, f| assert_eq!(f.text, "xy"));
}
