// typecheck.test.mjs — the JSDoc types of web/ hold: TypeScript's checker
// over every .js and .jsx file there (tsconfig.json: checkJs, no output),
// with Preact's JSX types. Fails on any type error, and prints them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from './support.mjs';

const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('tsc --noEmit --checkJs over web/ finds no type error', async () => {
  assert.ok(existsSync(tsc), `${tsc} is missing: run npm ci (scripts/setup.sh does)`);
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFilesOnly'], { cwd: ROOT });
  const checked = stdout.split('\n').filter((f) => /\/web\/.*\.jsx?$/.test(f));
  assert.ok(checked.some((f) => f.endsWith('.jsx')) && checked.some((f) => f.endsWith('engine.js')),
    `tsconfig.json should take in web/**/*.js and *.jsx; it lists ${checked.length} files`);
  const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: ROOT })
    .then(() => ({ code: 0, out: '' }), (e) => ({ code: e.code, out: `${e.stdout}${e.stderr}` }));
  assert.equal(result.code, 0, `type errors in web/:\n${result.out}`);
});
