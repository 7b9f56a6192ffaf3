"""A regex-based markdown converter, as a bot would write one by hand: line prefixes
(headings, bullets, ordered items, indentation) and non-nested inline spans (``**bold**``,
``*italic*``, ``_italic_``, ``~~strike~~``, code spans kept literally, ``{red}…{/red}``
tags) to text plus ``{start, len, st}`` runs in UTF-16 units. It is the pure-Python speed
peer of the bench, not a correct parser: no nesting, no flanking rules, no escapes, no
fences, and its runs overlap (not canonical).
"""

from __future__ import annotations

import re
from typing import Any

PREFIX = re.compile(r"( *)(?:(#{1,4}) |([-*+]) |(\d{1,3})\. )?")
INLINE = re.compile(
    r"`([^`\n]+)`"
    r"|\*\*(.+?)\*\*"
    r"|__(.+?)__"
    r"|~~(.+?)~~"
    r"|\*([^*\n]+)\*"
    r"|_([^_\n]+)_"
    r"|[{<](red|orange|yellow|green|big|underline)[}>](.*?)[{<]/\7[}>]",
    re.S,
)
GROUP_CODE = {2: "b", 3: "b", 4: "s", 5: "i", 6: "i"}
TAG_CODE = {
    "red": "c_db342e",
    "orange": "c_f27806",
    "yellow": "c_f7b503",
    "green": "c_15a85f",
    "big": "f_18",
    "underline": "u",
}


def utf16(s: str) -> int:
    """UTF-16 units of ``s``."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def convert(src: str) -> tuple[str, list[dict[str, Any]]]:
    """Converts one message: ``(text, text_styles)``."""
    out: list[str] = []
    runs: list[dict[str, Any]] = []
    pos = 0
    for k, line in enumerate(src.split("\n")):
        if k:
            out.append("\n")
            pos += 1
        m = PREFIX.match(line)
        assert m is not None
        line_codes = []
        indent = min(len(m.group(1)) // 2, 5)
        if m.group(2):
            line_codes += ["b", "f_18"] if len(m.group(2)) == 1 else ["b"]
        elif m.group(3):
            line_codes.append("lst_1")
        elif m.group(4):
            line_codes.append("lst_2")
        if indent:
            line_codes.append(f"ind_{indent}")
        body = line[m.end() :]
        line_start = pos
        last = 0
        for im in INLINE.finditer(body):
            plain = body[last : im.start()]
            out.append(plain)
            pos += utf16(plain)
            if im.group(1) is not None:
                inner, codes = im.group(0), []
            elif im.group(7) is not None:
                inner, codes = im.group(8), [TAG_CODE[im.group(7)]]
            else:
                g = im.lastindex or 0
                inner, codes = im.group(g), [GROUP_CODE[g]]
            n = utf16(inner)
            out.append(inner)
            if codes and n:
                runs.append({"start": pos, "len": n, "st": codes})
            pos += n
            last = im.end()
        tail = body[last:]
        out.append(tail)
        pos += utf16(tail)
        if line_codes and pos > line_start:
            runs.append({"start": line_start, "len": pos - line_start, "st": line_codes})
    return "".join(out), runs
