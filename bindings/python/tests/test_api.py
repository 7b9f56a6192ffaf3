"""The Python API's own behaviour: the value types, how Python values are read as the spec
reads JSON (N1, N2, N6, R1-R8), the errors, the offset helpers and the GIL."""

from __future__ import annotations

import copy
import json
import pickle
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import chatmark
from chatmark import ChatmarkError, Formatted, Run


def codes(runs: list[Run]) -> list[tuple[int, int, tuple[str, ...]]]:
    return [(r.start, r.len, r.st) for r in runs]


# --- Run -----------------------------------------------------------------------------


def test_run_is_a_frozen_hashable_value() -> None:
    r = Run(6, 5, ["c_db342e", "b"])
    assert (r.start, r.len, r.end, r.st) == (6, 5, 11, ("b", "c_db342e"))  # C4 order
    assert r == Run(6, 5, "b, c_db342e") == Run(6, 5, ("b", "c_db342e"))
    assert r != Run(6, 5, "b")
    assert r != {"start": 6, "len": 5, "st": ["b", "c_db342e"]}
    assert len({r, Run(6, 5, ["b", "c_db342e"])}) == 1
    with pytest.raises(AttributeError):
        r.start = 1  # type: ignore[misc]


def test_run_reads_like_its_json() -> None:
    r = Run(6, 5, ["b", "c_db342e"])
    assert repr(r) == 'Run(start=6, len=5, st=["b", "c_db342e"])'
    assert r.to_dict() == {"start": 6, "len": 5, "st": ["b", "c_db342e"]}
    assert r.to_json() == '{"start":6,"len":5,"st":["b","c_db342e"]}'
    assert eval(repr(r), {"Run": Run}) == r


def test_run_pickles_copies_and_matches() -> None:
    r = Run(1, 2, "i")
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r) == r
    assert Run.__match_args__ == ("start", "len", "st")


def test_run_one_code_per_family_the_later_wins_1_3() -> None:
    assert Run(0, 1, ["c_db342e", "c_15a85f", "f_13", "f_20"]).st == ("f_20", "c_15a85f")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((-1, 1, "b"), ValueError),
        ((0, -1, "b"), ValueError),
        ((0, 1, "bold"), ValueError),
        ((0, 1, ["b", "B"]), ValueError),
        ((0.0, 1, "b"), TypeError),
        ((True, 1, "b"), TypeError),
        (("0", 1, "b"), TypeError),
        ((0, 1, [1]), TypeError),
        ((0, 1, None), TypeError),
        ((0, 1, 5), TypeError),
        ((2**70, 1, "b"), ValueError),
    ],
)
def test_run_refuses_what_is_not_a_run(args: tuple[Any, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        Run(*args)


# --- Formatted -----------------------------------------------------------------------


def test_formatted_is_canonical_by_construction_n5() -> None:
    f = Formatted("abcd", [{"start": 0, "len": 2, "st": ["b"]}, Run(2, 2, "b")])
    assert codes(f.text_styles) == [(0, 4, ("b",))]  # C3: touching equal runs merge
    assert Formatted("ab") == Formatted("ab", []) == Formatted("ab", None)
    assert Formatted("ab").text_styles == []


def test_formatted_values() -> None:
    f = chatmark.parse_markdown("Hello **world** 😀")
    assert f.text == "Hello world 😀"
    assert (
        repr(f) == 'Formatted(text="Hello world 😀", text_styles=[Run(start=6, len=5, st=["b"])])'
    )
    assert f.to_dict() == {
        "text": "Hello world 😀",
        "text_styles": [{"start": 6, "len": 5, "st": ["b"]}],
    }
    assert json.loads(f.to_json()) == f.to_dict()
    assert f == Formatted(f.text, f.text_styles)
    assert hash(f) == hash(Formatted(f.text, f.text_styles))
    assert f != chatmark.parse_markdown("Hello world 😀")
    assert pickle.loads(pickle.dumps(f)) == f
    # a new list each time: changing it changes nothing
    f.text_styles.clear()
    assert len(f.text_styles) == 1
    assert Formatted.__match_args__ == ("text", "text_styles")


def test_unchanged_text_is_the_input_str() -> None:
    s = "nothing to format here " * 3
    assert chatmark.parse_markdown(s).text is s
    assert chatmark.resolve({"text": s}).text is s
    assert chatmark.parse_markdown("**x**").text == "x"


def test_formatted_refuses_a_non_list_n6() -> None:
    with pytest.raises(ChatmarkError) as e:
        Formatted("ab", {"start": 0})  # type: ignore[arg-type]
    assert (e.value.code, e.value.field) == ("invalid_text_styles", "text_styles")
    with pytest.raises(TypeError):
        Formatted(5)  # type: ignore[arg-type]


# --- normalize: Python values read as JSON values (N1, N2, N6) ----------------------


@pytest.mark.parametrize(
    ("start", "kept"),
    [
        (1, True),
        (1.0, True),
        (-0.0, True),
        (1.5, False),
        ("1", False),
        (True, False),
        (None, False),
        ([1], False),
        (float("nan"), False),
    ],
)
def test_normalize_n1_integral_by_value(start: Any, kept: bool) -> None:
    runs = chatmark.normalize("abc", [{"start": start, "len": 1, "st": ["b"]}])
    assert bool(runs) is kept


def test_normalize_n1_saturates() -> None:
    for big in (2**70, float("inf"), 10**400):
        assert codes(chatmark.normalize("ab", [{"start": 0, "len": big, "st": "b"}])) == [
            (0, 2, ("b",))
        ]
        assert codes(chatmark.normalize("ab", [{"start": -5, "len": big, "st": "b"}])) == [
            (0, 2, ("b",))
        ]
    for small in (-(2**70), float("-inf")):
        # the ends saturate: -2^63 + (2^63 - 1) = -1, an empty range (N3)
        assert chatmark.normalize("ab", [{"start": small, "len": 2**70, "st": "b"}]) == []
    assert chatmark.normalize("ab", [{"start": float("inf"), "len": 1, "st": "b"}]) == []


@pytest.mark.parametrize(
    ("st", "want"),
    [
        (["b", "i"], ("b", "i")),
        (("b", "i"), ("b", "i")),
        ("b, i", ("b", "i")),
        ([1, None, "i", {"x": 1}], ("i",)),
        (["B", "bold"], None),
        ([], None),
        (None, None),
        (5, None),
        ({"b": 1}, None),
    ],
)
def test_normalize_n2_codes(st: Any, want: tuple[str, ...] | None) -> None:
    runs = chatmark.normalize("ab", [{"start": 0, "len": 2, "st": st}])
    assert codes(runs) == ([] if want is None else [(0, 2, want)])


def test_normalize_entries_of_any_kind() -> None:
    class Styles(Mapping[str, Any]):
        def __init__(self, **kw: Any) -> None:
            self._d = kw

        def __getitem__(self, k: str) -> Any:
            return self._d[k]

        def __iter__(self) -> Iterator[str]:
            return iter(self._d)

        def __len__(self) -> int:
            return len(self._d)

    runs: list[Any] = [
        "junk",
        5,
        None,
        [0, 1, "b"],
        {},
        OrderedDict(start=0, len=1, st=["u"]),
        Styles(start=1, len=1, st="s"),
        Run(2, 1, "i"),
    ]
    got = chatmark.normalize("abc", runs)
    assert codes(got) == [(0, 1, ("u",)), (1, 1, ("s",)), (2, 1, ("i",))]
    assert chatmark.normalize("abc", tuple(runs)) == got


def test_normalize_n3_n4_n5() -> None:
    # N3 clamp, N4 surrogate pairs whole, N5 later wins and line codes off line breaks
    text = "a😀b\nc"
    runs = [
        {"start": 2, "len": 1, "st": ["b"]},
        {"start": -3, "len": 2, "st": ["c_db342e"]},
        {"start": 0, "len": 1, "st": ["c_15a85f"]},
        {"start": 0, "len": 99, "st": ["lst_1"]},
    ]
    assert codes(chatmark.normalize(text, runs)) == [
        (0, 1, ("c_15a85f", "lst_1")),
        (1, 2, ("b", "lst_1")),
        (3, 1, ("lst_1",)),
        (5, 1, ("lst_1",)),
    ]


def test_normalize_errors_n6_r6() -> None:
    for bad in ({"start": 0}, "b", 5, None, {0, 1}):
        with pytest.raises(ChatmarkError) as e:
            chatmark.normalize("ab", bad)  # type: ignore[arg-type]
        assert e.value.code == "invalid_text_styles"
    many: list[dict[str, Any]] = [{}] * 10_001
    with pytest.raises(ChatmarkError) as e:
        chatmark.normalize("ab", many)
    assert e.value.code == "too_many_text_styles"
    assert chatmark.normalize("ab", many[:10_000]) == []
    assert chatmark.normalize("ab", many, max_text_styles=0) == []
    with pytest.raises(ChatmarkError):
        chatmark.normalize("ab", [{}] * 3, max_text_styles=2)
    with pytest.raises(ValueError, match="max_text_styles"):
        chatmark.normalize("ab", [], max_text_styles=-1)


# --- resolve -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "missing_text", "text"),
        ({"text": None}, "missing_text", "text"),
        ({"text": 5}, "invalid_text", "text"),
        ({"text": b"x"}, "invalid_text", "text"),
        ({"text": ""}, "text_empty", "text"),
        ({"text": "x" * 2001}, "text_too_long", "text"),
        ({"text": "x", "parse_mode": "MarkdownV2"}, "invalid_parse_mode", "parse_mode"),
        ({"text": "x", "parse_mode": 1}, "invalid_parse_mode", "parse_mode"),
        ({"text": "x", "parse_mode": "plain"}, "invalid_parse_mode", "parse_mode"),
        ({"text": "x", "text_styles": {}}, "invalid_text_styles", "text_styles"),
        ({"text": "x", "text_styles": [{}] * 10_001}, "too_many_text_styles", "text_styles"),
        ({"text": "- ", "parse_mode": "markdown"}, "empty_after_formatting", "text"),
        ({"text": "", "parse_mode": "x", "text_styles": 5}, "text_empty", "text"),  # R8
        ([1, 2], "missing_text", "text"),
        (None, "missing_text", "text"),
        ("{oops", "invalid_json", "body"),
        (b"\xff\xfe{", "invalid_json", "body"),
    ],
)
def test_resolve_errors(body: Any, code: str, field: str) -> None:
    with pytest.raises(ChatmarkError) as e:
        chatmark.resolve(body)
    assert (e.value.code, e.value.field) == (code, field)
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith(f"{code} ({field}): ")
    if isinstance(body, dict) and not isinstance(body.get("text"), bytes):
        with pytest.raises(ChatmarkError) as e2:
            chatmark.resolve(json.dumps(body))
        assert e2.value.to_dict() == e.value.to_dict()


def test_resolve_modes_and_ignored_runs_r2_r3() -> None:
    want = {"text": "hi", "text_styles": [{"start": 0, "len": 2, "st": ["b"]}]}
    for body in (
        {"text": "<b>hi</b>", "parse_mode": "HTML"},
        {"text": "**hi**", "parse_mode": "Markdown", "text_styles": "not validated"},
        {"text": "**hi**", "parse_mode": "markdown", "text_styles": [{}] * 20_000},
        {"text": "hi", "text_styles": [{"start": 0, "len": 2, "st": ["b"]}]},
        {"text": "hi", "parse_mode": None, "text_styles": [Run(0, 2, "b")]},
    ):
        assert chatmark.resolve(body).to_dict() == want, body
    assert chatmark.resolve({"text": "**hi**"}).text == "**hi**"


def test_resolve_limits() -> None:
    assert chatmark.resolve({"text": "x" * 5000}, max_len=0).text == "x" * 5000
    assert chatmark.resolve({"text": "😀" * 1000}).text == "😀" * 1000  # 2000 units
    with pytest.raises(ChatmarkError):
        chatmark.resolve({"text": "😀" * 1000 + "x"})
    with pytest.raises(ChatmarkError):
        chatmark.resolve({"text": "abc"}, max_len=2)
    assert (
        chatmark.resolve({"text": "a", "text_styles": [{}] * 20_000}, max_text_styles=0).text == "a"
    )
    with pytest.raises(ValueError, match="max_len"):
        chatmark.resolve({"text": "a"}, max_len=-1)
    with pytest.raises(TypeError):
        chatmark.resolve({"text": "a"}, max_len="5")  # type: ignore[arg-type]


def test_resolve_chat_id_r5() -> None:
    for ok in (1, -100123, "@channel", 2**80, 3.0):
        assert chatmark.resolve({"chat_id": ok, "text": "x"}, check_chat_id=True).text == "x"
        assert (
            chatmark.resolve(json.dumps({"chat_id": ok, "text": "x"}), check_chat_id=True).text
            == "x"
        )
    bads: tuple[Any, ...] = (None, "", True, 1.5, [1], {})
    for bad in bads:
        with pytest.raises(ChatmarkError) as e:
            chatmark.resolve({"chat_id": bad, "text": "x"}, check_chat_id=True)
        assert (e.value.code, e.value.field) == ("missing_chat_id", "chat_id")
    with pytest.raises(ChatmarkError) as e:
        chatmark.resolve({"text": ""}, check_chat_id=True)  # R8: R5 first
    assert e.value.code == "missing_chat_id"
    assert chatmark.resolve({"text": "x"}).text == "x"  # not asked


def test_resolve_body_types() -> None:
    body = {"text": "**a** 😀", "parse_mode": "markdown", "extra": object()}
    want = chatmark.resolve(body)
    assert chatmark.resolve(OrderedDict(body)) == want
    js = '{"text": "**a** 😀", "parse_mode": "markdown"}'
    assert chatmark.resolve(js) == want
    assert chatmark.resolve(js.encode()) == want
    assert chatmark.resolve(b"\xef\xbb\xbf" + js.encode()) == want  # a BOM
    assert chatmark.resolve(bytearray(js.encode())) == want
    for bad in (object(), {1, 2}, 1j):
        with pytest.raises(TypeError, match="body must be"):
            chatmark.resolve(bad)  # type: ignore[arg-type]


# --- rendering -----------------------------------------------------------------------


def test_render_from_formatted_or_mapping_w1_w2() -> None:
    f = chatmark.parse_markdown("**a** {red}b{/red}\n- item")
    assert chatmark.to_html(f) == chatmark.to_html(f.to_dict())
    assert chatmark.parse_html(chatmark.to_html(f)) == f  # W1
    md = chatmark.to_markdown(f)
    assert md.lossless and md.unexpressed == []
    assert chatmark.parse_markdown(md.markdown) == f  # W2
    assert str(md) == md.markdown
    lossy = chatmark.to_markdown(
        {"text": "ab", "text_styles": [{"start": 1, "len": 1, "st": ["f_13"]}]}
    )
    assert not lossy.lossless
    [u] = lossy.unexpressed
    assert (u.start, u.len, u.what, u.code) == (1, 1, "code", "f_13")
    assert u.to_dict() == {"start": 1, "len": 1, "what": "code", "code": "f_13"}
    assert lossy.to_dict() == json.loads(lossy.to_json())
    assert repr(lossy) == (
        'Markdown(markdown="ab", lossless=False, '
        'unexpressed=[Unexpressed(start=1, len=1, what="code", code="f_13")])'
    )
    with pytest.raises(TypeError):
        hash(lossy)


def test_render_errors() -> None:
    for bad, code in (({}, "missing_text"), ({"text": 1}, "invalid_text")):
        with pytest.raises(ChatmarkError) as e:
            chatmark.to_html(bad)
        assert e.value.code == code
    with pytest.raises(ChatmarkError) as e:
        chatmark.to_markdown({"text": "a", "text_styles": [{}] * 10_001})
    assert e.value.code == "too_many_text_styles"
    with pytest.raises(TypeError):
        chatmark.to_html("**a**")  # type: ignore[arg-type]


# --- split ---------------------------------------------------------------------------


def test_split_parts_s1_s4() -> None:
    f = chatmark.parse_markdown("**First** part here. Second part, *longer* than that.")
    parts = chatmark.split(f, 30)
    assert [p.text for p in parts] == ["First part here.", "Second part, longer than that."]
    assert codes(parts[0].text_styles) == [(0, 5, ("b",))]
    assert codes(parts[1].text_styles) == [(13, 6, ("i",))]  # shifted to its part (S4)
    assert all(isinstance(p, Formatted) for p in parts)
    # a text that fits is one part equal to the input; an empty text none (S1)
    assert chatmark.split(f) == [f]
    assert chatmark.split(f, limit=2000) == [f]
    assert chatmark.split(Formatted("")) == []
    assert chatmark.split({"text": ""}, 2) == []
    # the mapping form is normalised first, as the renderings read it
    runs = [{"start": 0, "len": 99, "st": "b"}]
    assert chatmark.split({"text": "one two", "text_styles": runs}, 4) == [
        Formatted("one", [Run(0, 3, "b")]),
        Formatted("two", [Run(0, 3, "b")]),
    ]


def test_split_line_codes_stay_on_both_parts_s4() -> None:
    f = chatmark.parse_markdown("- a list item long enough to be cut in two")
    parts = chatmark.split(f, 24)
    assert len(parts) == 2
    for p in parts:
        assert codes(p.text_styles) == [(0, chatmark.utf16_len(p.text), ("lst_1",))]


def test_split_counts_utf16_units_s1() -> None:
    # four emoji are eight units: a limit of 4 holds two, never half a pair (C5)
    parts = chatmark.split(Formatted("😀😀😀😀"), 4)
    assert [p.text for p in parts] == ["😀😀", "😀😀"]
    assert [p.text for p in chatmark.split(Formatted("😀😀😀"), 2)] == ["😀", "😀", "😀"]


@pytest.mark.parametrize("limit", [0, 1, -1, -(2**70)])
def test_split_invalid_limit_s1(limit: int) -> None:
    with pytest.raises(ChatmarkError) as e:
        chatmark.split(Formatted("text"), limit)
    assert (e.value.code, e.value.field) == ("invalid_limit", "limit")
    assert str(limit) in e.value.message
    with pytest.raises(ChatmarkError):
        chatmark.split(Formatted(""), limit)  # even with nothing to split


def test_split_argument_types() -> None:
    f = Formatted("one two")
    assert chatmark.split(f, 2**70) == [f]  # past the machine's range: no limit
    assert chatmark.split(f, None) == [f]  # type: ignore[arg-type]
    for bad in (4.0, "4", True, [4]):
        with pytest.raises(TypeError, match="limit must be an int"):
            chatmark.split(f, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        chatmark.split("one two", 4)  # type: ignore[arg-type]
    with pytest.raises(ChatmarkError) as e:
        chatmark.split({"text": 5}, 4)
    assert e.value.code == "invalid_text"


# --- errors --------------------------------------------------------------------------


def test_chatmark_error_is_a_plain_value() -> None:
    try:
        chatmark.resolve({"text": ""})
    except ChatmarkError as e:
        err = e
    assert err.args == ("text_empty", "text", "text must not be empty")
    again = pickle.loads(pickle.dumps(err))
    assert again.to_dict() == err.to_dict()
    assert type(err).__module__ == "chatmark._errors"


# --- offsets -------------------------------------------------------------------------


def test_utf16_helpers() -> None:
    s = "a😀b\U0001f44d🏽é"
    assert chatmark.utf16_len(s) == len(s.encode("utf-16-le")) // 2 == 9
    assert [chatmark.utf16_offset(s, i) for i in range(len(s) + 1)] == [0, 1, 3, 4, 6, 8, 9]
    assert [chatmark.str_index(s, o) for o in (0, 1, 3, 4, 6, 8, 9)] == list(range(len(s) + 1))
    with pytest.raises(ValueError, match="surrogate pair"):
        chatmark.str_index(s, 2)
    for bad in (-1, len(s) + 1):
        with pytest.raises(IndexError):
            chatmark.utf16_offset(s, bad)
    with pytest.raises(IndexError):
        chatmark.str_index(s, 10)
    with pytest.raises(TypeError):
        chatmark.utf16_len(b"ab")  # type: ignore[arg-type]


def test_utf16_helpers_count_surrogates_as_python_holds_them() -> None:
    # lone surrogates (from surrogatepass or surrogateescape) are one unit and one index each
    s = "a\ud800b\udcff" + "\ud83d\ude00"  # the last two: two code points, not one emoji
    assert len(s) == 6
    assert chatmark.utf16_len(s) == len(s.encode("utf-16-le", "surrogatepass")) // 2 == 6
    assert [chatmark.utf16_offset(s, i) for i in range(7)] == list(range(7))
    assert [chatmark.str_index(s, o) for o in range(7)] == list(range(7))


def test_lone_surrogates_become_replacement_characters_l2() -> None:
    f = chatmark.parse_markdown("**a\ud800 b**")
    want = {"text": "a\ufffd b", "text_styles": [{"start": 0, "len": 4, "st": ["b"]}]}
    assert f.to_dict() == want
    assert chatmark.parse_html("<i>\udcff</i>").text == "\ufffd"
    assert chatmark.from_commonmark("*\ud800*").to_dict() == {
        "text": "\ufffd",
        "text_styles": [{"start": 0, "len": 1, "st": ["i"]}],
    }
    assert chatmark.resolve({"text": "x\ud800"}).text == "x\ufffd"
    assert chatmark.normalize("a\ud800b", [{"start": 1, "len": 1, "st": ["b\ud800", "i"]}]) == [
        Run(1, 1, "i")
    ]


def test_module_constants() -> None:
    assert chatmark.STYLE_CODES[:4] == ("b", "i", "u", "s")
    assert len(chatmark.STYLE_CODES) == 20
    assert chatmark.__version__.count(".") == 2
    public = {n for n in dir(chatmark) if not n.startswith("_")}
    assert set(chatmark.__all__) == public | {"__version__"}


# --- the GIL -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [chatmark.parse_markdown, lambda t: chatmark.split(Formatted(t), 2000)],
    ids=["parse_markdown", "split"],
)
def test_long_texts_release_the_gil(call: Callable[[str], object]) -> None:
    """Another thread runs while the engine works on a long text. Python never takes the
    GIL from a thread by itself here (a switch interval of 100 s), so the other thread can
    run during the call only if the call releases it."""
    text = "**bold** and _it_ {red}red{/red}\n" * 200_000  # 6.8 MB
    stamps: list[float] = []
    window: list[float] = []
    done = threading.Event()

    def work() -> None:
        window.append(time.perf_counter())
        call(text)
        window.append(time.perf_counter())
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        t = threading.Thread(target=work)
        t.start()
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0)  # lets the working thread take the GIL
        t.join()
    finally:
        sys.setswitchinterval(old)
    start, end = window
    assert any(start < s < end for s in stamps)
