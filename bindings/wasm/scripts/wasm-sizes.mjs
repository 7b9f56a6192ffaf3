// Where the bytes of a .wasm go, without installing twiggy: the size of every section, the
// largest function bodies by name (from the `name` section, so run it on a build that still
// has names: target/wasm32-unknown-unknown/wasm/*.wasm before wasm-bindgen), and the code
// summed per crate path prefix (`core::fmt`, `serde_json`, `chatmark::html`, …).
//   node scripts/wasm-sizes.mjs FILE.wasm [TOP]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs FILE.wasm [TOP]');
  process.exit(2);
}
const top = Number(topArg || 40);
const b = readFileSync(file);
let p = 8;

function leb() {
  let n = 0;
  let shift = 0;
  for (;;) {
    const byte = b[p++];
    n += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return n;
  }
}
function name() {
  const len = leb();
  const s = b.toString('utf8', p, p + len);
  p += len;
  return s;
}

const SECTIONS = [
  'custom',
  'type',
  'import',
  'function',
  'table',
  'memory',
  'global',
  'export',
  'start',
  'element',
  'code',
  'data',
  'datacount',
];
const sections = [];
let imports = 0;
let bodies = [];
const names = new Map();
while (p < b.length) {
  const id = b[p++];
  const size = leb();
  const start = p;
  let label = SECTIONS[id] || `#${id}`;
  if (id === 0) label = `custom:${name()}`;
  if (id === 2) {
    const n = leb();
    for (let k = 0; k < n; k++) {
      name();
      name();
      const kind = b[p++];
      if (kind === 0) {
        imports++;
        leb();
      } else if (kind === 1) {
        p++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) {
        p += 2;
      } else {
        leb();
      }
    }
  } else if (id === 10) {
    const n = leb();
    for (let k = 0; k < n; k++) {
      const len = leb();
      bodies.push({ index: imports + k, size: len });
      p += len;
    }
  } else if (label === 'custom:name') {
    while (p < start + size) {
      const sub = b[p++];
      const subSize = leb();
      const subEnd = p + subSize;
      if (sub === 1) {
        const n = leb();
        for (let k = 0; k < n; k++) {
          const index = leb();
          names.set(index, name());
        }
      }
      p = subEnd;
    }
  }
  sections.push({ label, size });
  p = start + size;
}

console.log(`${file}: ${b.length} bytes`);
for (const s of sections) console.log(`  ${s.label.padEnd(28)} ${String(s.size).padStart(8)}`);
bodies = bodies.map((f) => ({ ...f, name: names.get(f.index) || `func${f.index}` }));
bodies.sort((x, y) => y.size - x.size);
console.log(`\nlargest ${top} of ${bodies.length} function bodies:`);
for (const f of bodies.slice(0, top))
  console.log(`  ${String(f.size).padStart(7)}  ${segments(f.name).join('::').slice(0, 110)}`);

/**
 * The path segments of a mangled symbol, roughly (enough to group by): both manglings spell
 * identifiers as length-prefixed runs; v0's disambiguators and back-references (`Cs…_`,
 * `s…_`, `B…_`) are skipped.
 */
function segments(n) {
  if (!/^_(ZN|R)/.test(n)) return [n];
  const out = [];
  let i = n.startsWith('_ZN') ? 3 : 2;
  while (i < n.length) {
    const c = n[i];
    if (c >= '0' && c <= '9') {
      let j = i;
      while (n[j] >= '0' && n[j] <= '9') j++;
      const len = Number(n.slice(i, j));
      if (n[j] === '_') j++;
      out.push(n.slice(j, j + len));
      i = j + len;
    } else if (n.startsWith('Cs', i) || c === 's' || c === 'B') {
      const j = n.indexOf('_', i);
      i = j < 0 ? n.length : j + 1;
    } else {
      i++;
    }
  }
  return out.filter((s) => s && !/^h[0-9a-f]{16}$/.test(s) && !s.startsWith('$'));
}

/** Two path segments: crate and module. */
function group(n) {
  return segments(n).slice(0, 2).join('::') || '(other)';
}
const groups = new Map();
for (const f of bodies) groups.set(group(f.name), (groups.get(group(f.name)) || 0) + f.size);
console.log('\ncode by path prefix:');
for (const [g, size] of [...groups].sort((x, y) => y[1] - x[1]).slice(0, top)) {
  console.log(`  ${String(size).padStart(7)}  ${g}`);
}
