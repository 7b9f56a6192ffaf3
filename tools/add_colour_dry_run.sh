#!/usr/bin/env bash
# Proves CONTRIBUTING.md's "Adding a style code" checklist (issue 22): in a scratch copy of
# the tracked tree, adds the colour {blue} -> c_1e6fd9 with exactly the hand edits the
# checklist lists (one style_codes! row, one tags! row, one PALETTE row, one row() arm),
# regenerates, builds, runs the vocabulary and generated-region tests, and checks that the
# new code reaches both dialects, both renderers and the npm package's generated JS/TS.
# Nothing in the checkout changes. Run by scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$scratch"
cd "$scratch"
# share the checkout's build cache (registry crates are not rebuilt) and its tools venv
export CARGO_TARGET_DIR=$repo/target/add-colour-dry-run
[ -d "$repo/target/py-tools" ] && mkdir -p target && ln -s "$repo/target/py-tools" target/py-tools

python3 - <<'PY'
import re
def edit(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, f"{path}: the checklist's anchor {old!r} is not there once"
    open(path, "w").write(s.replace(old, new))
edit("crates/chatmark/src/vocab/style.rs",
     '    Red = "c_db342e", Colour, "red";\n',
     '    Red = "c_db342e", Colour, "red";\n    Blue = "c_1e6fd9", Colour, "blue";\n')
edit("crates/chatmark/src/vocab/mod.rs",
     '    Green = "green" => Green;\n',
     '    Green = "green" => Green;\n    Blue = "blue" => Blue;\n')
s = open("crates/chatmark/src/vocab/mod.rs").read()
n = int(re.search(r"PALETTE: \[Colour; (\d+)\]", s).group(1))
edit("crates/chatmark/src/vocab/mod.rs", f"PALETTE: [Colour; {n}]", f"PALETTE: [Colour; {n + 1}]")
edit("crates/chatmark/src/vocab/mod.rs",
     "rgb: [0xdb, 0x34, 0x2e] },\n",
     "rgb: [0xdb, 0x34, 0x2e] },\n    Colour { code: StyleCode::Blue, tag: Some(Tag::Blue), rgb: [0x1e, 0x6f, 0xd9] },\n")
edit("crates/chatmark/src/vocab/mod.rs",
     "        StyleCode::Red => Row::inline(Markup::Tag(Tag::Red), \"span\"),\n",
     "        StyleCode::Red => Row::inline(Markup::Tag(Tag::Red), \"span\"),\n"
     "        StyleCode::Blue => Row::inline(Markup::Tag(Tag::Blue), \"span\"),\n")
PY

echo "add-colour dry run: regenerate"
CHATMARK_REGEN=1 cargo test -q -p chatmark --lib generate >/dev/null
bash tools/regen >/dev/null
for f in bindings/wasm/js/engine.js bindings/wasm/index.d.ts bindings/wasm/js/composer.js; do
  grep -q c_1e6fd9 "$f" || { echo "add-colour dry run: $f was not regenerated with c_1e6fd9" >&2; exit 1; }
done
echo "add-colour dry run: build and the vocabulary's own tests"
cargo test -q -p chatmark --lib -- vocab generate style >/dev/null
cargo build -q -p chatmark-cli
cli=$CARGO_TARGET_DIR/debug/chatmark
expect() {
  local got
  got=$("$cli" "$@")
  grep -q c_1e6fd9 <<<"$got" || { echo "add-colour dry run: chatmark $* gave $got" >&2; exit 1; }
}
expect --mode markdown '{blue}sky{/blue}'
expect --mode html '<blue>sky</blue>'
expect --mode html '<span style="color: blue">sky</span>'
expect --mode html '<span style="color:#1e6fd9">sky</span>'
render() {
  local got
  got=$(echo '{"text":"sky","text_styles":[{"start":0,"len":3,"st":["c_1e6fd9"]}]}' | "$cli" render --to "$1")
  grep -qF "$2" <<<"$got" || { echo "add-colour dry run: render --to $1 gave $got, not $2" >&2; exit 1; }
}
render markdown '{blue}sky{/blue}'
render html '#1e6fd9'
echo "add-colour dry run: passed (the checklist's four rows were enough)"
