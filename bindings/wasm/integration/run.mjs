// The integration matrix (issue 24): the packed npm tarball installed, as a team would install
// it, into the tiny apps beside this file (each pins its toolchain in package.json and
// package-lock.json), built, served on 127.0.0.1 and driven in Debian's Chromium (type, Ctrl+B,
// read the composer's `value`, paste markdown and take "Paste as formatted" (the composer's
// import() of chatmark/commonmark), parseMarkdown from `chatmark/inline`), plus the Node and
// TypeScript cases. Run by `bash scripts/wasm` after the package's own tests.
//
//   node integration/run.mjs [CASE…] [--package FILE.tgz]
//
// CASE filters by name prefix or app (`vite7`, `types`, …); --package tries another tarball (an
// older build, say) instead of packing bindings/wasm. CHATMARK_MATRIX_NEXT=0 leaves out Next.js,
// the largest install (about 340 MB) and the slowest build (about 20 s). Installs are
// idempotent: `npm ci` runs only when an app's package-lock.json changed since its last install;
// the tarball is unpacked into node_modules/chatmark on each run (what `npm install FILE.tgz`
// does for a package without dependencies, without writing its hash into the lockfile).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, launchChromium, TYPES } from '../test/helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = join(here, '..');
const TEXT = '**bold** and {red}red{/red}';
/** What parseMarkdown(TEXT) answers, in every entry. */
const PARSED = {
  text: 'bold and red',
  text_styles: [
    { start: 0, len: 4, st: ['b'] },
    { start: 9, len: 3, st: ['c_db342e'] },
  ],
};
/** The composer's value after typing `hi `, Ctrl+B, `bold`. */
const TYPED = { text: 'hi bold', text_styles: [{ start: 3, len: 4, st: ['b'] }] };
/** Plain text pasted as CommonMark, and its value once "Paste as formatted" is taken: the
 *  composer's import() of chatmark/commonmark, a chunk and a wasm of their own in each build. */
const PASTED = ['**bold** and `code`', { text: 'bold and `code`', text_styles: [{ start: 0, len: 4, st: ['b'] }] }];

const args = process.argv.slice(2);
const packageArg = args.indexOf('--package');
const givenPackage = packageArg === -1 ? null : resolve(args.splice(packageArg, 2)[1]);
const only = args;
const withNext = process.env.CHATMARK_MATRIX_NEXT !== '0';

const log = (s) => process.stderr.write(`${s}\n`);

/** Runs a command in `cwd`; its output is shown only when it fails (or returned). */
function run(cwd, cmd, cmdArgs, opts = {}) {
  try {
    return execFileSync(cmd, cmdArgs, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      timeout: opts.timeout ?? 300_000,
    });
  } catch (e) {
    throw new Error(`${cmd} ${cmdArgs.join(' ')} (in ${cwd}) failed:\n${e.stdout || ''}${e.stderr || ''}`);
  }
}

const npm = (cwd, ...a) => run(cwd, 'npm', ['--no-audit', '--no-fund', '--loglevel=error', ...a]);

/** The tarball under test: `npm pack` of the built package unless --package names one. */
function tarball() {
  if (givenPackage) return givenPackage;
  if (!existsSync(join(pkgRoot, 'pkg', 'inline.js'))) throw new Error('build the package first (npm run build)');
  const dest = join(here, '.pack');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest);
  const name = npm(pkgRoot, 'pack', '--pack-destination', dest).trim().split('\n').pop();
  return join(dest, name);
}

/** `npm ci` when the lockfile changed since the last install; then the tarball as node_modules/chatmark. */
function install(app, tgz) {
  const dir = join(here, app);
  const lock = join(dir, 'package-lock.json');
  const stamp = join(dir, 'node_modules', '.chatmark-matrix-lock');
  if (existsSync(lock)) {
    const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');
    if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
      const t = Date.now();
      npm(dir, 'ci');
      writeFileSync(stamp, hash);
      log(`  ${app}: npm ci ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  }
  const target = join(dir, 'node_modules', 'chatmark');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  run(dir, 'tar', ['-xzf', tgz, '-C', target, '--strip-components=1']);
  rmSync(join(dir, 'node_modules', '.vite'), { recursive: true, force: true }); // Vite's optimizer cache
  for (const out of ['dist', 'dist-csp', '.next']) rmSync(join(dir, out), { recursive: true, force: true });
  return dir;
}

/** Serves `root` on 127.0.0.1 (`/` is index.html), with `headers` on every answer. */
async function serveDir(root, headers = {}) {
  const server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const close = () => {
    const closed = new Promise((ok) => server.close(ok));
    server.closeAllConnections(); // Chromium keeps its connections open
    return closed;
  };
  return { origin: `http://127.0.0.1:${server.address().port}`, close };
}

async function freePort() {
  const s = createNetServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Starts a dev server (`cmd` with `--port`), waits until `url` answers: {origin, close()}. */
async function startServer(cwd, cmd, cmdArgs, env = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(cmd, cmdArgs(port), {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((ok) => child.on('exit', ok));
  const close = async () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await exited;
  };
  for (const start = Date.now(); Date.now() - start < 120_000; ) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited:\n${output}`);
    try {
      if ((await fetch(origin)).ok) return { origin, close, output: () => output };
    } catch {}
    await new Promise((ok) => setTimeout(ok, 200));
  }
  await close();
  throw new Error(`${cmd} did not answer on ${origin}:\n${output}`);
}

let chromium;

/**
 * Opens `url` in Chromium and uses the app as a person would: the composer gets ready (having
 * fetched its wasm) with its stylesheet, and typing `hi `, Ctrl+B, `bold` gives TYPED; then
 * `inlineUrl` shows parseMarkdown's answer from chatmark/inline, with no wasm fetched. Fails
 * on any page error, console error or failed request; answers where the wasm and the
 * stylesheet came from.
 */
async function drive(url, inlineUrl = `${url}#inline`) {
  chromium ??= await launchChromium();
  const open = async (at) => {
    const page = await chromium.context.newPage();
    const problems = [];
    const wasm = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      else if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push(new URL(r.url()).pathname);
    });
    const fail = (what, e) =>
      new Error(`${at}: ${what}${e ? ` (${e.message.split('\n')[0]})` : ''}\n  ${problems.join('\n  ')}`);
    await page.goto(at);
    return { page, problems, wasm, fail };
  };

  const composer = await open(url);
  let note;
  try {
    const { page, problems, wasm, fail } = composer;
    const state = await page
      .evaluate(async () => {
        const timeout = new Promise((_, no) => setTimeout(() => no(new Error('not ready in 15 s')), 15_000));
        await Promise.race([customElements.whenDefined('chatmark-composer'), timeout]);
        const c = document.querySelector('chatmark-composer');
        await Promise.race([c.ready, timeout]);
        const link = c.shadowRoot.querySelector('link[rel=stylesheet]');
        const css = link?.href.startsWith('data:') ? `${link.href.slice(0, 20)}…` : new URL(link?.href).pathname;
        let rules = 0;
        try {
          rules = link?.sheet?.cssRules.length ?? 0;
        } catch {} // a sheet the page may not read
        return { styled: rules > 0, css };
      })
      .catch((e) => {
        throw fail('the composer did not get ready', e);
      });
    if (!state.styled) throw fail(`the composer's stylesheet did not load (${state.css})`);
    await page.locator('chatmark-composer [role=textbox]').click();
    await page.keyboard.type('hi ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    const value = await page.evaluate(() => document.querySelector('chatmark-composer').value);
    if (JSON.stringify(value) !== JSON.stringify(TYPED)) throw fail(`typing gave ${JSON.stringify(value)}`);
    await page.locator('chatmark-composer [role=textbox]').evaluate((ed, text) => {
      ed.getRootNode().host.value = '';
      const data = new DataTransfer();
      data.setData('text/plain', text);
      ed.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PASTED[0]);
    await page.getByRole('button', { name: 'Paste as formatted' }).click();
    const formatted = await page
      .waitForFunction(() => !document.querySelector('chatmark-composer').value.text.includes('*'), null, {
        timeout: 15_000,
      })
      .then(() => page.evaluate(() => document.querySelector('chatmark-composer').value))
      .catch((e) => {
        throw fail('pasted markdown was not formatted (chatmark/commonmark)', e);
      });
    if (JSON.stringify(formatted) !== JSON.stringify(PASTED[1]))
      throw fail(`pasted markdown gave ${JSON.stringify(formatted)}`);
    if (problems.length) throw fail('the composer worked, but');
    if (!wasm.length) throw fail('no .wasm was fetched');
    note = `wasm ${wasm.join(' ')}, styles ${state.css}`;
  } finally {
    await composer.page.close();
  }

  const inline = await open(inlineUrl);
  try {
    const { page, problems, wasm, fail } = inline;
    const out = await page
      .waitForFunction(() => document.getElementById('parsed')?.textContent, null, { timeout: 15_000 })
      .then((h) => h.jsonValue())
      .catch((e) => {
        throw fail('no parseMarkdown result on the page', e);
      });
    if (JSON.stringify(JSON.parse(out)) !== JSON.stringify(PARSED)) throw fail(`parseMarkdown gave ${out}`);
    if (problems.length) throw fail('chatmark/inline worked, but');
    if (wasm.length) throw fail(`chatmark/inline fetched ${wasm}`);
  } finally {
    await inline.page.close();
  }
  return note;
}

/** Runs a Node script and checks that it prints parseMarkdown's answer for every entry. */
function nodeRun(cwd, file, { version = false } = {}) {
  const out = JSON.parse(run(cwd, process.execPath, [file]));
  const want = [PARSED, PARSED, PARSED, ...(version ? ['0.1.0'] : [])];
  if (JSON.stringify(out) !== JSON.stringify(want)) throw new Error(`${file} printed ${JSON.stringify(out)}`);
}

/** A bundle copied alone into a fresh directory (no node_modules near it), then run. */
function nodeRunAlone(file) {
  const dir = mkdtempSync(join(tmpdir(), 'chatmark-bundle-'));
  try {
    copyFileSync(file, join(dir, file.split(sep).pop()));
    nodeRun(dir, file.split(sep).pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withServer(server, body) {
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

const viteBin = (dir) => join(dir, 'node_modules', 'vite', 'bin', 'vite.js');
const viteDev = (dir) =>
  startServer(dir, process.execPath, (port) => [viteBin(dir), '--host', '127.0.0.1', '--port', port, '--strictPort']);
/** A strict policy: no inline script, no style sheet but the site's own; style attributes (the
 *  composer's colours and sizes) allowed. */
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:";

// [name, app, body]; each body throws on failure.
const cases = [];
for (const v of ['vite7', 'vite8']) {
  cases.push([
    `${v} build`,
    v,
    async (dir) => {
      run(dir, process.execPath, [viteBin(dir), 'build']);
      return withServer(await serveDir(join(dir, 'dist')), (s) => drive(`${s.origin}/`));
    },
  ]);
  cases.push([`${v} dev server`, v, async (dir) => withServer(await viteDev(dir), (s) => drive(`${s.origin}/`))]);
}
cases.push([
  'vite8 build under a strict CSP (the README line that keeps composer.css a file)',
  'vite8',
  async (dir) => {
    run(dir, process.execPath, [viteBin(dir), 'build', '--config', 'csp.config.js', '--outDir', 'dist-csp']);
    return withServer(await serveDir(join(dir, 'dist-csp'), { 'content-security-policy': CSP }), (s) =>
      drive(`${s.origin}/`),
    );
  },
]);
cases.push([
  'webpack 5 production build',
  'webpack',
  async (dir) => {
    npm(dir, 'run', 'build');
    return withServer(await serveDir(dir), (s) => drive(`${s.origin}/`));
  },
]);
cases.push([
  'esbuild page outside dist/ (--loader:.wasm=file, init(new URL(wasm, import.meta.url)))',
  'esbuild',
  async (dir) => {
    npm(dir, 'run', 'build:page');
    // the page sits beside dist/, as a user's does: the wasm's URL must not depend on it
    return withServer(await serveDir(dir), (s) => drive(`${s.origin}/`));
  },
]);
cases.push([
  'esbuild --platform=node bundles, CommonJS and ESM, run alone',
  'esbuild',
  async (dir) => {
    npm(dir, 'run', 'build:node');
    nodeRunAlone(join(dir, 'dist', 'node.cjs'));
    nodeRunAlone(join(dir, 'dist', 'node.mjs'));
  },
]);
cases.push([
  'node ESM (the composer import a no-op)',
  'node',
  async (dir) => nodeRun(dir, 'esm.mjs', { version: true }),
]);
cases.push(['node CommonJS require()', 'node', async (dir) => nodeRun(dir, 'cjs.cjs', { version: true })]);
const tsc5 = (dir) => join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
const tsc7 = (dir) => join(dir, 'node_modules', 'typescript7', 'bin', 'tsc');
for (const [label, tsc] of [
  ['5.9', tsc5],
  ['7', tsc7],
]) {
  cases.push([
    `types: TypeScript ${label}, React TSX with <chatmark-composer>, about()`,
    'types',
    async (dir) => run(dir, process.execPath, [tsc(dir), '-p', 'tsconfig.json']),
  ]);
  cases.push([
    `types: TypeScript ${label}, CommonJS under node16, compiled and run`,
    'types',
    async (dir) => {
      run(dir, process.execPath, [tsc(dir), '-p', 'tsconfig.node16.json']);
      nodeRun(dir, join('dist', 'cjs.cjs'), { version: true });
    },
  ]);
}
cases.push([
  'types: TypeScript 5.9, chatmark/inline under moduleResolution node',
  'types',
  async (dir) => run(dir, process.execPath, [tsc5(dir), '-p', 'tsconfig.node10.json']),
]);
if (withNext) {
  cases.push([
    'Next.js 16 build and start: server component, route handler, client composer',
    'next',
    async (dir) => {
      const next = join(dir, 'node_modules', 'next', 'dist', 'bin', 'next');
      run(dir, process.execPath, [next, 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
      return withServer(
        await startServer(dir, process.execPath, (port) => [next, 'start', '-H', '127.0.0.1', '-p', port], {
          NEXT_TELEMETRY_DISABLED: '1',
        }),
        async (s) => {
          const api = await (await fetch(`${s.origin}/api/parse?text=${encodeURIComponent(TEXT)}`)).json();
          if (JSON.stringify(api) !== JSON.stringify(PARSED)) {
            throw new Error(`the route handler answered ${JSON.stringify(api)}`);
          }
          const html = await (await fetch(`${s.origin}/`)).text();
          if (!html.includes('<pre id="server">bold and red</pre>'))
            throw new Error('the server component did not parse');
          return drive(`${s.origin}/`, `${s.origin}/inline`);
        },
      );
    },
  ]);
}

const selected = cases.filter(([name, app]) => !only.length || only.some((o) => name.startsWith(o) || app === o));
if (!existsSync(CHROMIUM)) throw new Error(`the matrix needs ${CHROMIUM} (apt-get install chromium)`);
const started = Date.now();
const tgz = tarball();
log(`package: ${tgz}`);
const failed = [];
const installed = new Set();
try {
  for (const [name, app, body] of selected) {
    const t = Date.now();
    try {
      const dir = join(here, app);
      if (!installed.has(app)) {
        install(app, tgz);
        installed.add(app);
      }
      const note = await body(dir);
      log(`ok    ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)${note ? `: ${note}` : ''}`);
    } catch (e) {
      failed.push(name);
      log(
        `FAIL  ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n${String(e.message)
          .split('\n')
          .map((l) => `      ${l.length > 300 ? `${l.slice(0, 300)}…` : l}`)
          .join('\n')}`,
      );
    }
  }
} finally {
  await chromium?.close();
}
log(
  `\n${selected.length - failed.length} of ${selected.length} cases passed in ${((Date.now() - started) / 1000).toFixed(0)} s${withNext ? '' : ' (without Next.js: CHATMARK_MATRIX_NEXT=0)'}`,
);
if (failed.length) process.exit(1);
// the directories are listed so that an app added without a case is noticed
const apps = readdirSync(here, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.'));
for (const d of apps)
  if (d.name !== 'next' && !cases.some(([, app]) => app === d.name))
    throw new Error(`integration/${d.name} has no case`);
