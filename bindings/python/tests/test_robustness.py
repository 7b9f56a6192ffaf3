"""No input crashes the interpreter (L2): random bytes, lone surrogates, huge lists, deep
nesting and values of every wrong type give a result, a ``ChatmarkError`` or a
``TypeError``/``ValueError``/``IndexError``, never a segfault, a hang or a panic message.

The random inputs run in a child interpreter, so that a crash fails this test instead of
ending pytest."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest

import chatmark
from chatmark import ChatmarkError

CHILD = textwrap.dedent(
    r"""
    import json, random, sys
    import chatmark
    from chatmark import ChatmarkError, Formatted, Run

    rng = random.Random(int(sys.argv[1]))
    EXPECTED = (ChatmarkError, TypeError, ValueError, IndexError, OverflowError)

    def rand_str():
        k = rng.randrange(4)
        if k == 0:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(40))).decode("utf-8", "surrogateescape")
        if k == 1:
            return "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randrange(40)))
        if k == 2:
            return "".join(rng.choice(["**", "_", "~~", "`", "{red}", "{/red}", "<b>", "</b>", "&#", ";", "\n", "- ", "\ud800", "\udc00", "😀", "a"]) for _ in range(rng.randrange(40)))
        return rng.choice(["", " ", "\ud800", "\udfff\ud800", "\x00", "\ufeff"])

    def rand_value(depth=0):
        k = rng.randrange(12 if depth < 3 else 8)
        return [
            lambda: None, lambda: rng.random() < 0.5, lambda: rng.randrange(-2**70, 2**70),
            lambda: rng.choice([0.5, -0.0, 1e400, -1e400, float("nan"), 3.0]), rand_str,
            lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(20))),
            lambda: object(), lambda: Run(rng.randrange(5), rng.randrange(5), rng.sample(chatmark.STYLE_CODES, 2)),
            lambda: [rand_value(depth + 1) for _ in range(rng.randrange(5))],
            lambda: tuple(rand_value(depth + 1) for _ in range(rng.randrange(5))),
            lambda: {rng.choice(["start", "len", "st", "text", "parse_mode", "text_styles", "chat_id"]): rand_value(depth + 1) for _ in range(rng.randrange(5))},
            lambda: {rand_str(): rand_value(depth + 1)},
        ][k]()

    def rand_body():
        if rng.random() < 0.3:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
        body = {k: rand_value() for k in ("text", "parse_mode", "text_styles", "chat_id") if rng.random() < 0.7}
        if rng.random() < 0.7:
            body["text"] = rand_str()
        if rng.random() < 0.5:
            body["parse_mode"] = rng.choice(["markdown", "HTML", "x", None])
        return body if rng.random() < 0.7 else json.dumps(body, default=str)

    calls = [
        lambda: chatmark.parse_markdown(rand_value() if rng.random() < 0.1 else rand_str()),
        lambda: chatmark.parse_html(rand_value() if rng.random() < 0.1 else rand_str()),
        lambda: chatmark.from_commonmark(rand_value() if rng.random() < 0.1 else rand_str()),
        lambda: chatmark.normalize(rand_str(), rand_value()),
        lambda: chatmark.normalize(rand_str(), [rand_value() for _ in range(rng.randrange(8))]),
        lambda: chatmark.resolve(rand_body(), max_len=rng.choice([0, 5, 2000]), check_chat_id=rng.random() < 0.5),
        lambda: chatmark.resolve(rand_value()),
        lambda: chatmark.to_html(rng.choice([rand_value(), {"text": rand_str(), "text_styles": rand_value()}])),
        lambda: chatmark.to_markdown({"text": rand_str(), "text_styles": [rand_value() for _ in range(5)]}),
        lambda: chatmark.split(rng.choice([rand_value(), {"text": rand_str() * rng.randrange(1, 20), "text_styles": rand_value()}]), rng.choice([rand_value(), -1, 0, 1, 2, 3, 7, 2**70])),
        lambda: Formatted(rand_str(), [rand_value() for _ in range(5)]),
        lambda: Run(rand_value(), rand_value(), rand_value()),
        lambda: chatmark.utf16_offset(rand_str(), rng.randrange(-3, 50)),
        lambda: chatmark.str_index(rand_str(), rng.randrange(-3, 50)),
        lambda: chatmark.utf16_len(rand_value()),
    ]
    for _ in range(int(sys.argv[2])):
        try:
            r = rng.choice(calls)()
            repr(r)
            if isinstance(r, Formatted):
                r.to_dict(); r.to_json(); hash(r)
        except EXPECTED:
            pass
    print("ok")
    """
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_inputs_never_crash(seed: int) -> None:
    p = subprocess.run(
        [sys.executable, "-c", CHILD, str(seed), "4000"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.strip() == "ok"
    assert "panicked" not in p.stderr and "PanicException" not in p.stderr


def test_random_bytes_resolve_or_refuse() -> None:
    import random

    rng = random.Random(7)
    refused = set()
    for _ in range(2000):
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
        try:
            f = chatmark.resolve(b)
        except ChatmarkError as e:
            refused.add(e.code)
        else:
            assert isinstance(f.text, str)
    assert refused <= {"invalid_json", "missing_text", "invalid_text", "text_empty"}
    assert "invalid_json" in refused


def test_huge_lists() -> None:
    many = [{"start": k, "len": 1, "st": ["b"]} for k in range(1_000_000)]
    with pytest.raises(ChatmarkError) as e:
        chatmark.normalize("a" * 10, many)
    assert e.value.code == "too_many_text_styles"
    with pytest.raises(ChatmarkError):
        chatmark.resolve({"text": "a", "text_styles": many})
    text = "ab" * 500_000
    runs = chatmark.normalize(text, many, max_text_styles=0)
    assert len(runs) == 1 and (runs[0].start, runs[0].len) == (0, 1_000_000)
    alternating = [{"start": k, "len": 1, "st": ["b" if k % 2 else "i"]} for k in range(200_000)]
    assert len(chatmark.normalize(text, alternating, max_text_styles=0)) == 200_000


def test_deep_nesting_does_not_recurse_l1() -> None:
    n = 100_000
    body = '{"x": ' + "[" * n + "]" * n + ', "text": "a"}'
    assert chatmark.resolve(body).text == "a"
    deep: list[object] = []
    cur = deep
    for _ in range(10_000):
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    entries: list[Any] = [{"start": 0, "len": 1, "st": deep}, deep]
    assert chatmark.normalize("ab", entries) == []
    assert chatmark.parse_markdown("> " * 50_000 + "x").text == "x"
    assert chatmark.parse_html("<b>" * 50_000 + "x").text == "x"
    assert chatmark.from_commonmark("> " * 50_000 + "x").text == "x"


def test_long_and_strange_texts() -> None:
    big = ("**a** _b_ {red}c{/red} 😀\n" * 100_000) + "\ud800"
    f = chatmark.parse_markdown(big)
    assert f.text.endswith("\ufffd")
    assert chatmark.utf16_len(f.text) == len(f.text.encode("utf-16-le")) // 2
    assert chatmark.parse_markdown("\x00" * 1000).text == "\x00" * 1000
    assert (
        json.loads(chatmark.parse_html("\u2028<b>\u2029</b>").to_json())["text"] == "\u2028\u2029"
    )
