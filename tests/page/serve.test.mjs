// The page's static server (scripts/serve.mjs): types, paths, the policy
// header, the port fallback, another hub in place of the page's.
// node --test tests/page/serve.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rawGet } from './support.mjs';
import { startServer, withHub } from '../../scripts/serve.mjs';

const POLICY = "default-src 'none'; script-src 'self'";
let dir;
let server;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'memest-serve-'));
  writeFileSync(path.join(dir, 'index.html'), `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`);
  writeFileSync(path.join(dir, 'a.js'), 'export {};');
  writeFileSync(path.join(dir, 'm.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(path.join(dir, 's.css'), 'p{}');
  mkdirSync(path.join(dir, 'sub'));
  writeFileSync(path.join(dir, 'sub', 'index.html'), '<p>sub</p>');
  symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
  symlinkSync(path.join(dir, 'a.js'), path.join(dir, 'inside.js'));
  execFileSync('mkfifo', [path.join(dir, 'pipe.js')]);
  server = await startServer({ dir, port: 0 });
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (rawPath) => rawGet(server.port, rawPath);

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

test('redirects a folder to itself with a slash, never off the site', async () => {
  const sub = await get('/sub');
  assert.equal(sub.status, 301);
  assert.equal(sub.headers.location, '/sub/');
  assert.equal((await get('/sub/')).body, '<p>sub</p>');
  for (const p of ['//evil.example/..%2f.', '//evil.example/%2e%2e/', '/\\evil.example/..%2f.', '//evil.example/../sub']) {
    const r = await get(p);
    assert.ok(!r.headers.location || /^\/(?![\/\\])/.test(r.headers.location), `${p}: Location ${r.headers.location}`);
  }
});

test('follows symbolic links only while they stay inside its folder', async () => {
  const out = await get('/passwd');
  assert.equal(out.status, 404);
  assert.doesNotMatch(out.body, /root:/);
  const inside = await get('/inside.js');
  assert.equal(inside.status, 200);
  assert.equal(inside.body, 'export {};');
});

test('refuses a FIFO at once instead of waiting on it', async () => {
  const r = await get('/pipe.js');
  assert.equal(r.status, 404);
});

test('a read error answers 500 and the server keeps serving', async () => {
  // /proc/self/mem is a regular file whose read at offset 0 fails with EIO.
  const proc = await startServer({ dir: '/proc/self', port: 0 });
  try {
    const r = (await rawGet(proc.port, '/mem')).status;
    assert.equal(r, 500);
  } finally {
    await proc.close();
  }
  assert.equal((await get('/a.js')).status, 200);
});

test('--hub puts another hub in the page\'s meta and connect-src, or none', async () => {
  const policy = "default-src 'none'; connect-src 'self' https://huggingface.co; worker-src 'self'";
  const html = `<meta http-equiv="Content-Security-Policy" content="${policy}">\n<meta name="memest-hub" content="https://huggingface.co">`;
  const other = withHub(html, policy, 'http://127.0.0.1:9999/');
  assert.equal(other.policy, "default-src 'none'; connect-src 'self' http://127.0.0.1:9999; worker-src 'self'");
  assert.ok(other.html.includes(`content="${other.policy}"`));
  assert.ok(other.html.includes('<meta name="memest-hub" content="http://127.0.0.1:9999">'));
  const none = withHub(html, policy, 'none');
  assert.equal(none.policy, "default-src 'none'; connect-src 'self'; worker-src 'self'");
  assert.ok(none.html.includes('<meta name="memest-hub" content="">'));
  assert.throws(() => withHub(html, policy, 'ftp://x'), /not an http\(s\) origin/);
  // Served: the page and the header carry the same policy.
  const d = mkdtempSync(path.join(tmpdir(), 'memest-hub-serve-'));
  writeFileSync(path.join(d, 'index.html'), html);
  const s = await startServer({ dir: d, port: 0, hub: 'none' });
  try {
    const page = await rawGet(s.port, '/');
    assert.equal(page.headers['content-security-policy'], none.policy);
    assert.equal(page.body, none.html);
    assert.equal(Number(page.headers['content-length']), Buffer.byteLength(none.html));
  } finally {
    await s.close();
    rmSync(d, { recursive: true, force: true });
  }
});
