#!/usr/bin/env python3
"""Structure checks of the engine (issue 47), run by scripts/test:

- no function in `crates/chatmark/src/markdown/` longer than 80 lines (tests included:
  a newcomer reads those too);
- no import circle between the engine's modules: the graph of the `crate::…` and
  `super::…` paths between source files (in `use` or in place, outside tests and
  comments) has no cycle.

Prints what it finds and exits 1 if either check fails.
"""
import os
import re
import sys

ROOT = os.environ.get("CHATMARK_SRC") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "crates", "chatmark", "src"
)
LONGEST = 80


def files():
    for dirpath, _, names in os.walk(ROOT):
        for n in names:
            if n.endswith(".rs"):
                yield os.path.relpath(os.path.join(dirpath, n), ROOT)


def module_of(path):
    """`markdown/scan.rs` -> ("markdown", "scan"); `markdown/mod.rs` -> ("markdown",)."""
    parts = path[:-3].split("/")
    if parts[-1] == "mod" or parts == ["lib"]:
        parts = parts[:-1]
    return tuple(parts)


def strip_literals(line):
    """The line without string and char literals and comments (whose braces don't count)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def long_functions(path):
    src = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(src):
        m = re.match(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?fn\s+(\w+)", line)
        if not m:
            continue
        depth, opened, j = 0, False, i
        while j < len(src):
            code = strip_literals(src[j])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                break
            j += 1
        n = j - i + 1
        if opened and n > LONGEST:
            out.append((m.group(4), i + 1, n))
    return out


def edges():
    mods = {module_of(f): f for f in files()}
    graph = {m: set() for m in mods}
    for m, f in mods.items():
        text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        # tests may reach anywhere: only the code outside `mod tests` counts
        text = re.split(r"\n#\[cfg\(test\)\]\s*\nmod tests", text)[0]
        # code only: every path through `crate::` or `super::`, in `use` or in place
        text = "\n".join(strip_literals(l) for l in text.split("\n"))
        base = m if f.endswith("mod.rs") or f == "lib.rs" else m[:-1]
        for u in re.finditer(r"\b(crate|super)((?:::\w+)+)", text):
            path = [p for p in u.group(2).split("::") if p]
            start = () if u.group(1) == "crate" else base[:-1] if f.endswith("mod.rs") else base
            if u.group(1) == "super" and not f.endswith("mod.rs"):
                start = m[:-1]
            target = tuple(start) + tuple(path)
            # the longest prefix that is a module
            while target and target not in mods:
                target = target[:-1]
            if target and target != m and target != ():
                # a file's own parent module (its mod.rs) is not an edge worth a circle
                if target == m[: len(target)]:
                    continue
                graph[m].add(target)
    return graph


def cycles(graph):
    found, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for t in sorted(graph[n]):
            if state.get(t) == 1:
                found.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return found


def main():
    bad = False
    for f in sorted(files()):
        if f.startswith("markdown/"):
            for name, line, n in long_functions(f):
                print(f"{f}:{line}: fn {name} is {n} lines (at most {LONGEST})")
                bad = True
    for c in cycles(edges()):
        print("import circle: " + " -> ".join("/".join(m) or "lib" for m in c))
        bad = True
    if not bad:
        print(f"structure: no function over {LONGEST} lines in markdown/, no import circle")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
