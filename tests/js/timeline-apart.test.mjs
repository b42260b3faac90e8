// timeline-apart.test.mjs — a page view's answer with its events apart
// (view.timeline_apart): the engine's two lines, the same result once the
// events are back, events parsed only when first read, and the chart's
// figures at rest (timeline-data.js) read without them.
import test from 'node:test';
import assert from 'node:assert/strict';

import { createEngineClient } from '../../web/engine-client.js';
import { attachTimeline, splitAnswer } from '../../web/timeline-apart.js';
import {
  eventIndices, eventOf, eventParts, keptEvents, peakPosition, timelineData, timelineRank, timelineSignature,
} from '../../web/app/timeline-data.js';
import { engine, requireBuilds } from './support.mjs';

const BASE = {
  model: 'qwen3-30b-a3b', pp_size: 4, ep_size: 8, cp_size: 1, total_gpus: 32, micro_batch_size: 1,
  global_batch_size: 1024, sequence_length: 4096, gpu: 'h100',
};
const VIEW = { suggestions: false, timeline_window: 4000, every_rank: true, timeline_columns: true };
const SUMMARY = ['events_kept', 'events_first', 'peak_event_detail'];

/** Whether `rank`'s events are still waiting to be parsed. */
const unread = (rank) => typeof Object.getOwnPropertyDescriptor(rank, 'events')?.get === 'function';

/** The result without the summary the apart answer adds to its timeline's rank. */
function withoutSummary(result) {
  const copy = structuredClone(result);
  for (const r of copy.ranks) for (const k of SUMMARY) delete r[k];
  return copy;
}

// Whole schedules, a window of one and a chosen rank, each with the events'
// components per event and as columns.
const CASES = [
  { params: BASE, view: VIEW },
  { params: BASE, view: { ...VIEW, timeline_columns: false } },
  { params: { ...BASE, global_batch_size: 8192 }, view: { ...VIEW, timeline_window: 300 } },
  { params: { ...BASE, pp_rank: 2 }, view: VIEW },
];

test('apart, the answer is two lines: the result, then its shown rank\'s events; put together, the same result', async () => {
  requireBuilds();
  const eng = await engine();
  for (const { params, view } of CASES) {
    const name = JSON.stringify([params.global_batch_size, params.pp_rank, view]);
    const whole = eng.estimate(null, params, view);
    const text = eng.estimateJson(null, params, { ...view, timeline_apart: true });
    assert.equal(text.split('\n').length, 2, name);
    const { json, timeline } = splitAnswer(text);
    const result = JSON.parse(json);
    const rank = timelineRank(result);
    const wholeRank = timelineRank(whole);
    assert.equal(rank.pp_rank, wholeRank.pp_rank, name);
    assert.equal(rank.pp_rank, params.pp_rank ?? whole.worst_rank, name);
    assert.equal(rank.events, undefined, `${name}: no events in the first line`);
    assert.equal(rank.event_components, undefined, name);
    const events = JSON.parse(timeline);
    assert.equal(events.pp_rank, rank.pp_rank, name);
    assert.deepStrictEqual(events.events, wholeRank.events, name);
    assert.deepStrictEqual(events.event_components, wholeRank.event_components, name);
    assert.deepStrictEqual(events.event_steps, wholeRank.event_steps, name);
    if (view.timeline_columns) assert.deepStrictEqual(events.event_steps, wholeRank.events.map((e) => e.step), name);
    // The rank's summary of its events.
    assert.equal(rank.events_kept, wholeRank.events.length, name);
    assert.ok(rank.events_kept > 100, name);
    if (view.timeline_window === 300) assert.equal(rank.events_kept, 300, `${name}: a window`);
    assert.deepStrictEqual(Array.from(wholeRank.events, (e) => e.index),
      Array.from({ length: rank.events_kept }, (_, i) => rank.events_first + i), `${name}: events one after another`);
    const at = wholeRank.events.findIndex((e) => e.index === wholeRank.peak_event_index);
    const { components, ...detail } = rank.peak_event_detail;
    const { components: own, ...peakEvent } = wholeRank.events[at];
    assert.deepStrictEqual(detail, peakEvent, name);
    const cols = wholeRank.event_components;
    assert.deepStrictEqual(components, own ?? Object.fromEntries(Object.keys(cols).map((k) => [k, cols[k][at]])), name);
    // Put together (eagerly by estimate(), lazily by the client), the same result.
    const apart = eng.estimate(null, params, { ...view, timeline_apart: true });
    assert.deepStrictEqual(withoutSummary(apart), whole, name);
    assert.deepStrictEqual(withoutSummary(attachTimeline(JSON.parse(json), timeline)), whole, name);
  }
});

test('the events parse when first read, once; the chart\'s figures at rest need none of them', async () => {
  requireBuilds();
  const eng = await engine();
  for (const { params, view } of CASES) {
    const name = JSON.stringify([params.global_batch_size, params.pp_rank, view]);
    const whole = timelineRank(eng.estimate(null, params, view));
    const { json, timeline } = splitAnswer(eng.estimateJson(null, params, { ...view, timeline_apart: true }));
    const result = attachTimeline(JSON.parse(json), timeline);
    const rank = timelineRank(result);
    assert.ok(unread(rank), name);
    // What Timeline.jsx reads at rest is what the whole rank gives.
    assert.equal(keptEvents(rank), keptEvents(whole), name);
    assert.deepStrictEqual(eventIndices(rank), eventIndices(whole), name);
    const peak = peakPosition(rank);
    assert.equal(peak, peakPosition(whole), name);
    assert.ok(peak >= 0, name);
    assert.equal(timelineSignature(rank, 80e9), timelineSignature(whole, 80e9), name);
    assert.deepStrictEqual(eventParts(rank, peak), eventParts(whole, peak), name);
    const { components, ...shown } = eventOf(rank, peak);
    const { components: own, ...wholePeak } = eventOf(whole, peak);
    assert.deepStrictEqual(shown, wholePeak, name);
    assert.ok(components && Object.keys(components).length >= 17, name);
    assert.ok(unread(rank), `${name}: still unread`);
    // The drawing (the worker's) reads the columns and steps alone, where
    // the view has them.
    assert.deepStrictEqual(timelineData(rank), timelineData(whole), name);
    assert.equal(unread(rank), view.timeline_columns, `${name}: drawn without the events`);
    // Another event, the pointer's, reads them: once.
    const first = rank.events;
    assert.ok(!unread(rank), name);
    assert.equal(rank.events, first, `${name}: parsed once`);
    assert.deepStrictEqual(first, whole.events, name);
    assert.deepStrictEqual(eventParts(rank, 0), eventParts(whole, 0), name);
    assert.deepStrictEqual(rank.event_components, whole.event_components, name);
  }
});

test('an answer of one line, or one without a rank that kept events, is left as it is', async () => {
  requireBuilds();
  const eng = await engine();
  const bad = eng.estimateJson(null, { ...BASE, total_gpus: 33 }, { ...VIEW, timeline_apart: true });
  assert.deepStrictEqual(splitAnswer(bad), { json: bad, timeline: null });
  assert.ok(JSON.parse(bad).error, 'an error is one JSON text');
  const plain = { ranks: [{ pp_rank: 0, peak_bytes: 1 }] };
  assert.equal(attachTimeline(plain, '{"pp_rank":0,"events":[]}'), plain);
  assert.deepStrictEqual(plain, { ranks: [{ pp_rank: 0, peak_bytes: 1 }] });
  assert.equal(attachTimeline(plain, null), plain);
  assert.equal(attachTimeline({ error: { code: 'value' } }, '{}').ranks, undefined);
});

test('through the worker, an apart page view arrives with its events unread, and they are the engine\'s', async (t) => {
  requireBuilds();
  const eng = await engine();
  const client = await createEngineClient();
  t.after(() => client.close());
  const got = await client.estimate(null, BASE, { view: { ...VIEW, timeline_apart: true, draw_timeline: true } });
  const rank = timelineRank(got);
  assert.ok(unread(rank));
  assert.deepStrictEqual(withoutSummary(got), eng.estimate(null, BASE, VIEW));
  assert.ok(!unread(rank), 'compared, so read');
});
