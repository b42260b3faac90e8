#!/usr/bin/env node
// serve.mjs — a small static server for public/ on 127.0.0.1, with no
// dependencies. Port from PORT (default 8000); when that port is taken it
// falls back to a free one. Prints the page's URL. Every response carries
// the Content-Security-Policy of index.html's meta tag as a header too, so
// that it also governs the engine's worker (a worker does not inherit the
// page's meta policy).
//
// Usage: node scripts/serve.mjs [dir]
// As a module: startServer({dir, port}) → {url, port, close()}.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { missingPageFiles } from './page-files.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** The file under `dir` for a request path, or null when it escapes `dir`. */
function resolve(dir, urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (p.includes('\0')) return null;
  if (p.endsWith('/')) p += 'index.html';
  const file = path.resolve(dir, `.${path.posix.normalize(p)}`);
  return file === dir || file.startsWith(dir + path.sep) ? file : null;
}

/** The policy in `dir`/index.html's CSP meta tag, or null. */
export async function pagePolicy(dir) {
  try {
    const html = await readFile(path.join(dir, 'index.html'), 'utf8');
    const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

function handler(dir, policy) {
  return async (req, res) => {
    const send = (code, text) => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    const file = resolve(dir, req.url ?? '/');
    if (!file) return send(400, 'bad path\n');
    let info;
    try {
      info = await stat(file);
    } catch {
      return send(404, 'not found\n');
    }
    if (info.isDirectory()) {
      res.writeHead(301, { Location: `${req.url.split('?')[0]}/` });
      return res.end();
    }
    const headers = {
      'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': info.size,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    };
    if (policy) headers['Content-Security-Policy'] = policy;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  };
}

function listen(server, port) {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok(server.address().port);
    });
  });
}

/**
 * Serves `dir` (default public/) on 127.0.0.1:`port` (default PORT or
 * 8000; 0 = any free port), falling back to a free port when it is taken.
 */
export async function startServer({ dir = path.join(ROOT, 'public'), port } = {}) {
  const root = path.resolve(dir);
  const server = createServer(handler(root, await pagePolicy(root)));
  const wanted = port ?? Number(process.env.PORT || 8000);
  let actual;
  try {
    actual = await listen(server, wanted);
  } catch (e) {
    if (e.code !== 'EADDRINUSE' && e.code !== 'EACCES') throw e;
    actual = await listen(server, 0);
  }
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}/`,
    close: () => new Promise((ok) => {
      server.closeAllConnections?.();
      server.close(() => ok());
    }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = path.resolve(process.argv[2] ?? path.join(ROOT, 'public'));
  const missing = missingPageFiles(dir);
  if (missing.length) {
    console.error(`serve: ${missing.join(', ')} missing in ${dir}: build the page with bash scripts/build.sh`);
    process.exit(1);
  }
  const s = await startServer({ dir });
  console.log(`memest page: ${s.url}`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
