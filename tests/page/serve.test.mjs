// The page's static server (scripts/serve.mjs): types, paths, the policy
// header, the port fallback. node --test tests/page/serve.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'node:http';
import { startServer } from '../../scripts/serve.mjs';

const POLICY = "default-src 'none'; script-src 'self'";
let dir;
let server;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'memest-serve-'));
  writeFileSync(path.join(dir, 'index.html'), `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`);
  writeFileSync(path.join(dir, 'a.js'), 'export {};');
  writeFileSync(path.join(dir, 'm.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(path.join(dir, 's.css'), 'p{}');
  server = await startServer({ dir, port: 0 });
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET (no URL normalisation, unlike fetch). */
function get(rawPath) {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: rawPath }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serves the page on 127.0.0.1 with the right types and the page\'s policy', async () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.headers['content-security-policy'], POLICY);
  assert.equal((await get('/a.js')).headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal((await get('/m.wasm')).headers['content-type'], 'application/wasm');
  assert.equal((await get('/s.css')).headers['content-type'], 'text/css; charset=utf-8');
  assert.equal((await get('/a.js?x=1')).status, 200);
});

test('refuses paths outside its folder and answers 404 for missing files', async () => {
  for (const p of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd', '/a.js%00.html']) {
    const r = await get(p);
    assert.ok(r.status === 400 || r.status === 404, `${p}: ${r.status}`);
    assert.doesNotMatch(r.body, /root:/);
  }
  assert.equal((await get('/missing.js')).status, 404);
});

test('falls back to a free port when the one asked for is taken', async () => {
  const other = await startServer({ dir, port: server.port });
  try {
    assert.notEqual(other.port, server.port);
    assert.equal((await get('/')).status, 200);
  } finally {
    await other.close();
  }
});
