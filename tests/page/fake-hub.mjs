// fake-hub.mjs — a stand-in for the Hugging Face hub on a free loopback
// port, for the page's hub field (tests/page/hub.test.mjs) and the CLI
// beside it: each model answers /<org>/<name>/resolve/main/config.json as
// the hub does in one situation, with the hub's CORS headers (any origin,
// its error and revision headers exposed). Every request is kept in
// `requests` ({path, authorization, cookie}). Not a test file itself.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const SUFFIX = '/resolve/main/config.json';

/** The config the stand-in serves: a preset's, under another name, without its _name_or_path. */
export function servedConfig() {
  const c = JSON.parse(readFileSync(path.join(ROOT, 'presets', 'deepseek-v2-lite.json'), 'utf8'));
  delete c._name_or_path;
  return JSON.stringify(c, null, 2);
}

/** Starts the stand-in: {origin, requests, close()}. */
export async function startFakeHub() {
  const config = servedConfig();
  const requests = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null });
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'X-Repo-Commit, X-Error-Code, X-Error-Message, ETag',
    };
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { ...cors, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    const error = (status, code, message) => send(status, JSON.stringify({ error: message }), { 'X-Error-Code': code, 'X-Error-Message': message });
    const model = req.url.endsWith(SUFFIX) ? req.url.slice(1, -SUFFIX.length) : null;
    switch (model) {
      case 'test-org/Found-MoE': return send(200, config, { 'X-Repo-Commit': COMMIT, ETag: '"cafe0123"' });
      case 'test-org/Missing': return error(404, 'RepoNotFound', 'Repository not found');
      case 'test-org/No-Config': return error(404, 'EntryNotFound', 'Entry not found');
      case 'test-org/Gated-MoE': return error(401, 'GatedRepo', 'Access to model test-org/Gated-MoE is restricted');
      case 'test-org/Forbidden-MoE': return error(403, 'GatedRepo', 'Access to model test-org/Forbidden-MoE is restricted');
      case 'test-org/Busy': return error(503, 'ServiceUnavailable', 'Try again later');
      case 'test-org/Not-Json': return send(200, '<html>not a config</html>', { 'Content-Type': 'text/html', 'X-Repo-Commit': COMMIT });
      case 'test-org/Huge': {
        // Two mebibytes, sent in pieces without a length, as a stream.
        res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'X-Repo-Commit': COMMIT });
        const piece = ` ${'x'.repeat(65535)}`;
        let left = 32;
        const more = () => {
          while (left > 0) {
            left--;
            if (!res.write(piece)) return res.once('drain', more);
          }
          return res.end();
        };
        return more();
      }
      default: return error(404, 'RepoNotFound', 'Repository not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = /** @type {any} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((ok) => {
      server.closeAllConnections?.();
      server.close(() => ok(undefined));
    }),
  };
}
