"""The error of a refused input: ``ChatmarkError(code, field, message)`` (spec R7)."""

from __future__ import annotations


class ChatmarkError(ValueError):
    """An input the engine refuses, with the stable ``code`` of the ``chatmark --jsonl``
    contract (``missing_text``, ``text_too_long``, ``invalid_parse_mode``,
    ``invalid_text_styles``, ``too_many_text_styles``, ``empty_after_formatting``,
    ``invalid_json``, ``missing_chat_id``, ``invalid_limit``, …), the ``field`` it concerns
    and a human ``message``.

    >>> e = ChatmarkError("text_empty", "text", "text must not be empty")
    >>> str(e)
    'text_empty (text): text must not be empty'
    >>> e.to_dict()
    {'code': 'text_empty', 'field': 'text', 'message': 'text must not be empty'}
    """

    code: str
    field: str
    message: str

    def __init__(self, code: str, field: str, message: str) -> None:
        super().__init__(code, field, message)
        self.code = code
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.code} ({self.field}): {self.message}"

    def to_dict(self) -> dict[str, str]:
        """The wire shape of the error, as ``chatmark --jsonl`` writes it under ``"error"``."""
        return {"code": self.code, "field": self.field, "message": self.message}
