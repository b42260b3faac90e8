// The trainer's files describe a DualPipeV run: reading them sets the page's
// schedule back to DualPipeV, with a note, and leaves DualPipeV alone.
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyRun } from '../../web/app/trainer-files.js';

const answer = { params: { pp_size: 4, ep_size: 8 }, model: { preset: 'qwen3-30b-a3b' }, source: { kind: 'script', notes: [] } };

test('a run read into a page on 1F1B is DualPipeV again, and the record says why', () => {
  const { patch, record } = applyRun(answer, {}, { schedule: '1f1b', gpu_memory_gb: 80 });
  assert.equal(patch.schedule, 'dualpipev');
  assert.equal(patch.pp_size, 4);
  assert.ok(record.notes.some((n) => n.includes('The trainer runs DualPipeV only') && n.includes('1f1b')));
});

test('a run read into a page on DualPipeV changes no schedule and adds no note', () => {
  const { patch, record } = applyRun(answer, {}, { schedule: 'dualpipev', gpu_memory_gb: 80 });
  assert.equal('schedule' in patch, false);
  assert.equal(record.notes.length, 0);
});
