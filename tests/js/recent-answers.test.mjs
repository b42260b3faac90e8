// recent-answers.test.mjs — the last estimates kept by the page and the
// engine's worker: the newest kept, the oldest dropped first by count and
// by size, and a worker asked twice answers the same as the engine.
import test from 'node:test';
import assert from 'node:assert/strict';

import { recentAnswers } from '../../web/recent-answers.js';
import { createEngineClient } from '../../web/engine-client.js';
import { engine, requireBuilds } from './support.mjs';

test('the oldest answer goes first once there are more than allowed', () => {
  const kept = recentAnswers({ entries: 3, bytes: 1000 });
  for (const k of ['a', 'b', 'c']) kept.put(k, k.toUpperCase(), 10);
  assert.equal(kept.get('a'), 'A'); // a is now the newest: b is the oldest
  kept.put('d', 'D', 10);
  assert.equal(kept.count(), 3);
  assert.equal(kept.get('b'), undefined);
  assert.deepEqual(['a', 'c', 'd'].map((k) => kept.get(k)), ['A', 'C', 'D']);
});

test('answers are dropped, oldest first, until their sizes fit', () => {
  const kept = recentAnswers({ entries: 10, bytes: 100 });
  kept.put('a', 1, 40);
  kept.put('b', 2, 40);
  kept.put('c', 3, 40); // 120 > 100: a goes
  assert.deepEqual([kept.get('a'), kept.get('b'), kept.get('c')], [undefined, 2, 3]);
  kept.put('b', 20, 90); // b again, larger: c, now the oldest, goes
  assert.deepEqual([kept.get('b'), kept.get('c'), kept.count()], [20, undefined, 1]);
  kept.put('huge', 0, 101); // larger than the whole allowance: not kept, nothing dropped
  assert.deepEqual([kept.get('huge'), kept.get('b'), kept.count()], [undefined, 20, 1]);
  kept.clear();
  assert.equal(kept.count(), 0);
});

test('the worker answers an estimate asked again as the engine does, and draw_only sends no answer back', async (t) => {
  requireBuilds();
  const eng = await engine();
  const client = await createEngineClient();
  t.after(() => client.close());
  const params = {
    model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
    global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
  };
  const view = { suggestions: false, timeline_window: 4000, every_rank: true, timeline_columns: true };
  const other = { ...params, pp_size: 2 };
  const first = await client.estimate(null, params, { view });
  await client.estimate(null, other, { view });
  const again = await client.estimate(null, params, { view: { ...view, draw_timeline: true } });
  assert.deepStrictEqual(again, first);
  assert.deepStrictEqual(again, eng.estimate(null, params, view));
  assert.notDeepStrictEqual(await client.estimate(null, other, { view }), first);
  assert.equal(await client.estimate(null, params, { view: { ...view, draw_only: true } }), true);
  // Another view of the same inputs is another answer, not the kept one.
  const withSuggestions = await client.estimate(null, params, { view: { ...view, suggestions: true } });
  assert.deepStrictEqual(withSuggestions, eng.estimate(null, params, { ...view, suggestions: true }));
  assert.notDeepStrictEqual(withSuggestions, first);
});
