"""The documentation's examples, run: every docstring of the package (the extension's
included), the package's README, and the Python quick start of the project's README."""

from __future__ import annotations

import doctest
import re
from types import ModuleType

import chatmark
from chatmark import _chatmark, _errors
from conftest import REPO

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run(test: doctest.DocTest) -> doctest.TestResults:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_docstrings() -> None:
    finder = doctest.DocTestFinder()
    attempted = 0
    modules: list[ModuleType] = [chatmark, _chatmark, _errors]
    for module in modules:
        for test in finder.find(module, extraglobs=vars(chatmark)):
            result = run(test)
            assert result.failed == 0, test.name
            attempted += result.attempted
    assert attempted >= 20


def markdown_examples(path: str) -> list[str]:
    """The ```python blocks of a markdown file."""
    text = (REPO / path).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_package_readme() -> None:
    result = doctest.testfile(
        str(REPO / "bindings" / "python" / "README.md"),
        module_relative=False,
        optionflags=FLAGS,
    )
    assert result.failed == 0
    assert result.attempted >= 10


def test_project_readme_quick_start() -> None:
    blocks = markdown_examples("README.md")
    assert blocks, "the README has a Python quick start"
    parser = doctest.DocTestParser()
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md python block {k}", "README.md", 0)
        result = run(test)
        assert result.failed == 0
        assert result.attempted > 0
