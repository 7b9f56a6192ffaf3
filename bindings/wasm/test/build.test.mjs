// `npm run build` without the toolchain it needs says in one line what to run (issue 14),
// instead of failing with a compiler error: checked with a PATH holding only stand-ins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pkgRoot } from './helpers.mjs';

/** Runs the build with a PATH of stand-in tools; `sysroot` has the targets given. */
function build(tools, targets) {
  const dir = mkdtempSync(join(tmpdir(), 'chatmark-build-'));
  try {
    const sysroot = join(dir, 'sysroot');
    for (const t of targets) mkdirSync(join(sysroot, 'lib', 'rustlib', t), { recursive: true });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const say = {
      rustc: `echo ${sysroot}`,
      cargo: 'echo cargo 1.95.0',
      'wasm-bindgen': 'echo wasm-bindgen 0.2.130',
    };
    for (const t of tools) {
      writeFileSync(join(bin, t), `#!/bin/sh\n${say[t]}\n`);
      chmodSync(join(bin, t), 0o755);
    }
    return spawnSync(process.execPath, [join(pkgRoot, 'scripts', 'build.mjs')], {
      env: { PATH: bin },
      encoding: 'utf8',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function oneLine(r, what) {
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /bash scripts\/wasm/);
  assert.match(lines[0], what);
}

test('without Rust, the build names bash scripts/wasm', () => {
  oneLine(build([], []), /Rust/);
});

test('without the wasm32 target, the build names it and bash scripts/wasm', () => {
  oneLine(build(['rustc', 'cargo', 'wasm-bindgen'], ['x86_64-unknown-linux-gnu']), /wasm32-unknown-unknown/);
});

test('without wasm-bindgen, the build names it and bash scripts/wasm', () => {
  oneLine(build(['rustc', 'cargo'], ['wasm32-unknown-unknown']), /wasm-bindgen 0\.2\.130/);
});
