"""The project's JSONL cases and the public vectors, through the Python API.

Each body is resolved three ways, which must agree with the case and with each other: as a
``dict`` (read from Python values), as JSON text (``str``) and as UTF-8 ``bytes`` (both read
by the engine's JSON reader, as ``chatmark --jsonl`` reads a line). A case that parses
markup is also checked through ``parse_markdown``/``parse_html`` directly. Import cases run
through ``from_commonmark``, split cases through ``split``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import chatmark
from chatmark import ChatmarkError, Formatted
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
    # the project's copies (DATA) are run either way, and are the same files
    if not SHARED.is_dir():
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


def split_message(body: dict[str, Any]) -> Formatted:
    """The message of a split case's body, formatted as ``chatmark split --jsonl`` formats
    it: as ``resolve`` does but with no length limit (long texts are what split is for), an
    empty text, or one empty once formatted, being a message with no text once the other
    fields have passed their checks."""
    try:
        return chatmark.resolve(body, max_len=0)
    except ChatmarkError as e:
        if e.code == "text_empty":
            split_message({**body, "text": " "})  # raises the other fields' errors
            return Formatted("")
        if e.code == "empty_after_formatting":
            return Formatted("")
        raise


def split_outcome(body: dict[str, Any], limit: Any) -> dict[str, Any]:
    """What splitting gives, in the shape of a case's ``expect_parts`` or ``expect_error``;
    the mapping ``{"text", "text_styles"}`` must split as the ``Formatted`` does."""
    try:
        f = split_message(body)
        parts = chatmark.split(f) if limit is None else chatmark.split(f, limit)
    except ChatmarkError as e:
        return {"expect_error": e.code}
    message = f.to_dict()
    assert (chatmark.split(message) if limit is None else chatmark.split(message, limit)) == parts
    return {"expect_parts": [p.to_dict() for p in parts]}


@pytest.mark.parametrize(
    "case", cases(SHARED / "split.jsonl", DATA / "split.jsonl", DATA / "split_cases.jsonl")
)
def test_split(case: dict[str, Any]) -> None:
    """Spec section 8 (S1-S5): each body's message split by ``split(f, limit)``. A
    ``limit`` that JSON writes as a number with no fraction is that int, and an absent or
    null one the default; one of another type, the JSON tool's ``invalid_limit``, is a
    ``TypeError`` from Python."""
    want = {k: case[k] for k in ("expect_parts", "expect_error") if k in case}
    body = dict(case["input"])
    limit = body.pop("limit", None)
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
        assert want == {"expect_error": "invalid_limit"}
        with pytest.raises(TypeError, match="limit must be an int"):
            split_outcome(body, limit)
        return
    assert split_outcome(body, limit) == want, case["rule"]
