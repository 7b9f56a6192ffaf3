#!/usr/bin/env python3
"""Differential check of two chatmark CLIs: random sendMessage bodies dense in markup go
through both over the JSONL contract (`--jsonl --max-len 0`, with `--diagnostics` on odd
seeds), and their answers must be byte-identical. For rewrites that must keep behaviour (the guide's "every
vector, suite, property test and fuzz target passes before and after"): build the CLI at
the old commit in a worktree, then

    python3 tools/differential.py OLD/target/release/chatmark target/release/chatmark \
        [--seeds 100] [--bodies 5000]

Exits 1 at the first seed whose answers differ, printing the first differing body and
both answers. The bodies are markdown (tags of every slot and spelling, nested and out
of order; delimiter runs; line prefixes; code spans and fences; escapes; line breaks of
both kinds; non-ASCII text), HTML (the same tags and the H3 elements, attributes,
entities, comments) and client runs; each seed gives the same bodies on every machine.
"""
import argparse
import json
import random
import subprocess
import sys

TAGS = ["red", "orange", "yellow", "green", "big", "underline"]
MARKDOWN = [
    "a", "word", " ", "  ", "é", "😀", "\n", "\n\n", "\r\n", "*", "**", "***", "_", "__",
    "~~", "~", "`", "``", "\\*", "\\", "- ", "1. ", "> ", "# ", "  - ", "x", ".", ",", "!",
    "(", ")", "```\n", "&", "<", ">", "{", "}", "/",
]
ELEMENTS = ["b", "strong", "i", "em", "u", "s", "del", "p", "div", "br", "li", "ul", "ol",
            "blockquote", "pre", "code", "span", "font", "h1", "small", "x-y"]
HTML = ["a", " ", "é", "😀", "\n", "&amp;", "&lt;", "&#x1F600;", "&nbsp", "<!-- c -->",
        "<br>", "<br/>", '<span style="color:red">', "</span>", '<font color="#0f0">',
        "</font>", "<", ">", "&", "*", "`"]


def tag(r):
    closing = "/" if r.random() < 0.45 else ""
    name = r.choice(TAGS)
    return f"{{{closing}{name}}}" if r.random() < 0.8 else f"<{closing}{name}>"


def markdown(r):
    n = r.randint(1, 40)
    return "".join(tag(r) if r.random() < 0.3 else r.choice(MARKDOWN) for _ in range(n))


def balanced(r):
    """Markdown as chat messages write it: tags and delimiter pairs around words, nested,
    sometimes crossed or left open, on lines with prefixes (the shapes for which the one
    pass's guess holds, and the near misses for which it does not)."""
    out, open_ = [], []
    for _ in range(r.randint(1, 30)):
        x = r.random()
        if x < 0.3:
            name = r.choice(TAGS)
            pair = r.choice([(f"{{{name}}}", f"{{/{name}}}"), (f"<{name}>", f"</{name}>"),
                             ("*", "*"), ("**", "**"), ("***", "***"), ("_", "_"),
                             ("__", "__"), ("~~", "~~"), ("***", "*"), ("***", "**")])
            out.append(pair[0] + r.choice(["a", "word", "é", "😀"]))
            open_.append(pair[1])
        elif x < 0.55 and open_:
            k = len(open_) - 1 if r.random() < 0.9 else r.randrange(len(open_))
            out.append(r.choice(["b", "x", "ü"]) + open_.pop(k))
        elif x < 0.65:
            out.append(r.choice(["\n", "\n- ", "\n1. ", "\n> ", "\n# ", "\n\n", "\r\n"]))
        else:
            out.append(r.choice([" ", " word ", ", ", ". ", " `a*b` ", " \\* ", "😀"]))
    while open_ and r.random() < 0.95:
        out.append("z" + open_.pop())
    return "".join(out)


def html(r):
    out = []
    for _ in range(r.randint(1, 30)):
        x = r.random()
        if x < 0.35:
            name = r.choice(ELEMENTS + TAGS)
            out.append(f"<{'/' if r.random() < 0.45 else ''}{name}>")
        else:
            out.append(r.choice(HTML))
    return "".join(out)


def body(r):
    x = r.random()
    if x < 0.35:
        return {"text": markdown(r), "parse_mode": "markdown"}
    if x < 0.6:
        return {"text": balanced(r), "parse_mode": "markdown"}
    if x < 0.9:
        return {"text": html(r), "parse_mode": "html"}
    text = markdown(r)
    styles = [
        {"start": r.randint(-2, len(text) + 2), "len": r.randint(-1, 8),
         "st": r.sample(["b", "i", "u", "s", "c_db342e", "f_18", "lst_1", "zz"], r.randint(0, 3))}
        for _ in range(r.randint(0, 5))
    ]
    return {"text": text, "text_styles": styles}


def answers(cli, lines, diagnostics):
    flags = ["--diagnostics"] if diagnostics else []
    run = subprocess.run([cli, "--jsonl", *flags, "--max-len", "0"], input=lines,
                         capture_output=True, text=True, check=False)
    return run.stdout.splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--bodies", type=int, default=5000)
    args = ap.parse_args()
    for seed in range(1, args.seeds + 1):
        r = random.Random(seed)
        bodies = [json.dumps(body(r), ensure_ascii=False) for _ in range(args.bodies)]
        lines = "\n".join(bodies) + "\n"
        # diagnostics asked for on odd seeds (the parsers take them on another path)
        old, new = (answers(cli, lines, seed % 2 == 1) for cli in (args.old, args.new))
        if len(old) != args.bodies:
            sys.exit(f"{args.old}: {len(old)} answers for {args.bodies} bodies (seed {seed})")
        if old != new:
            k = next((k for k, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
            print(f"seed {seed}, body {k + 1}: {bodies[k] if k < len(bodies) else '?'}")
            print(f"  old: {old[k] if k < len(old) else '(none)'}")
            print(f"  new: {new[k] if k < len(new) else '(none)'}")
            sys.exit(1)
    print(f"{args.seeds * args.bodies} bodies: identical answers")


if __name__ == "__main__":
    main()
