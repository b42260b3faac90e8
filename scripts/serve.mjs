#!/usr/bin/env node
// serve.mjs — a small static server for public/ on 127.0.0.1, with no
// dependencies. Port from PORT (default 8000); when that port is taken it
// falls back to a free one. Prints the page's URL. Every response carries
// the Content-Security-Policy of index.html's meta tag as a header too, so
// that it also governs the engine's worker (a worker does not inherit the
// page's meta policy).
//
// --hub ORIGIN serves index.html with another hub in place of the one it
// names (its <meta name="memest-hub"> and its policy's connect-src), and
// --hub none with none: the page's hub field then says fetching is not
// allowed (docs/hosting.md). The page tests point it at a stand-in hub on
// loopback this way.
//
// Usage: node scripts/serve.mjs [dir] [--hub ORIGIN|none]
// As a module: startServer({dir, port, hub}) → {url, port, close()}.
import { createServer } from 'node:http';
import { constants } from 'node:fs';
import { open, readFile, realpath } from 'node:fs/promises';
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

/**
 * The request path as a path inside the served folder ('' for the folder
 * itself, 'a/b.js'), or null when it is malformed or escapes the folder.
 */
function requestPath(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (p.includes('\0') || p.includes('\\')) return null;
  const parts = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return null;
    parts.push(seg);
  }
  return parts.join('/');
}

// Non-blocking, so that a FIFO in the folder is refused instead of waited on.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Whether the real path `file` lies inside the real folder `root`. */
function inside(root, file) {
  return file === root || file.startsWith(root + path.sep);
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

/**
 * index.html's text and policy with the hub `hub` (an http(s) origin, or
 * 'none') in place of the one its <meta name="memest-hub"> names: that
 * meta's content and the origin in connect-src. Returns {html, policy}.
 */
export function withHub(html, policy, hub) {
  const named = /<meta\s+name="memest-hub"\s+content="([^"]*)"/i.exec(html)?.[1] ?? '';
  let origin = '';
  if (hub !== 'none') {
    const u = new URL(hub);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`--hub ${hub}: not an http(s) origin`);
    origin = u.origin;
  }
  const newPolicy = String(policy).split(';').map((d) => {
    const words = d.trim().split(/\s+/);
    if (words[0] !== 'connect-src') return d.trim();
    const kept = words.slice(1).filter((w) => w !== named && w !== origin);
    return ['connect-src', ...kept, ...(origin ? [origin] : [])].join(' ');
  }).join('; ');
  const newHtml = html
    .replace(/(<meta\s+name="memest-hub"\s+content=")[^"]*(")/i, `$1${origin}$2`)
    .replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]+(")/i, `$1${newPolicy}$2`);
  return { html: newHtml, policy: newPolicy };
}

function handler(dir, policy, page = null) {
  return async (req, res) => {
    const send = (code, text) => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    const rel = requestPath(req.url ?? '/');
    if (rel === null) return send(400, 'bad path\n');
    const wantsDir = (req.url ?? '/').split('?')[0].endsWith('/');
    let file;
    try {
      // Symbolic links are followed only while they stay inside the folder.
      file = await realpath(path.join(dir, rel));
    } catch {
      return send(404, 'not found\n');
    }
    if (!inside(dir, file)) return send(404, 'not found\n');
    let fh;
    try {
      let info = await (fh = await open(file, READ_FLAGS)).stat();
      if (info.isDirectory()) {
        await fh.close();
        fh = undefined;
        if (!wantsDir) {
          // Built from the checked path, never from the raw request: a
          // request for //host/.. must not redirect off the site.
          const to = `/${rel.split('/').filter(Boolean).map(encodeURIComponent).join('/')}/`;
          res.writeHead(301, { Location: to.replace(/^\/+/, '/') });
          return res.end();
        }
        file = await realpath(path.join(file, 'index.html'));
        if (!inside(dir, file)) return send(404, 'not found\n');
        fh = await open(file, READ_FLAGS);
        info = await fh.stat();
      }
      if (!info.isFile()) {
        await fh.close();
        return send(404, 'not found\n');
      }
      const own = page !== null && file === path.join(dir, 'index.html');
      const body = req.method === 'HEAD' ? Buffer.alloc(0) : own ? Buffer.from(page) : await fh.readFile();
      await fh.close();
      const headers = {
        'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': req.method === 'HEAD' ? (own ? Buffer.byteLength(page) : info.size) : body.length,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      };
      if (policy) headers['Content-Security-Policy'] = policy;
      res.writeHead(200, headers);
      return res.end(body);
    } catch (e) {
      await fh?.close().catch(() => {});
      if (res.headersSent) return res.destroy();
      return send(e?.code === 'ENOENT' ? 404 : 500, e?.code === 'ENOENT' ? 'not found\n' : 'read error\n');
    }
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
 * 8000; 0 = any free port), falling back to a free port when it is taken;
 * with `hub` (an origin, or 'none'), index.html names that hub (withHub).
 */
export async function startServer({ dir = path.join(ROOT, 'public'), port, hub } = {}) {
  const root = await realpath(path.resolve(dir));
  let policy = await pagePolicy(root);
  let page = null;
  if (hub !== undefined) {
    const changed = withHub(await readFile(path.join(root, 'index.html'), 'utf8'), policy ?? '', hub);
    ({ html: page, policy } = changed);
  }
  const server = createServer(handler(root, policy, page));
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
  const args = process.argv.slice(2);
  const at = args.indexOf('--hub');
  const hub = at >= 0 ? args.splice(at, 2)[1] : undefined;
  if (at >= 0 && !hub) {
    console.error('serve: --hub needs an origin (https://hub.example) or none');
    process.exit(1);
  }
  const dir = path.resolve(args[0] ?? path.join(ROOT, 'public'));
  const missing = missingPageFiles(dir);
  if (missing.length) {
    console.error(`serve: ${missing.join(', ')} missing in ${dir}: build the page with bash scripts/build.sh`);
    process.exit(1);
  }
  let s;
  try {
    s = await startServer({ dir, hub });
  } catch (e) {
    console.error(`serve: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
  console.log(`memest page: ${s.url}`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
