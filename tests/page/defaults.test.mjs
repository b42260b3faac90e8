// The page's state against the engine it drives (Node, no browser): the
// defaults and choices agree, every engine parameter has a place in the
// state (and so in links), and the opening view is valid.
// Needs public/memest.wasm (scripts/build-wasm.sh).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { createEngine } from '../../web/engine.js';
import { DEFAULTS, SCHEMA, toParams, configOf } from '../../web/app/state.js';
import { tightPercent } from '../../web/app/names.js';
import { ALL_PARTS, partLabel, partColor } from '../../web/app/palette.js';
import { enumOptions, enumTitle } from '../../web/app/enum-titles.js';
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

test('the opening view is the core\'s worked example, with the core\'s defaults', () => {
  for (const p of engine.parameters()) {
    if (PER_REQUEST.has(p.name)) continue;
    const text = p.example || p.default;
    assert.equal(String(DEFAULTS[p.name]), p.kind === 'number' ? String(Number(text)) : text, p.name);
  }
});

test('the page labels components with the core\'s titles and colours every one', () => {
  const { components } = engine.names();
  assert.deepEqual(ALL_PARTS.map(([key]) => key), components.map((c) => c.key));
  for (const c of components) {
    assert.equal(partLabel(c.key), c.title);
    assert.notEqual(partColor(c.key), '#999999', c.key);
  }
  assert.equal(partLabel('master_params'), 'fp32 master weights (sharded)');
});

test('enum controls list the core\'s values in its order, each with a title', () => {
  const names = engine.names();
  for (const which of ['optimizer', 'sharding', 'fp8_training']) {
    assert.deepEqual(enumOptions(which).map(([v]) => v), names[which], which);
    for (const v of names[which]) assert.notEqual(enumTitle(which, v), v, `${which}=${v} has a title`);
    assert.deepEqual([...SCHEMA[`cmp_${which}`].values], ['', ...names[which]], which);
  }
  assert.equal(enumOptions('sharding', { hsdp: '(within)' })[1][1], 'HSDP (within)');
});

test('the TIGHT threshold is the core\'s', () => {
  assert.equal(tightPercent(), engine.names().tight_percent);
  assert.equal(tightPercent(), 5);
});
