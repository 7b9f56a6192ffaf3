"""The package used as a bot uses it, checked by ``mypy --strict`` (scripts/python) against
the stub (``_chatmark.pyi``) and run by pytest. The ``type: ignore`` lines are the misuses
the stub must refuse: strict mode's ``warn_unused_ignores`` fails if one is accepted."""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatmark
from chatmark import ChatmarkError, Formatted, Markdown, Run, Unexpressed


def send_message_payload(chat_id: int, markdown: str) -> dict[str, Any]:
    """A sendMessage body with client runs, as a bot sends one."""
    f: Formatted = chatmark.parse_markdown(markdown)
    text: str = f.text
    runs: list[Run] = f.text_styles
    return {"chat_id": chat_id, "text": text, "text_styles": [r.to_dict() for r in runs]}


def test_bot_usage() -> None:
    payload = send_message_payload(42, "**Hi** there")
    assert payload["text_styles"] == [{"start": 0, "len": 2, "st": ["b"]}]
    resolved: Formatted = chatmark.resolve(json.dumps(payload), check_chat_id=True)
    assert resolved.text == "Hi there"
    first: Run = resolved.text_styles[0]
    start: int = first.start
    codes: tuple[str, ...] = first.st
    assert (start, first.len, first.end, codes) == (0, 2, 2, ("b",))
    html: str = chatmark.to_html(resolved)
    md: Markdown = chatmark.to_markdown(
        {"text": resolved.text, "text_styles": payload["text_styles"]}
    )
    lost: list[Unexpressed] = md.unexpressed
    assert html == "<b>Hi</b> there" and md.markdown == "**Hi** there" and not lost
    with pytest.raises(ChatmarkError) as e:
        chatmark.resolve({"text": ""}, max_len=100, max_text_styles=0)
    code: str = e.value.code
    assert (code, e.value.field) == ("text_empty", "text")
    runs: list[Run] = chatmark.normalize(
        "abc", [Run(0, 1, ["b"]), {"start": 1, "len": 1, "st": "i"}]
    )
    assert len(runs) == 2
    n: int = chatmark.utf16_len("😀") + chatmark.utf16_offset("😀", 1) + chatmark.str_index("😀", 2)
    assert n == 5
    imported: Formatted = chatmark.from_commonmark("# Release notes\n\n- **fast**")
    assert imported.text == "Release notes\n\nfast"
    parts: list[Formatted] = chatmark.split(imported, limit=14)
    assert [p.text for p in parts] == ["Release notes", "fast"]
    assert chatmark.split({"text": "a b", "text_styles": []}) == [Formatted("a b")]
    assert chatmark.STYLE_CODES[0] == "b" and isinstance(chatmark.__version__, str)
    assert (
        Formatted("a", [Run(0, 1, "b")]).to_json()
        == '{"text":"a","text_styles":[{"start":0,"len":1,"st":["b"]}]}'
    )


def misuses_the_stub_refuses() -> None:
    """Never called: only type-checked."""
    chatmark.parse_markdown(5)  # type: ignore[arg-type]
    chatmark.parse_html(b"<b>x</b>")  # type: ignore[arg-type]
    chatmark.from_commonmark(None)  # type: ignore[arg-type]
    chatmark.resolve({"text": "x"}, 2000)  # type: ignore[call-arg]
    chatmark.normalize("x", [{"start": 0}], max_text_styles="10")  # type: ignore[arg-type]
    Run(0, 1, "b").start = 2  # type: ignore[misc]
    chatmark.to_html("**x**")  # type: ignore[arg-type]
    chatmark.split(Formatted("x"), "10")  # type: ignore[arg-type]
    y: Formatted = chatmark.split(Formatted("x"))  # type: ignore[assignment]
    x: str = chatmark.utf16_len("x")  # type: ignore[assignment]
    del x, y
