// unchanged.test.mjs — a change of structure leaves every answer as it was:
// the CLI's `--json` text and the page's answer for every preset crossed
// with twelve layouts and two plans (tests/golden/unchanged.mjs) have the
// SHA-256 digests recorded in tests/golden/unchanged.json.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { engine, requireBuilds, runCli } from './support.mjs';
import { LAYOUTS, PLANS, PRESETS, RECORD, digests } from '../golden/unchanged.mjs';

test('every preset, layout and plan answers byte for byte as recorded', async () => {
  requireBuilds();
  const want = JSON.parse(readFileSync(RECORD, 'utf8'));
  const got = await digests(runCli, await engine());
  assert.equal(Object.keys(got).length, PRESETS.length * (LAYOUTS.length * 3 + PLANS.length * 2));
  const moved = Object.keys({ ...want, ...got }).filter((k) => want[k] !== got[k]);
  assert.deepEqual(moved, [], `answers that moved (run git stash, then node tests/golden/unchanged.mjs --record, to see the recorded ones): ${moved.join('; ')}`);
  // The grid is not all errors: most cases are estimates.
  const ok = Object.entries(got).filter(([k, v]) => k.endsWith(' cli') && v.startsWith('0 ')).length;
  assert.ok(ok >= PRESETS.length * (LAYOUTS.length + PLANS.length) * 0.85, `${ok} of the CLI cases succeeded`);
});
