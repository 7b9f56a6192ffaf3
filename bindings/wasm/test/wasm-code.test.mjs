// The built wasm loads its SIMD registers whole (issue 21). A vector built from separate
// units (`u16x8(a, …, h)` of units destructured from a slice) compiles to one
// `v128.load16_lane` per unit: sixteen loads where one `v128.load` does, which cost the
// npm package 7% of `parseMarkdown`'s time in the markup search, the lone-surrogate test
// and the "unchanged" compare before it was seen. Nor does it shift or shuffle bytes: x64 has
// no byte shift, and V8 spells `i8x16.shl`, `i8x16.shr_s` and most shuffles in three to six
// instructions each (LLVM made them from compare masks or-ed as vectors before a bitmask,
// and from a compare moved across a narrowing: 1-3% of `parseMarkdown`). Checked on the
// disassembly of each built file (binaryen's `wasm-dis`, a devDependency): deterministic for
// the pinned toolchain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pkgRoot } from './helpers.mjs';

const wasmDis = join(pkgRoot, 'node_modules', '.bin', 'wasm-dis');

for (const file of ['chatmark_bg.wasm', 'chatmark_markdown_bg.wasm']) {
  test(`${file} loads its SIMD registers whole and moves no byte lanes`, () => {
    const wat = execFileSync(wasmDis, [join(pkgRoot, 'pkg', file)], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const count = (re) => (wat.match(re) ?? []).length;
    // the SIMD search is there (the build enables simd128)
    assert.ok(count(/\(v128\.load\b/g) > 0, 'no v128.load: was the wasm built with simd128?');
    // and no register is filled a unit at a time
    assert.equal(count(/\bv128\.load(8|16|32|64)_lane\b/g), 0, 'lane loads: a vector built from separate units');
    assert.equal(count(/\.replace_lane\b/g), 0, 'replace_lane: a vector built from separate values');
    assert.equal(count(/\bi8x16\.(shl|shr_s|shr_u|shuffle)\b/g), 0, 'byte shifts or shuffles');
  });
}
