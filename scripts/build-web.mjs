#!/usr/bin/env node
// build-web.mjs — builds the calculator page into public/: web/app/main.jsx
// → public/app.js (one minified ES module, with the core's tables read from
// public/memest.wasm in web/app/core-tables.js's place), web/engine-worker.js →
// public/engine-worker.js, uPlot's CSS → public/app.css. Then checks that
// nothing the page loads evaluates strings as code (the page's CSP forbids
// it) and that everything it loads stays under 400 KB gzipped.
//
// Usage: node scripts/build-web.mjs [--no-sourcemap]
// NO_MINIFY=1 keeps the bundle readable (for profiling).
import { build } from 'esbuild';
import { copyFile, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_FILES } from './page-files.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC = path.join(ROOT, 'public');
const BUDGET_GZIP = 400 * 1024;
const sourcemap = !process.argv.includes('--no-sourcemap');


/** Code that evaluates strings: what `script-src` without 'unsafe-eval' refuses. */
const EVAL_PATTERNS = [/\beval\s*\(/, /\bnew\s+Function\s*\(/, /\bFunction\s*\(\s*["'`]/, /\bsetTimeout\s*\(\s*["'`]/];

const common = {
  bundle: true,
  minify: !process.env.NO_MINIFY,
  format: 'esm',
  target: ['es2022'],
  platform: 'browser',
  legalComments: 'none',
  sourcemap,
  logLevel: 'warning',
  // engine.js and engine-client.js import Node built-ins by a computed name
  // when they run under Node; the browser never takes those paths.
  logOverride: { 'unsupported-dynamic-import': 'silent' },
};

/**
 * Puts the core's tables (web/app/core-tables.js: engine.parameters() and
 * engine.names()) into the bundle as data, read from public/memest.wasm
 * now, so the page has them before its worker starts.
 * @returns {import('esbuild').Plugin}
 */
function coreTables() {
  return {
    name: 'core-tables',
    setup(b) {
      b.onLoad({ filter: /[\\/]web[\\/]app[\\/]core-tables\.js$/ }, async () => {
        const { createEngine } = await import('../web/engine.js');
        const engine = await createEngine();
        const freeze = (/** @type {unknown} */ v) => `Object.freeze(${JSON.stringify(v)})`;
        return {
          contents: `export const PARAMETERS = ${freeze(engine.parameters())};\n` +
            `export const NAMES = ${freeze(engine.names())};\n`,
          loader: 'js',
        };
      });
    },
  };
}

async function bundle() {
  await build({
    ...common,
    entryPoints: [path.join(ROOT, 'web/app/main.jsx')],
    outfile: path.join(PUBLIC, 'app.js'),
    jsx: 'automatic',
    jsxImportSource: 'preact',
    plugins: [coreTables()],
  });
  await build({
    ...common,
    entryPoints: [path.join(ROOT, 'web/engine-worker.js')],
    sourcemap: false,
    outfile: path.join(PUBLIC, 'engine-worker.js'),
  });
  await copyFile(path.join(ROOT, 'node_modules/uplot/dist/uPlot.min.css'), path.join(PUBLIC, 'app.css'));
}

/** Fails when a script the page runs contains string evaluation. */
async function checkNoEval() {
  const problems = [];
  for (const name of ['app.js', 'engine-worker.js', 'memest.js']) {
    const file = path.join(PUBLIC, name);
    if (!existsSync(file)) continue;
    const text = await readFile(file, 'utf8');
    for (const re of EVAL_PATTERNS) {
      const m = re.exec(text);
      if (m) problems.push(`${name}: "${text.slice(Math.max(0, m.index - 30), m.index + 40)}"`);
    }
  }
  if (problems.length) {
    throw new Error(`code that evaluates strings (refused by the page's CSP):\n  ${problems.join('\n  ')}`);
  }
}

/** Prints raw and gzipped sizes; fails over the budget. */
async function report() {
  let raw = 0;
  let gz = 0;
  const missing = [];
  for (const name of PAGE_FILES) {
    const file = path.join(PUBLIC, name);
    if (!existsSync(file)) {
      missing.push(name);
      continue;
    }
    const bytes = await readFile(file);
    const z = gzipSync(bytes, { level: 9 }).length;
    raw += (await stat(file)).size;
    gz += z;
    console.log(`  ${name.padEnd(18)} ${String(bytes.length).padStart(8)} B  ${String(z).padStart(7)} B gzipped`);
  }
  console.log(`build-web: the page loads ${raw} B, ${gz} B gzipped (${(gz / 1024).toFixed(1)} KB; budget ${BUDGET_GZIP / 1024} KB)`);
  if (missing.length) console.log(`build-web: not built yet: ${missing.join(', ')} (memest.* come from scripts/build-wasm.sh)`);
  if (gz > BUDGET_GZIP) throw new Error(`the page is over its size budget: ${gz} B gzipped > ${BUDGET_GZIP} B`);
  return gz;
}

try {
  await bundle();
  await checkNoEval();
  await report();
} catch (e) {
  console.error(`build-web: ${e.message}`);
  process.exit(1);
}
