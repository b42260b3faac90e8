// The page's state against the engine it drives (Node, no browser): the
// defaults and choices agree, every engine parameter has a place in the
// state (and so in links), and the opening view is valid.
// Needs public/memest.wasm (scripts/build-wasm.sh).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { createEngine } from '../../web/engine.js';
import { DEFAULTS, SCHEMA, toParams, configOf } from '../../web/app/state.js';
import { EXTRA_MODELS, MODELS } from './support.mjs';

/** Engine parameters the page sets per request rather than from the state. */
const PER_REQUEST = new Set(['timeline', 'timeline_limit', 'detail']);

let engine;
before(async () => {
  engine = await createEngine();
});

test('every engine parameter is an input of the page (or set per request)', () => {
  for (const p of engine.parameters()) {
    if (PER_REQUEST.has(p.name)) continue;
    assert.ok(p.name in DEFAULTS, `${p.name} has no place in the page's state`);
  }
});

test('the defaults and choices are the engine\'s', () => {
  for (const p of engine.parameters()) {
    if (PER_REQUEST.has(p.name) || p.required || p.default === '') continue;
    const spec = SCHEMA[p.name];
    if (spec.kind === 'enum') {
      assert.deepEqual([...p.choices].sort(), [...spec.values].sort(), p.name);
      assert.equal(DEFAULTS[p.name], p.default, p.name);
    } else {
      assert.equal(DEFAULTS[p.name], Number(p.default), p.name);
    }
  }
});

test('the presets include the opening model and GPU, and every shared model', () => {
  const { models, gpus } = engine.presets();
  const names = models.map((m) => m.name);
  assert.ok(names.includes(DEFAULTS.model));
  assert.ok(gpus.some((g) => g.name === DEFAULTS.gpu));
  const dirs = [MODELS, ...(existsSync(EXTRA_MODELS) ? [EXTRA_MODELS] : [])];
  for (const f of dirs.flatMap((d) => readdirSync(d)).filter((x) => x.endsWith('.json'))) {
    assert.ok(names.includes(f.replace(/\.json$/, '')), `no preset for ${f}`);
  }
});

test('the opening view is valid and estimates', () => {
  const params = toParams(DEFAULTS);
  assert.deepEqual(engine.validate(configOf(DEFAULTS), params), []);
  const r = engine.estimate(configOf(DEFAULTS), params);
  assert.equal(r.error, undefined);
  assert.ok(r.peak_bytes > 0);
  assert.deepEqual(r.inputs.model, DEFAULTS.model);
});
