#!/usr/bin/env python3
"""Checks the workspace's declared `rust-version` (Cargo.toml) against what it depends on.

`python3 tools/check_rust_version.py` (run by scripts/test). Fails when a crate in the
normal (non-dev, non-build-only) dependency closure of a workspace library, all features
on, declares a newer `rust-version` than the workspace: that is what a user building the
library with the declared toolchain compiles. The workspace's own code is checked by
clippy's `incompatible_msrv` lint, which reads the same field (std APIs newer than it).
Dev-dependencies (proptest, criterion) may need a newer toolchain: they only build tests.
"""
import json
import subprocess
import sys

LIBRARIES = ["chatmark"]


def version(v):
    return tuple(int(x) for x in (v.split(".") + ["0", "0"])[:3])


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked", "--all-features"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    pkgs = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    by_name = {pkgs[i]["name"]: i for i in meta["workspace_members"]}
    failures = []
    for lib in LIBRARIES:
        declared = pkgs[by_name[lib]].get("rust_version")
        if not declared:
            sys.exit(f"{lib}: no rust-version declared")
        seen, todo = set(), [by_name[lib]]
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            for dep in nodes[pid]["deps"]:
                if any(k["kind"] is None for k in dep["dep_kinds"]):
                    todo.append(dep["pkg"])
        for pid in sorted(seen):
            p = pkgs[pid]
            rv = p.get("rust_version")
            if rv and version(rv) > version(declared):
                failures.append(f"{lib} {declared}: {p['name']} {p['version']} needs {rv}")
        print(f"{lib}: rust-version {declared} covers its {len(seen) - 1} dependencies")
    if failures:
        sys.exit("rust-version too old:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
