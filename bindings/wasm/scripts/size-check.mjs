// The size budgets of the package's wasm files (issue 14), checked after every build: prints
// each file's raw and gzip -9 sizes against its budget, and fails when one grows past its
// ceiling. The ceiling is the budget once it is met; until then it is the size reached
// (plus 1%), a ratchet that only goes down (benches/RESULTS.md says how far each is). Sizes
// are deterministic for the pinned toolchain (Rust, wasm-bindgen 0.2.130, binaryen 132).
//   node scripts/size-check.mjs [--print]      (--print: report only, never fail; npm run build)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg');
// [file, entry, budget (issue 14), ceiling: lower it as the file shrinks, down to the budget]
const BUDGETS = [
  ['chatmark_bg.wasm', 'chatmark', 65536, 68700],
  ['chatmark_markdown_bg.wasm', 'chatmark/markdown', 32768, 33200],
];

/** The size of `gzip -9c` of the bytes; zlib at level 9 where there is no gzip binary. */
function gzip9(bytes) {
  const r = spawnSync('gzip', ['-9c'], { input: bytes, maxBuffer: 1 << 26 });
  if (r.status === 0) return r.stdout.length;
  return gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
}

let over = 0;
for (const [file, entry, budget, ceiling] of BUDGETS) {
  const bytes = readFileSync(join(pkg, file));
  const gz = gzip9(bytes);
  const ok = gz <= budget;
  if (gz > ceiling) over++;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${entry.padEnd(18)} ${file.padEnd(26)} ${String(bytes.length).padStart(7)} bytes, ` +
      `${String(gz).padStart(6)} gzip -9 (budget ${budget}${ok ? '' : `, ${gz - budget} over, not met yet`}; ` +
      `ceiling ${ceiling}${gz > ceiling ? ': GREW PAST IT' : ''})`,
  );
}
if (over && !process.argv.includes('--print')) {
  console.error(`size check: ${over} wasm file(s) grew past their ceiling`);
  process.exit(1);
}
