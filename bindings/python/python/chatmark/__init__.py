"""chatmark: chat messages in the platform's markdown dialect or HTML subset to plain text
plus canonical ``text_styles`` runs counted in UTF-16 code units, as a bot API's
``sendMessage`` takes them; client runs normalised, whole bodies resolved with clear
errors, messages rendered back to HTML or markdown and long ones split into sendable parts.
One Rust engine, compiled.

>>> import chatmark
>>> f = chatmark.parse_markdown("**Hello** {red}world{/red}")
>>> f.text
'Hello world'
>>> f.to_dict()["text_styles"]
[{'start': 0, 'len': 5, 'st': ['b']}, {'start': 6, 'len': 5, 'st': ['c_db342e']}]
"""

from ._chatmark import (
    STYLE_CODES,
    Formatted,
    Markdown,
    Run,
    Unexpressed,
    __version__,
    from_commonmark,
    normalize,
    parse_html,
    parse_markdown,
    resolve,
    split,
    str_index,
    to_html,
    to_markdown,
    utf16_len,
    utf16_offset,
)
from ._errors import ChatmarkError

__all__ = [
    "STYLE_CODES",
    "ChatmarkError",
    "Formatted",
    "Markdown",
    "Run",
    "Unexpressed",
    "__version__",
    "from_commonmark",
    "normalize",
    "parse_html",
    "parse_markdown",
    "resolve",
    "split",
    "str_index",
    "to_html",
    "to_markdown",
    "utf16_len",
    "utf16_offset",
]
