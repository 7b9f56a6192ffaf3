"""Shared paths and readers of the tests: the engine's JSONL cases and the public vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "crates" / "chatmark" / "tests" / "data"
# the public vectors beside the checkout, as CI lays them out
SHARED = REPO.parent / "shared" / "vectors"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The cases of a JSONL file, one per non-empty line."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def cases(*paths: Path) -> list[Any]:
    """Pytest parameters, one per case of the files that exist, named by file and id."""
    import pytest

    out = []
    for p in paths:
        if not p.exists():
            continue
        for c in read_jsonl(p):
            out.append(pytest.param(c, id=f"{p.stem}:{c['id']}"))
    return out
