// support.mjs — what the page tests share: the static server, Debian's
// Chromium through playwright-core, the native CLI for expected values, and
// the size of what the page loads. Not a test file itself.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { PAGE_FILES } from '../../scripts/page-files.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PUBLIC = path.join(ROOT, 'public');
export const CLI = path.join(ROOT, 'build', 'memest');
/** The real model configs the tests read: the presets (published config.json files). */
export const MODELS = path.join(ROOT, 'presets');
/** More configs that may lie beside the repository; they only add cases. */
export const EXTRA_MODELS = path.join(ROOT, '..', 'shared', 'models');

export { PAGE_FILES } from '../../scripts/page-files.mjs';

/** The opening view's engine inputs, as the page sends them. */
export const DEFAULT_PARAMS = {
  model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32,
  micro_batch_size: 1, global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};

/** Fails with the command to run when a build output is missing. */
export function requireBuilds() {
  for (const f of PAGE_FILES) {
    assert.ok(existsSync(path.join(PUBLIC, f)), `public/${f} is missing: run scripts/build-wasm.sh and node scripts/build-web.mjs`);
  }
  assert.ok(existsSync(CLI), `${CLI} is missing: cmake -S . -B build && cmake --build build`);
}

/** The native CLI's --json result for `params` (snake_case names). */
export function cli(params) {
  const args = ['--json'];
  for (const [k, v] of Object.entries(params)) args.push(`--${k.replace(/_/g, '-')}`, String(v));
  return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
}

/** "62.48 GiB", as the page prints bytes. */
export function gibText(bytes) {
  return `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}

/** Sum of the gzipped sizes of PAGE_FILES, in bytes. */
export function gzippedPageBytes() {
  return PAGE_FILES.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(PUBLIC, f)), { level: 9 }).length, 0);
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * Starts the server and the browser. Every request any page makes is kept
 * in `requests`; console errors and page errors in `errors`. `hub`: the
 * hub the served page names (an origin, or 'none'; serve.mjs withHub), by
 * default index.html's own.
 */
export async function startSession({ hub } = {}) {
  const server = await startServer({ dir: PUBLIC, port: 0, hub });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const requests = [];
  const errors = [];
  const contexts = [];
  /** A fresh browser context (its own storage and clipboard); `touch`: a touch screen, as a phone's. */
  async function newPage({ width = 1280, height = 900, touch = false } = {}) {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', hasTouch: touch, isMobile: touch });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    context.on('request', (r) => requests.push(r.url()));
    // The moment the first peak appears, measured inside the page, and
    // every CSP violation.
    await context.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.effectiveDirective));
      const mo = new MutationObserver(() => {
        if (document.querySelector('[data-testid=peak]')) {
          window.firstPeakMs = performance.now();
          mo.disconnect();
        }
      });
      mo.observe(document, { childList: true, subtree: true });
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    return page;
  }
  async function close() {
    for (const c of contexts) await c.close().catch(() => {});
    await browser.close();
    await server.close();
  }
  return { url: server.url, newPage, requests, errors, close };
}

/**
 * One session for a test file: started before its tests (after checking
 * the builds), closed after them. Returns an object that is the session
 * once started ({url, newPage, requests, errors, close}); its `ready`
 * resolves then, for a file's own `before`.
 */
export function fileSession() {
  let started = () => {};
  const session = /** @type {any} */ ({ ready: new Promise((ok) => { started = ok; }) });
  before(async () => {
    requireBuilds();
    Object.assign(session, await startSession());
    started();
  });
  after(async () => {
    await session.close?.();
  });
  return session;
}

/** A link to the page at `url` with the state `patch` (the fields that differ from the defaults). */
export function stateLink(url, patch) {
  return `${url}#v=1&s=${encodeURIComponent(JSON.stringify(patch))}`;
}

/**
 * Waits until the results show an estimate made after `afterSeq`; fails at
 * once, with its message, when the page reports that the engine failed.
 */
export async function waitForResult(page, afterSeq = 0) {
  const handle = await page.waitForFunction((s) => {
    const r = document.querySelector('[data-testid=results]');
    const failed = r?.querySelector(':scope > .notice-error');
    if (failed) return `engine failure: ${failed.textContent}`;
    return r && Number(r.dataset.seq) > s && r.getAttribute('aria-busy') === 'false' && document.querySelector('[data-testid=peak]') ? 'ok' : null;
  }, afterSeq, { timeout: 15000 });
  const outcome = await handle.jsonValue();
  assert.equal(outcome, 'ok');
  return Number(await page.locator('[data-testid=results]').getAttribute('data-seq'));
}

/**
 * Waits until the share link and the address bar follow the inputs on
 * screen: both wait for the inputs to be still (App.jsx, FRAGMENT_DELAY_MS).
 */
export async function waitForLink(page) {
  await page.waitForFunction(() => {
    const field = document.querySelector('[data-testid=share-link]');
    return field !== null && field.dataset.pending === 'false' && field.value.endsWith(location.hash);
  });
}

/** The estimate's sequence number on screen now. */
export async function seqOf(page) {
  return Number(await page.locator('[data-testid=results]').getAttribute('data-seq'));
}

/** The headline as the page shows it. */
export async function headline(page) {
  return {
    peakBytes: Number(await page.getByTestId('peak').getAttribute('data-bytes')),
    peak: await page.getByTestId('peak').textContent(),
    status: await page.getByTestId('status').textContent(),
    command: (await page.getByTestId('command').count()) ? await page.getByTestId('command').textContent() : null,
  };
}

/**
 * A raw GET to 127.0.0.1:`port`: the path goes on the wire as given (no URL
 * normalisation, unlike fetch). Resolves to {status, headers, body}.
 */
export function rawGet(port, rawPath) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Drops `files` ([{name, text | bytes}]) on the element `selector` of `page`. */
export function drop(page, selector, files) {
  return page.evaluate(({ selector, files }) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.bytes ? new Uint8Array(f.bytes) : f.text], f.name));
    const target = document.querySelector(selector);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, { selector, files });
}
