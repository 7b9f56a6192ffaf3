// `npm run build`: the whole package from the Rust sources, in four steps.
//   1. cargo build --profile wasm --target wasm32-unknown-unknown -p chatmark-wasm
//      (the size-tuned profile of the root Cargo.toml: opt-level z, lto, one codegen unit)
//   2. wasm-bindgen --target web --out-dir pkg   (the CLI pinned to the crate's wasm-bindgen)
//   3. wasm-opt -Oz                               (binaryen from npm, a devDependency)
//   4. node scripts/inline.mjs                    (pkg/inline.js: the wasm as base64)
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WASM_BINDGEN = '0.2.130';
const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, '..');
const workspace = join(pkgRoot, '..', '..');
const pkg = join(pkgRoot, 'pkg');

function run(cmd, args, opts = {}) {
  console.error(`> ${cmd} ${args.join(' ')}`);
  const out = execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], ...opts });
  return out ? out.toString() : '';
}

run('cargo', ['build', '--profile', 'wasm', '--target', 'wasm32-unknown-unknown', '-p', 'chatmark-wasm'], {
  cwd: workspace,
  stdio: 'inherit',
});
const meta = JSON.parse(run('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: workspace }));
const built = join(meta.target_directory, 'wasm32-unknown-unknown', 'wasm', 'chatmark_wasm.wasm');

const have = run('wasm-bindgen', ['--version']).trim();
if (!have.endsWith(` ${WASM_BINDGEN}`)) {
  throw new Error(`wasm-bindgen ${WASM_BINDGEN} is needed (have "${have}"): ` +
    `cargo install wasm-bindgen-cli --version ${WASM_BINDGEN}`);
}
run('wasm-bindgen', ['--target', 'web', '--out-dir', pkg, built]);

const wasm = join(pkg, 'chatmark_wasm_bg.wasm');
const before = statSync(wasm).size;
run(join(pkgRoot, 'node_modules', '.bin', 'wasm-opt'), [
  '-Oz', '--converge', // repeat -Oz while it still shrinks: ~0.3 KB gzipped
  // the features rustc enables by default for wasm32-unknown-unknown
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-reference-types', '--enable-multivalue', '--enable-mutable-globals',
  '--strip-debug', '--strip-producers',
  wasm, '-o', wasm,
]);
console.error(`wasm-opt: ${before} -> ${statSync(wasm).size} bytes`);

run(process.execPath, [join(here, 'inline.mjs')], { stdio: 'inherit' });
