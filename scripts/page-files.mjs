#!/usr/bin/env node
// page-files.mjs — the one list of the files the page loads, in public/:
// index.html and everything it pulls in. build-web.mjs checks their size
// budget, serve.mjs refuses to start without them, the page tests require
// them and sum their sizes, and a deploy copies them.
//
// As a module: PAGE_FILES, missingPageFiles(dir). Run directly, prints
// the list one name a line (for shell scripts and workflows).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every file index.html makes the browser load, relative to public/. */
export const PAGE_FILES = Object.freeze([
  'index.html', 'style.css', 'app.css', 'favicon.svg', 'app.js', 'engine-worker.js', 'memest.js', 'memest.wasm',
]);

/**
 * The page files missing under dir.
 * @param {string} dir
 * @returns {string[]}
 */
export function missingPageFiles(dir) {
  return PAGE_FILES.filter((f) => !existsSync(path.join(dir, f)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const f of PAGE_FILES) console.log(f);
}
