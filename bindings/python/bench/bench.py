"""Bench of the Python package beside the pure-Python converters a bot would otherwise use,
over the shared corpus (benches/corpus/messages.jsonl, 2,000 chat messages), in one run:

- chatmark's ``parse_markdown`` (the call alone, and with its result read out: ``text`` and
  the ``text_styles`` list, or ``to_dict()``) and ``parse_html`` (the corpus's HTML);
- markdown-it-py's ``parse`` (its token stream) with the ``commonmark`` preset plus
  strikethrough, the rules nearest to the dialect, as the Node bench configures markdown-it;
- a regex-based converter (``regex_peer.py``), the hand-written kind.

Passes take turns case by case (a burst of load on the shared machine falls on all alike);
each case's figure is its fastest pass. Prints messages per second, MB/s and µs per
message, the ratio of ``parse_markdown`` to markdown-it-py (issue 52's goal: 50), and the
per-call overhead: the time of a call on an empty message and on a short one, beside a C
builtin's call (``len``) timed the same way. With ``--wheel PATH``, the wheel's size and its
extension's unpacked size come first.

    python bindings/python/bench/bench.py [--quick] [--wheel PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zipfile
from importlib.metadata import version
from typing import Any, Callable

from markdown_it import MarkdownIt

import chatmark

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regex_peer

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "benches", "corpus", "messages.jsonl")
GOAL = 50


def load() -> tuple[list[str], list[str]]:
    with open(CORPUS, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [r["markdown"] for r in rows], [r["html"] for r in rows]


def read_out(m: str) -> Any:
    f = chatmark.parse_markdown(m)
    return f.text, f.text_styles


def measure(cases: list[tuple[str, list[str], Callable[[str], Any]]], passes: int) -> list[float]:
    """The fastest pass of each case, in seconds, the cases taking turns pass by pass."""
    for _, msgs, fn in cases:  # warm up
        for m in msgs:
            fn(m)
    best = [float("inf")] * len(cases)
    for _ in range(passes):
        for k, (_, msgs, fn) in enumerate(cases):
            t0 = time.perf_counter()
            for m in msgs:
                fn(m)
            best[k] = min(best[k], time.perf_counter() - t0)
    return best


def per_call_ns(fns: list[tuple[Callable[[str], Any], str]], calls: int) -> list[float]:
    """Each call's time in ns (loop included): the fastest of nine runs of ``calls`` calls,
    the functions taking turns run by run."""
    best = [float("inf")] * len(fns)
    for _ in range(9):
        for k, (fn, arg) in enumerate(fns):
            t0 = time.perf_counter_ns()
            for _ in range(calls):
                fn(arg)
            best[k] = min(best[k], (time.perf_counter_ns() - t0) / calls)
    return best


def print_wheel(path: str) -> None:
    """The wheel's size and its extension module's, unpacked."""
    print(f"wheel {os.path.basename(path)}: {os.path.getsize(path)} bytes")
    for info in zipfile.ZipFile(path).infolist():
        if info.filename.endswith(".so"):
            print(f"{info.filename}: {info.file_size} bytes unpacked")


def main() -> None:
    parser = argparse.ArgumentParser(description="chatmark beside the pure-Python peers")
    parser.add_argument("--quick", action="store_true", help="3 passes instead of 15")
    parser.add_argument("--wheel", help="a wheel whose size to print first")
    args = parser.parse_args()
    if args.wheel:
        print_wheel(args.wheel)
    quick = args.quick
    passes = 3 if quick else 15
    md, html = load()
    md_bytes = sum(len(m.encode()) for m in md)
    html_bytes = sum(len(m.encode()) for m in html)
    mdit = MarkdownIt("commonmark").enable("strikethrough")
    env: dict[str, Any] = {}
    mdit_version = version("markdown-it-py")
    cases: list[tuple[str, list[str], Callable[[str], Any]]] = [
        ("chatmark parse_markdown", md, chatmark.parse_markdown),
        ("chatmark parse_markdown, text + text_styles", md, read_out),
        (
            "chatmark parse_markdown(m).to_dict()",
            md,
            lambda m: chatmark.parse_markdown(m).to_dict(),
        ),
        ("chatmark parse_html (the HTML corpus)", html, chatmark.parse_html),
        (
            f"markdown-it-py {mdit_version} commonmark+strikethrough",
            md,
            lambda m: mdit.parse(m, env),
        ),
        ("regex converter (regex_peer.py)", md, regex_peer.convert),
    ]
    print(
        f"chatmark {chatmark.__version__} on Python {sys.version.split()[0]}: "
        f"{len(md)} messages, {md_bytes} bytes of markdown, {html_bytes} of HTML, "
        f"{passes} passes (fastest shown)"
    )
    secs = measure(cases, passes)
    rate = {}
    for (name, msgs, _), s in zip(cases, secs):
        n = len(msgs)
        size = html_bytes if msgs is html else md_bytes
        rate[name] = n / s
        print(f"{name:48} {n / s:10.0f} msg/s {size / s / 1e6:7.1f} MB/s {s / n * 1e6:8.2f} µs/msg")
    peer = rate[cases[4][0]]
    for name in (cases[0][0], cases[1][0]):
        print(f"ratio: {name} / markdown-it-py = {rate[name] / peer:.1f} (issue 52's goal: {GOAL})")
    print(
        f"ratio: chatmark parse_markdown / regex converter = {rate[cases[0][0]] / rate[cases[5][0]]:.1f}"
    )
    calls = 20_000 if quick else 100_000
    p = chatmark.parse_markdown
    base, empty, short, bold = per_call_ns(
        [(len, "hello"), (p, ""), (p, "hello"), (p, "**hello**")], calls
    )
    print(
        f"per call (loop included): len('hello') {base:.0f} ns; parse_markdown('') {empty:.0f} ns, "
        f"('hello') {short:.0f} ns, ('**hello**') {bold:.0f} ns"
    )
    print(
        f"per-call overhead of the binding (parse_markdown('') - len('hello')): {empty - base:.0f} ns"
    )


if __name__ == "__main__":
    main()
