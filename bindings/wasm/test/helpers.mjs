// Shared by the tests: the public vectors, how a result is judged against one, a static
// server for the package directory, and headless Chromium (Debian's, driven by playwright-core).
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(pkgRoot, '..', '..');
export const dataDir = join(repoRoot, 'crates', 'chatmark', 'tests', 'data');

/** Every vector file of `sendMessage` bodies with `input` and `expect`/`expect_error` lines:
 *  [{file, vectors}] (the CommonMark import's, `import*.jsonl`, are `importVectors()`; the
 *  split vectors, whose bodies carry a `limit`, are `splitVectorFiles()`). */
export function vectorFiles() {
  return readdirSync(dataDir)
    .filter((f) => f.endsWith('.jsonl') && !f.startsWith('import') && !f.startsWith('split'))
    .sort()
    .map((file) => ({
      file,
      vectors: readFileSync(join(dataDir, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
        .filter((v) => v.input && ('expect' in v || 'expect_error' in v)),
    }))
    .filter((f) => f.vectors.length > 0);
}

/** The CommonMark import's vectors (spec section 9) whose `input` is a `{text}` body. */
export function importVectors() {
  return ['import.jsonl', 'import_rules.jsonl'].flatMap((file) =>
    readFileSync(join(dataDir, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l))
      .filter((v) => typeof v.input?.text === 'string' && 'expect' in v),
  );
}

/** The split vectors (spec section 8): [{file, vectors}] of `input` with `limit` and
 *  `expect_parts` or `expect_error`. */
export function splitVectorFiles() {
  return readdirSync(dataDir)
    .filter((f) => f.startsWith('split') && f.endsWith('.jsonl'))
    .sort()
    .map((file) => ({
      file,
      vectors: readFileSync(join(dataDir, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l)),
    }));
}

/** Null when `got` (`{parts}` or `{error}`) meets the split vector, else the miss. */
export function judgeSplit(v, got) {
  const ok =
    'expect_error' in v
      ? got?.error?.code === v.expect_error
      : !got?.error && JSON.stringify(got?.parts) === JSON.stringify(v.expect_parts);
  if (ok) return null;
  const want = 'expect_error' in v ? { error: { code: v.expect_error } } : { parts: v.expect_parts };
  return `${v.id}: input ${JSON.stringify(v.input).slice(0, 200)}\n  want ${JSON.stringify(want).slice(0, 200)}\n  got  ${JSON.stringify(got).slice(0, 200)}`;
}

/** Null when `got` (a result or `{error}`) meets the vector, else a description of the miss. */
export function judge(v, got) {
  if ('expect_error' in v) {
    if (got?.error && got.error.code === v.expect_error) return null;
  } else if (
    got &&
    !got.error &&
    got.text === v.expect.text &&
    JSON.stringify(got.text_styles) === JSON.stringify(v.expect.text_styles)
  ) {
    return null;
  }
  const want = 'expect_error' in v ? { error: { code: v.expect_error } } : v.expect;
  return `${v.id}: input ${JSON.stringify(v.input ?? v.input_json).slice(0, 200)}\n  want ${JSON.stringify(want).slice(0, 200)}\n  got  ${JSON.stringify(got).slice(0, 200)}`;
}

/** What R8 checks before `parse_mode`: refused alike by `chatmark/markdown`. */
const BEFORE_MODE = new Set(['missing_chat_id', 'missing_text', 'invalid_text', 'text_empty', 'text_too_long']);

/**
 * A vector as `chatmark/markdown` must answer it: the same, except that an HTML body which
 * passes the checks before the mode answers `unsupported_parse_mode`.
 */
export function forMarkdownEntry(v) {
  const input = v.input;
  const mode = input !== null && typeof input === 'object' ? input.parse_mode : undefined;
  if (typeof mode !== 'string' || mode.replace(/[A-Z]+/g, (m) => m.toLowerCase()) !== 'html') return v;
  if ('expect_error' in v && BEFORE_MODE.has(v.expect_error)) return v;
  return { id: v.id, input, expect_error: 'unsupported_parse_mode' };
}

/** Content types of the files the test servers (and the integration matrix's) serve. */
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/** Serves the package directory on 127.0.0.1 at an ephemeral port: {origin, close()}.
 * `isolated`: its pages cross-origin isolated, where performance.now() counts in 5 µs steps
 * (else 100 µs). */
export async function serve({ isolated = false } = {}) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = join(pkgRoot, path);
    if (!file.startsWith(pkgRoot + sep) || !existsSync(file) || path.includes('node_modules')) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream' };
    if (isolated) {
      headers['cross-origin-opener-policy'] = 'same-origin';
      headers['cross-origin-embedder-policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, in a fresh profile: {context, close()}. Never downloads one. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'chatmark-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A result or the error of a call, in the JSONL shape. */
export function settle(f) {
  try {
    return f();
  } catch (e) {
    if (e && e.name === 'ChatmarkError') return { error: e.toJSON() };
    throw e;
  }
}
