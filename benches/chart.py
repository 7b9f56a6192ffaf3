#!/usr/bin/env python3
"""Draws benches/speed.svg: instructions per input byte of chatmark and its peers over the
shared corpus, as the callgrind speed check (examples/instructions.rs) counts them.

    cargo run --profile speed -p chatmark-benches --example instructions | python3 benches/chart.py

Reads the check's table from stdin (the rows `case instructions per-byte`) and writes the
SVG beside this script. No dependencies: the SVG is written by hand.
"""
import re
import sys
from pathlib import Path

# (chatmark case, peer case, group title), in the check's names
GROUPS = [
    ("markdown", "pulldown-cmark", "markdown (pulldown-cmark events, simd, strikethrough on)"),
    ("html", "html5ever", "HTML (html5ever tokenizer alone)"),
]
ROW = re.compile(r"^(\S+)\s+(\d+)\s+([\d.]+)$")


def read(stream):
    per_byte = {}
    for line in stream:
        m = ROW.match(line.strip())
        if m:
            per_byte[m.group(1)] = float(m.group(3))
    missing = [c for g in GROUPS for c in g[:2] if c not in per_byte]
    if missing:
        sys.exit(f"chart.py: no figure for {', '.join(missing)} in the input")
    return per_byte


def svg(per_byte):
    width, left, bar_h, gap = 640, 170, 22, 14
    top = 46
    scale = (width - left - 70) / max(per_byte[c] for g in GROUPS for c in g[:2])
    out = []
    y = top
    for ours, peer, title in GROUPS:
        out.append(f'<text x="10" y="{y - 6}" font-weight="bold">{title}</text>')
        for name, case, colour in (("chatmark", ours, "#15a85f"), (peer, peer, "#8a8f98")):
            v = per_byte[case]
            w = v * scale
            out.append(f'<text x="{left - 8}" y="{y + 16}" text-anchor="end">{name}</text>')
            out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{colour}"/>')
            out.append(f'<text x="{left + w + 6:.1f}" y="{y + 16}">{v:.1f}</text>')
            y += bar_h + 4
        ratio = per_byte[peer] / per_byte[ours]
        out.append(f'<text x="{left}" y="{y + 12}" fill="#444">chatmark executes {ratio:.2f}× fewer instructions</text>')
        y += gap + 24
    height = y
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">'
        f'<rect width="100%" height="100%" fill="#fff"/>'
        f'<text x="10" y="20" font-size="15">Instructions per input byte, one pass over the corpus '
        f'(callgrind, fat LTO; fewer is faster)</text>'
    )
    return head + "".join(out) + "</svg>\n"


def main():
    target = Path(__file__).with_name("speed.svg")
    target.write_text(svg(read(sys.stdin)), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
