// Property fuzzing (fast-check) of the page's two hostile-input readers:
// the URL-state decoder (web/app/url.js) and the static server's path
// resolver (scripts/serve.mjs). FUZZ_RUNS sets the runs per property
// (default 300 here; docs/fuzzing.md gives the campaign's figures).
//   node --test tests/page/fuzz.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rawGet } from './support.mjs';
import fc from 'fast-check';
import LZString from 'lz-string';
import { DEFAULTS } from '../../web/app/state.js';
import { decodeFragment, encodeState } from '../../web/app/url.js';
import { startServer } from '../../scripts/serve.mjs';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Fragments a hostile link could carry: raw text, damaged or forged payloads. */
const payload = fc.oneof(
  fc.string({ maxLength: 400, unit: 'binary' }),
  fc.json({ maxDepth: 4 }).map((j) => LZString.compressToEncodedURIComponent(j)),
  fc.dictionary(fc.oneof(fc.constantFrom(...Object.keys(DEFAULTS), '__proto__', 'constructor'), fc.string()),
    fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 })))
    .map((o) => LZString.compressToEncodedURIComponent(JSON.stringify(o))),
  fc.string({ maxLength: 200 }).map((s) => LZString.compressToEncodedURIComponent(s).slice(0, -1)),
);
const fragment = fc.oneof(
  fc.string({ maxLength: 600, unit: 'binary' }),
  fc.tuple(fc.oneof(fc.constant('1'), fc.string({ maxLength: 5 })), payload, fc.boolean())
    .map(([v, s, embed]) => `#v=${v}&s=${s}${embed ? '&embed=1' : ''}`),
);

test('decodeFragment: any fragment gives a complete state or a sentence, never a throw', () => {
  fc.assert(fc.property(fragment, (f) => {
    const got = decodeFragment(f);
    assert.equal(typeof got, 'object');
    assert.deepEqual(Object.keys(got.state).sort(), Object.keys(DEFAULTS).sort());
    for (const [k, v] of Object.entries(got.state)) assert.equal(typeof v, typeof DEFAULTS[k], `${k} in ${f}`);
    assert.ok(got.error === null || (typeof got.error === 'string' && got.error.endsWith('.')), String(got.error));
    if (got.error !== null) assert.deepEqual(got.state, DEFAULTS);
    assert.ok(Array.isArray(got.notes));
    assert.equal(Object.getPrototypeOf(got.state), Object.prototype);
    // What it read, written back as a link, reads back the same.
    assert.deepEqual(decodeFragment(`#${encodeState(got.state)}`).state, got.state);
  }), { numRuns: RUNS });
});

let root;
let dir;
let server;
before(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'memest-fuzz-serve-'));
  dir = path.join(root, 'public');
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), '<p>page</p>');
  writeFileSync(path.join(dir, 'a.js'), 'export {};');
  writeFileSync(path.join(dir, 'sub', 'index.html'), '<p>sub</p>');
  writeFileSync(path.join(root, 'secret.txt'), 'SECRET-OUTSIDE');
  symlinkSync(path.join(root, 'secret.txt'), path.join(dir, 'out.txt'));
  server = await startServer({ dir, port: 0 });
});
after(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (rawPath) => rawGet(server.port, rawPath);

const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '%2e%2e', '%2E.', '..%2f', '%2f', '%5c', '\\', 'a.js', 'sub', 'out.txt',
    'secret.txt', 'index.html', '%00', '%', '%zz', '//evil.example', '?x', '#', '%3f', '%23', 'é', '%C3%A9'),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
);
const hostilePath = fc.array(segment, { maxLength: 8 })
  .map((parts) => `/${parts.join('/')}`.replace(/[^\x21-\x7e]/g, encodeURIComponent));

test('serve.mjs: no path leaves the folder, redirects stay on the site, no 500', async () => {
  await fc.assert(fc.asyncProperty(hostilePath, async (p) => {
    const r = await get(p);
    assert.ok([200, 301, 400, 404].includes(r.status), `${p}: ${r.status}`);
    assert.ok(!r.body.includes('SECRET-OUTSIDE'), `${p} served a file outside the folder`);
    if (r.status === 301) {
      const to = r.headers.location;
      assert.match(to, /^\/(?!\/)/, `${p} redirects off the site: ${to}`);
      assert.ok(!to.includes('\\'), `${p}: ${to}`);
    }
  }), { numRuns: RUNS });
  assert.equal((await get('/a.js')).status, 200, 'the server is still up');
});
