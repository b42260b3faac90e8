// hosts.mjs — the other servers of the hosting and embedding tests: a
// document page on a second origin (http://localhost:PORT, while the
// calculator is on http://127.0.0.1) and the page under a sub-path of
// Python's plain http.server. Not a test file itself.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { createServer as netServer } from 'node:net';

/**
 * Serves `pages[path]` (HTML text) on http://localhost:PORT; a missing path
 * is a 404. Returns {url, pages, close()}; `pages` may be changed later.
 */
export async function startDocServer(pages = {}) {
  const server = createServer((req, res) => {
    const body = pages[req.url.split('?')[0]];
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://localhost:${server.address().port}`, pages, close: () => new Promise((ok) => server.close(ok)) };
}

async function freePort() {
  const s = netServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/**
 * `python3 -m http.server` on 127.0.0.1 serving `dir`: no CSP header, the
 * types of Python's mimetypes. Returns {url, close()} once it answers.
 */
export async function startPythonServer(dir) {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${url}/`);
      return { url, close: async () => { child.kill(); } };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('python3 -m http.server did not start');
}
