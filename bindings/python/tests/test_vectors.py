"""The project's JSONL cases and the public vectors, through the Python API.

Each body is resolved three ways, which must agree with the case and with each other: as a
``dict`` (read from Python values), as JSON text (``str``) and as UTF-8 ``bytes`` (both read
by the engine's JSON reader, as ``chatmark --jsonl`` reads a line). A case that parses
markup is also checked through ``parse_markdown``/``parse_html`` directly.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import chatmark
from chatmark import ChatmarkError
from conftest import DATA, SHARED, cases

# every file of cases `{id, rule, input: body, expect | expect_error}`
RESOLVE_FILES = [
    SHARED / "conformance.jsonl",
    DATA / "conformance.jsonl",
    DATA / "cases.jsonl",
    DATA / "commonmark-emphasis.jsonl",
    DATA / "html_semantics.jsonl",
    DATA / "openclaw-zalo.jsonl",
    DATA / "tdlib-html.jsonl",
    DATA / "html5lib-entities.jsonl",
]


def outcome(body: Any) -> dict[str, Any]:
    """What resolving gives, in the shape of a case's `expect` or `expect_error`."""
    try:
        return {"expect": chatmark.resolve(body).to_dict()}
    except ChatmarkError as e:
        return {"expect_error": e.code}


def test_public_vectors_are_beside_the_checkout() -> None:
    if not SHARED.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the public vectors are missing: {SHARED}")
        pytest.skip(f"no public vectors at {SHARED}")
    for name in ("conformance.jsonl", "split.jsonl", "import.jsonl"):
        assert (SHARED / name).is_file(), name


@pytest.mark.parametrize("case", cases(*RESOLVE_FILES))
def test_resolve(case: dict[str, Any]) -> None:
    want = {k: case[k] for k in ("expect", "expect_error") if k in case}
    body = case["input"]
    as_dict = outcome(body)
    assert as_dict == want, case["rule"]
    assert outcome(json.dumps(body)) == want
    assert outcome(json.dumps(body, ensure_ascii=False).encode()) == want
    assert outcome(bytearray(json.dumps(body).encode())) == want


@pytest.mark.parametrize("case", cases(*RESOLVE_FILES))
def test_parse_directly(case: dict[str, Any]) -> None:
    body = case["input"]
    mode = str(body.get("parse_mode", "")).lower() if isinstance(body, dict) else ""
    if "expect" not in case or mode not in ("markdown", "html"):
        pytest.skip("not a parse")
    parse = chatmark.parse_markdown if mode == "markdown" else chatmark.parse_html
    f = parse(body["text"])
    assert f.to_dict() == case["expect"]
    assert json.loads(f.to_json()) == case["expect"]
    assert chatmark.Formatted(f.text, f.text_styles) == f


@pytest.mark.parametrize("case", cases(DATA / "json_reading.jsonl"))
def test_json_reading(case: dict[str, Any]) -> None:
    """JSON text read as the CLI reads it (N1 by value, L2, R6 while reading, R8)."""
    want = {k: case[k] for k in ("expect", "expect_error") if k in case}
    raw = case["input_json"]
    assert outcome(raw) == want
    assert outcome(raw.encode()) == want
    # the same body from json.loads, where Python reads it as an object (1e400 as inf, a
    # lone surrogate escape as a lone surrogate): the dict path reads values as JSON does
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return
    assert outcome(body) == want


@pytest.mark.parametrize("case", cases(DATA / "render_cases.jsonl"))
def test_render(case: dict[str, Any]) -> None:
    """W1, W2: the renderings, from a dict and from the normalised Formatted alike."""
    msg = case["input"]
    f = chatmark.Formatted(msg["text"], msg["text_styles"])
    html = chatmark.to_html(msg)
    assert html == chatmark.to_html(f)
    if "html" in case:
        assert html == case["html"]
    md = chatmark.to_markdown(msg)
    assert md == chatmark.to_markdown(f)
    if "markdown" in case:
        assert md.markdown == case["markdown"]
    if "lossless" in case:
        assert md.lossless == case["lossless"]
    if md.lossless:
        assert chatmark.parse_markdown(md.markdown) == f
    assert json.loads(md.to_json()) == md.to_dict()


@pytest.mark.parametrize(
    "case", cases(SHARED / "import.jsonl", DATA / "import.jsonl", DATA / "import_rules.jsonl")
)
def test_import(case: dict[str, Any]) -> None:
    """Spec section 9 (M1-M11): from_commonmark over each body's text. Bodies written as
    JSON text are read with json.loads (a lone surrogate escape stays one in the str); the
    JSON tool's own refusals have their Python form: a text that is not a str is a
    TypeError, and there is no body to be missing or not JSON."""
    if case.get("expect_error") == "invalid_json":
        return
    body = case["input"] if "input" in case else json.loads(case["input_json"])
    text = body.get("text")
    if "expect_error" in case:
        if case["expect_error"] == "invalid_text":
            with pytest.raises(TypeError):
                chatmark.from_commonmark(text)
        return
    assert isinstance(text, str)
    f = chatmark.from_commonmark(text)
    assert f.to_dict() == case["expect"], case["rule"]
    assert chatmark.Formatted(f.text, f.text_styles) == f
