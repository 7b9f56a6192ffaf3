"""Property tests (hypothesis): whatever the input, every result is canonical (C1-C6), its
runs lie inside the text, and its offsets are the UTF-16 offsets Python's own
``text.encode("utf-16-le")`` gives; renderings read back (W1, W2); split parts fit, lose
nothing but white space at their cuts and keep every character's codes (S1-S4)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import chatmark
from chatmark import Formatted, Run

FAMILIES = [
    ("b",),
    ("i",),
    ("u",),
    ("s",),
    ("f_13", "f_15", "f_18", "f_20"),
    ("c_050a19", "c_15a85f", "c_f7b503", "c_f27806", "c_db342e"),
    ("lst_1", "lst_2"),
    ("ind_1", "ind_2", "ind_3", "ind_4", "ind_5"),
]
ORDER = {c: k for k, c in enumerate(chatmark.STYLE_CODES)}

# text that is mostly markup: the dialects' syntax, line breaks, and characters whose UTF-16
# length differs from their length in Python (emoji, flags, joiners) or that change the
# flanking rules (punctuation, combining marks, CJK)
PIECES = [
    "**", "*", "_", "__", "~~", "~", "`", "```", "\\", "{red}", "{/red}", "<green>",
    "</green>", "{big}", "{/big}", "<b>", "</b>", "<i>", "</i>", "<ul><li>", "</li>", "<br>",
    "&amp;", "&#128512;", "# ", "- ", "1. ", "> ", "  ", "\n", "\r\n", " ", "a", "word",
    "😀", "👩‍👩‍👧", "🇻🇳", "é", "e\u0301", "日本", "。", ".", "!", "\t", "\u2028",
    '<span style="color:red;font-weight:bold">', "</span>",
]  # fmt: skip
markupish = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)
any_text = st.text() | markupish
# code points of every kind, lone surrogates included (as surrogatepass or surrogateescape
# strings hold them)
with_surrogates = st.lists(st.integers(0, 0x10FFFF), max_size=30).map(
    lambda cps: "".join(map(chr, cps))
)


def units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def assert_canonical(f: Formatted) -> None:
    text = f.text
    raw = text.encode("utf-16-le")  # the engine's text is always well formed
    n = len(raw) // 2
    assert chatmark.utf16_len(text) == n
    prev: Run | None = None
    for r in f.text_styles:
        assert r.len >= 1 and r.st  # C2
        assert r.end <= n  # C6
        for b in (r.start, r.end):  # C5
            if b < n:
                unit = int.from_bytes(raw[2 * b : 2 * b + 2], "little")
                assert not 0xDC00 <= unit <= 0xDFFF
        # C4: table order, one code per family
        assert list(r.st) == sorted(r.st, key=ORDER.__getitem__)
        for fam in FAMILIES[4:]:
            assert sum(c in fam for c in r.st) <= 1
        if prev is not None:
            assert r.start >= prev.end  # C1
            assert not (r.start == prev.end and r.st == prev.st)  # C3
        prev = r
        # the offsets agree with Python's: the run's text, cut by index, has its length
        a, b = chatmark.str_index(text, r.start), chatmark.str_index(text, r.end)
        assert units(text[a:b]) == r.len
        assert chatmark.utf16_offset(text, a) == r.start


@given(any_text)
def test_parse_markdown_is_canonical(text: str) -> None:
    f = chatmark.parse_markdown(text)
    assert_canonical(f)
    assert Formatted(f.text, f.text_styles) == f


@given(any_text)
def test_parse_html_is_canonical(text: str) -> None:
    assert_canonical(chatmark.parse_html(text))


@given(any_text)
def test_from_commonmark_is_canonical_m11(text: str) -> None:
    assert_canonical(chatmark.from_commonmark(text))


@given(with_surrogates | markupish)
def test_lone_surrogates_keep_offsets_aligned_l2(text: str) -> None:
    f = chatmark.parse_markdown(text)
    assert_canonical(f)
    # a str without markup comes back with each lone surrogate as one U+FFFD
    plain = chatmark.resolve({"text": text}, max_len=0) if text else None
    if plain is not None:
        assert units(plain.text) == units(text)


raw_runs = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "start": st.integers(-5, 40)
            | st.floats(allow_nan=True)
            | st.none()
            | st.text(max_size=2),
            "len": st.integers(-5, 40) | st.floats(allow_nan=True) | st.booleans(),
            "st": st.lists(
                st.sampled_from([*chatmark.STYLE_CODES, "x", ""]) | st.integers(), max_size=4
            )
            | st.sampled_from(["b", "b, i", "c_db342e,lst_1", "nope"]),
        },
    ),
    max_size=12,
)


@given(any_text, raw_runs)
def test_normalize_is_canonical_n1_n6(text: str, runs: list[dict[str, Any]]) -> None:
    f = Formatted(text, chatmark.normalize(text, runs))
    assert f.text == text
    assert_canonical(f)
    # normalising is idempotent, and a dict body resolves to the same runs
    assert chatmark.normalize(text, f.text_styles) == f.text_styles
    if text:
        assert chatmark.resolve({"text": text, "text_styles": runs}, max_len=0) == f


@given(any_text, raw_runs)
def test_renderings_read_back_w1_w2(text: str, runs: list[dict[str, Any]]) -> None:
    f = Formatted(text, runs)
    html = chatmark.to_html(f)
    assert "<script" not in html.lower()
    md = chatmark.to_markdown(f)
    if md.lossless:
        assert chatmark.parse_markdown(md.markdown) == f
    for u in md.unexpressed:
        assert u.start >= 0 and u.start + u.len <= chatmark.utf16_len(text)


@settings(max_examples=200)
@given(with_surrogates, st.data())
def test_offset_helpers_agree_with_python(text: str, data: st.DataObject) -> None:
    n = units(text)
    assert chatmark.utf16_len(text) == n
    i = data.draw(st.integers(0, len(text)))
    off = chatmark.utf16_offset(text, i)
    assert off == units(text[:i])
    assert chatmark.str_index(text, off) == i


# Unicode's White_Space (what S2 drops at a cut), which str.isspace() is not: it also takes
# the separators U+001C to U+001F
WHITE_SPACE = set("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}
# texts with the cuts S3 looks for: paragraphs, lines, sentences, words, clusters
SPLIT_PIECES = [
    "\n\n", "\n", ". ", "! ", "。", " ", "  ", "\u3000", "word", "a", "😀", "👩‍👩‍👧",
    "e\u0301", "**", "_", "- ", "{red}", "{/red}",
]  # fmt: skip
splittable = st.lists(st.sampled_from(SPLIT_PIECES) | st.text(max_size=3), max_size=60).map("".join)


def unit_codes(f: Formatted) -> list[frozenset[str]]:
    """The codes of each UTF-16 unit of the text."""
    out: list[frozenset[str]] = [frozenset()] * chatmark.utf16_len(f.text)
    for r in f.text_styles:
        out[r.start : r.end] = [frozenset(r.st)] * r.len
    return out


@given(splittable, raw_runs, st.integers(2, 40))
def test_split_parts_fit_and_lose_only_white_space_s1_s4(
    text: str, runs: list[dict[str, Any]], limit: int
) -> None:
    f = Formatted(text, runs)
    if text.startswith(("- ", "**", "_", "{")):
        f = chatmark.parse_markdown(text)
    parts = chatmark.split(f, limit)
    assert chatmark.split(f, limit) == parts  # S5: the same parts every time
    if chatmark.utf16_len(f.text) <= limit:
        assert parts == ([f] if f.text else [])  # S1
    codes = unit_codes(f)
    at = 0  # where the next part may start in f.text
    for p in parts:
        assert_canonical(p)  # S4: canonical
        assert 1 <= chatmark.utf16_len(p.text) <= limit  # S1
        k = f.text.index(p.text, at)
        assert set(f.text[at:k]) <= WHITE_SPACE  # S2: only white space dropped
        start = chatmark.utf16_offset(f.text, k)
        n = chatmark.utf16_len(p.text)
        assert unit_codes(p) == codes[start : start + n]  # S4: codes follow characters
        at = k + len(p.text)
    assert set(f.text[at:]) <= WHITE_SPACE
