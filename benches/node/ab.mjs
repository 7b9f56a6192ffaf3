// Paired timing of two builds of the npm package, for a change whose gain is smaller than
// the run-to-run swing of bench.mjs's ratio to markdown-it: one process, their passes over
// the shared corpus interleaved, so that both see the same machine. Prints each build's
// median and fastest pass and how much faster the second is.
//   node benches/node/ab.mjs OLD_PACKAGE_DIR NEW_PACKAGE_DIR [rounds]
// where a package dir is a built bindings/wasm (e.g. in a git worktree of the older commit).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [oldDir, newDir, roundsArg] = process.argv.slice(2);
if (!oldDir || !newDir) {
  console.error('usage: node benches/node/ab.mjs OLD_PACKAGE_DIR NEW_PACKAGE_DIR [rounds]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 40);
const here = fileURLToPath(new URL('.', import.meta.url));
const corpus = readFileSync(join(here, '..', 'corpus', 'messages.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).markdown);

const load = (dir) => import(pathToFileURL(join(resolve(dir), 'js', 'node.js')).href);
const builds = [await load(oldDir), await load(newDir)];

/** Milliseconds for one parseMarkdown pass over the corpus. */
function pass(m) {
  const t = performance.now();
  for (const s of corpus) m.parseMarkdown(s);
  return performance.now() - t;
}

for (let w = 0; w < 5; w++) for (const m of builds) pass(m);
const times = builds.map(() => []);
for (let r = 0; r < rounds; r++) {
  for (const [k, m] of builds.entries()) times[k].push(pass(m));
}
const [oldT, newT] = times.map((t) => t.sort((a, b) => a - b));
const median = (t) => t[t.length >> 1];
const ms = (x) => `${x.toFixed(3)} ms`;
console.log(`old: median ${ms(median(oldT))}, fastest ${ms(oldT[0])} per pass`);
console.log(`new: median ${ms(median(newT))}, fastest ${ms(newT[0])} per pass`);
console.log(
  `new / old speed: ${(median(oldT) / median(newT)).toFixed(3)} (medians), ${(oldT[0] / newT[0]).toFixed(3)} (fastest)`,
);
