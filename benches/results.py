#!/usr/bin/env python3
"""The figures of benches/RESULTS.md, measured and written by one script, so that the page
says what is true now: each section is a check's own output, under a line that says when,
at which commit, with which toolchain, on which machine and by which command it was taken.

    python3 benches/results.py run SECTION...   run the sections' commands (all: `all`), keep
                                                each output in target/results/SECTION.txt;
                                                exits with the first failing command's status
    python3 benches/results.py write            rewrite RESULTS.md's sections from those files,
                                                and the README's chart (speed.svg) from the
                                                speed check's
    python3 benches/results.py check            fail when RESULTS.md's instruction counts are
                                                more than 5 % off target/results/instructions.txt
                                                (scripts/test runs the speed check through `run`
                                                and then this)
    python3 benches/results.py list             the sections and their commands

A section of RESULTS.md is the text between `<!-- results:NAME -->` and
`<!-- /results:NAME -->`; everything else on the page is prose that `write` leaves alone.
"""
import datetime
import os
import platform
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PAGE = os.path.join(ROOT, "benches", "RESULTS.md")
KEPT = os.path.join(ROOT, "target", "results")

# name -> (command, environment); commands run from the repository root
SECTIONS = {
    "instructions": (
        "cargo run --profile speed -q -p chatmark-benches --example instructions",
        {},
    ),
    "timed": ("cargo run --profile speed -q -p chatmark-benches --example timed -- 40", {}),
    "memory": ("cargo run --release -q -p chatmark-benches --bin memory", {}),
    "scaling": ("cargo run --release -q -p chatmark-benches --bin scaling", {}),
    "node": ("node benches/node/bench.mjs", {}),
    "sizes": ("node bindings/wasm/scripts/size-check.mjs --print", {}),
    "composer": ("node bindings/wasm/scripts/composer-bench.mjs", {}),
    # after `bash scripts/python`, which builds the wheel and the virtualenv it is tested in
    "python": (
        "target/python/test/bin/python bindings/python/bench/bench.py"
        " --wheel target/python/wheels/chatmark-*-cp39-abi3-*.whl",
        {},
    ),
    "server": ("bash benches/server/load.sh", {}),
}

TOLERANCE = 0.05


def output(cmd):
    try:
        return subprocess.run(
            cmd, shell=True, cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()
    except OSError:
        return ""


def machine():
    """The CPU model and the number of cores, as /proc/cpuinfo gives them."""
    model, cores = platform.machine(), os.cpu_count()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {cores} cores"


def header(command):
    commit = output("git rev-parse --short HEAD") or "unknown"
    if output("git status --porcelain --untracked-files=no"):
        commit += " (with uncommitted changes)"
    rustc = output("rustc --version").replace("rustc ", "") or "unknown"
    node = output("node --version") or "none"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"Measured {date} at `{commit}`, rustc {rustc}, Node {node}, on {machine()}:\n"
        f"`{command}`"
    )


def run(names):
    os.makedirs(KEPT, exist_ok=True)
    status = 0
    for name in names:
        command, env = SECTIONS[name]
        head = header(command)
        print(f"--- results: {name}: {command}", flush=True)
        proc = subprocess.Popen(
            command,
            shell=True,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.PIPE,
            text=True,
        )
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            lines.append(line)
        code = proc.wait()
        with open(os.path.join(KEPT, f"{name}.txt"), "w", encoding="utf-8") as f:
            f.write(head + "\n\n" + "".join(lines).rstrip() + "\n")
        if code != 0 and status == 0:
            status = code
    return status


def section_text(name):
    path = os.path.join(KEPT, f"{name}.txt")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        head, _, body = f.read().partition("\n\n")
    body = body.rstrip()
    # a check that prints a Markdown table (the server's) is shown as the table it is
    if body.startswith("| "):
        return f"{head}\n\n{body}"
    return f"{head}\n\n```text\n{body}\n```"


def write():
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    for name in SECTIONS:
        text = section_text(name)
        if text is None:
            continue
        pattern = re.compile(
            rf"(<!-- results:{name} -->\n)(?:.*?\n)?(<!-- /results:{name} -->)", re.S
        )
        if not pattern.search(page):
            print(f"results: RESULTS.md has no section {name}", file=sys.stderr)
            continue
        page = pattern.sub(lambda m: m.group(1) + text + "\n" + m.group(2), page)
        print(f"results: wrote {name}")
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(page)
    # the README's chart, drawn from the same speed check output
    fresh = os.path.join(KEPT, "instructions.txt")
    if os.path.exists(fresh):
        with open(fresh, encoding="utf-8") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "benches", "chart.py")],
                           stdin=f, check=True)
        print("results: drew benches/speed.svg")


def counts(text):
    """Per case of the speed check, its instructions: `case   1234567   12.17` rows."""
    return {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^([a-z][\w-]*)\s+(\d{5,})\s+[\d.]+\s*$", text, re.M)
    }


def check():
    fresh_path = os.path.join(KEPT, "instructions.txt")
    if not os.path.exists(fresh_path):
        print("results: no fresh speed check output (run: python3 benches/results.py run "
              "instructions)", file=sys.stderr)
        return 1
    with open(fresh_path, encoding="utf-8") as f:
        fresh = counts(f.read())
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    m = re.search(r"<!-- results:instructions -->\n(.*?)\n<!-- /results:instructions -->", page, re.S)
    recorded = counts(m.group(1)) if m else {}
    stale = []
    for case, n in fresh.items():
        was = recorded.get(case)
        if was is None or abs(was - n) > TOLERANCE * n:
            stale.append(f"{case}: RESULTS.md {was}, now {n}")
    if stale:
        print("results: benches/RESULTS.md's instruction counts are stale (more than "
              f"{TOLERANCE:.0%} off); run `python3 benches/results.py run instructions` and "
              "`python3 benches/results.py write`:\n  " + "\n  ".join(stale), file=sys.stderr)
        return 1
    print(f"results: RESULTS.md's instruction counts are within {TOLERANCE:.0%} of the "
          "speed check's")
    return 0


def main(argv):
    if not argv or argv[0] not in ("run", "write", "check", "list"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "list":
        for name, (command, _) in SECTIONS.items():
            print(f"{name:14} {command}")
        return 0
    if argv[0] == "write":
        write()
        return 0
    if argv[0] == "check":
        return check()
    names = list(SECTIONS) if argv[1:] == ["all"] else argv[1:]
    unknown = [n for n in names if n not in SECTIONS]
    if unknown or not names:
        print(f"results: unknown section(s) {unknown}; known: {', '.join(SECTIONS)}",
              file=sys.stderr)
        return 2
    return run(names)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
