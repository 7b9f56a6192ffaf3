// The size budgets of the package's wasm files (issue 14) and of the composer's minified JS
// (issue 50), checked after every build: prints
// each file's raw and gzip -9 sizes against its budget and fails when one is over. Sizes are
// deterministic for the pinned toolchain (Rust 1.95, wasm-bindgen 0.2.130, binaryen 132), so
// a change that grows a file past its budget fails `bash scripts/wasm`; benches/RESULTS.md
// says where the bytes go and what was done to fit.
//   node scripts/size-check.mjs [--print]      (--print: report only, never fail; npm run build)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg');
// [file (in pkg/), entry, budget in gzip -9 bytes (issue 14; the composer's JS: issue 50)]:
// the wasm's 64 KiB and 32 KiB each raised by the 4 KiB issue 48 allows `split` (spec
// section 8)
const BUDGETS = [
  ['chatmark_bg.wasm', 'chatmark', 65536 + 4096],
  ['chatmark_markdown_bg.wasm', 'chatmark/markdown', 32768 + 4096],
  ['../js/composer.min.js', 'chatmark/composer', 10240],
  // the CommonMark import's own wasm (issue 49): pulldown-cmark with its entity and case
  // tables; 86,188 bytes when the budget was set
  ['chatmark_commonmark_bg.wasm', 'chatmark/commonmark', 90112],
];

/** The size of `gzip -9c` of the bytes; zlib at level 9 where there is no gzip binary. */
function gzip9(bytes) {
  const r = spawnSync('gzip', ['-9c'], { input: bytes, maxBuffer: 1 << 26 });
  if (r.status === 0) return r.stdout.length;
  return gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
}

let over = 0;
for (const [file, entry, budget] of BUDGETS) {
  const bytes = readFileSync(join(pkg, file));
  const gz = gzip9(bytes);
  if (gz > budget) over++;
  console.log(
    `${gz <= budget ? 'ok  ' : 'OVER'} ${entry.padEnd(20)} ${file.padEnd(26)} ${String(bytes.length).padStart(7)} bytes, ` +
      `${String(gz).padStart(6)} gzip -9 (budget ${budget}: ` +
      `${gz <= budget ? `${budget - gz} to spare` : `${gz - budget} over`})`,
  );
}
if (over && !process.argv.includes('--print')) {
  console.error(`size check: ${over} file(s) over their gzip -9 budget`);
  process.exit(1);
}
