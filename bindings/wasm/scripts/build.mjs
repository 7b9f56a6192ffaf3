// `npm run build`: the whole package from the Rust sources. For each flavour of the binding
// crate, `chatmark` (everything) and `chatmark_markdown` (`--no-default-features`: no HTML
// mode, no markdown renderer), and for `chatmark_commonmark` (the CommonMark import's own
// crate, bindings/wasm-commonmark):
//   1. cargo build --profile wasm --target wasm32-unknown-unknown -p chatmark-wasm (or its crate)
//      (the size-tuned profile of the root Cargo.toml: opt-level z, lto, one codegen unit)
//   2. wasm-bindgen --target web --out-dir pkg   (the CLI pinned to the crate's wasm-bindgen)
//   3. wasm-opt -Oz                               (binaryen from npm, a devDependency)
// then js/composer.min.js (esbuild), node scripts/inline.mjs (pkg/inline.js: the full wasm as
// base64) and the sizes against their budgets (scripts/size-check.mjs; `bash scripts/wasm`
// fails over budget).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WASM_BINDGEN = '0.2.130';
const TARGET = 'wasm32-unknown-unknown';
const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, '..');
const workspace = join(pkgRoot, '..', '..');
const pkg = join(pkgRoot, 'pkg');

/** Stops with one line saying what to run, instead of a compiler error further on. */
function missing(what, first = '') {
  console.error(
    `chatmark: npm run build needs ${what}; ${first}run \`bash scripts/wasm\` from the repository root (it installs what is missing and builds)`,
  );
  process.exit(1);
}

function output(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const sysroot = output('rustc', ['--print', 'sysroot']);
if (sysroot === null || output('cargo', ['--version']) === null)
  missing('Rust (cargo and rustc)', 'install it (https://rustup.rs), then ');
if (!existsSync(join(sysroot, 'lib', 'rustlib', TARGET))) missing(`the ${TARGET} Rust target`);
const have = output('wasm-bindgen', ['--version']);
if (have !== `wasm-bindgen ${WASM_BINDGEN}`)
  missing(`wasm-bindgen ${WASM_BINDGEN} (have ${have === null ? 'none' : `"${have}"`})`);
const wasmOpt = join(pkgRoot, 'node_modules', '.bin', 'wasm-opt');
if (!existsSync(wasmOpt)) missing('the npm devDependencies (npm ci)');

function run(cmd, args, opts = {}) {
  console.error(`> ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}

const meta = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: workspace }));
const built = join(meta.target_directory, TARGET, 'wasm', 'chatmark_wasm.wasm');
const staging = join(meta.target_directory, TARGET, 'wasm', 'npm');
mkdirSync(staging, { recursive: true });
mkdirSync(pkg, { recursive: true });

// opt-level z leaves LLVM's inliner almost off (threshold 5); at 50 the engine parses 20 to
// 25% faster in wasm for +0.3% (chatmark) and -3% (chatmark/markdown) gzipped bytes, measured
// beside 25, 80, 150 and opt-levels s and 3 (benches/NOTES.md). With --target, RUSTFLAGS
// reach only the wasm artifacts, not build scripts or proc macros.
const RUSTFLAGS = `${process.env.RUSTFLAGS || ''} -C llvm-args=-inline-threshold=50 -C target-feature=+simd128`.trim();

for (const [name, features, crate = 'chatmark-wasm'] of [
  ['chatmark', []],
  ['chatmark_markdown', ['--no-default-features']],
  // chatmark/commonmark: the CommonMark import (spec section 9), a binding crate of its own
  // so that pulldown-cmark goes into its wasm only
  ['chatmark_commonmark', [], 'chatmark-commonmark-wasm'],
]) {
  run('cargo', ['build', '--profile', 'wasm', '--target', TARGET, '-p', crate, ...features], {
    cwd: workspace,
    env: { ...process.env, RUSTFLAGS },
  });
  const input = join(staging, `${name}.wasm`);
  copyFileSync(join(dirname(built), `${crate.replaceAll('-', '_')}.wasm`), input);
  run('wasm-bindgen', ['--target', 'web', '--out-dir', pkg, '--no-typescript', input]);
  const wasm = join(pkg, `${name}_bg.wasm`);
  const before = statSync(wasm).size;
  run(wasmOpt, [
    '-Oz',
    '--converge', // repeat -Oz while it still shrinks
    // the features rustc enables by default for wasm32-unknown-unknown
    '--enable-bulk-memory',
    '--enable-nontrapping-float-to-int',
    '--enable-sign-ext',
    '--enable-reference-types',
    '--enable-multivalue',
    '--enable-mutable-globals',
    '--enable-simd',
    '--strip-debug',
    '--strip-producers',
    '--strip-target-features',
    wasm,
    '-o',
    wasm,
  ]);
  console.error(`wasm-opt ${name}: ${before} -> ${statSync(wasm).size} bytes`);
}

// The composer ships minified (its readable source is js/composer.js): esbuild, pinned in
// package-lock.json, shortens the `_`-prefixed members too; its budget (10 KB gzip -9) is
// checked on this file by test/composer.test.mjs and scripts/size-check.mjs.
const { build } = await import('esbuild').catch(() => missing('the npm devDependencies (npm ci)'));
await build({
  entryPoints: [join(pkgRoot, 'js', 'composer.js')],
  outfile: join(pkgRoot, 'js', 'composer.min.js'),
  format: 'esm',
  minify: true,
  mangleProps: /^_/,
  target: 'es2022',
  logLevel: 'warning',
});

run(process.execPath, [join(here, 'inline.mjs')]);
run(process.execPath, [join(here, 'size-check.mjs'), '--print']); // scripts/wasm enforces the budgets
