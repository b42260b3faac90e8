// compare.mjs — the time model against the measured step times of
// tests/data/throughput/rows.json: runs `memest --json` for every row whose
// layout is known (stated, or inferred as the row's `how` says; the inputs
// the row leaves open are filled in below, each with its reason) and prints
// the measured and estimated figures side by side, as Markdown with --markdown
// or JSON with --json. Used by tests/js/throughput.test.mjs and for
// docs/accuracy.md ("Throughput").
//   node tests/throughput/compare.mjs [--memest build/memest] [--markdown|--json] [-- extra flags]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rowsPath = join(root, 'tests', 'data', 'throughput', 'rows.json');

// Inputs a row does not state, with the reason each is taken.
const FILL = {
  gpu: ['h100', 'the runs whose GPU is not stated fit 80 GB parts and are read as H100 (rows.json, how)'],
  micro_batch_size: [1, "the trainer's example and validation scripts use micro-batch 1"],
  optimizer: ['adam', "the trainer's scripts of that time use Adam"],
  gbs_issue79: [1024, 'issue #79 does not state the global batch; 1024 as in the other rows'],
};

// Rows whose layout the thread does not give at all: no estimate.
const SKIP = {
  'dsv2-lite-32xh100-cp8-seq32768': 'pp, ep and the batch are not stated',
  'dsv2-lite-32xh100-dp2-cp4-seq16384': 'pp, ep and the batch are not stated',
  'qwen3-30b-b200-fsdp8-seq8192-torchtitan': 'another trainer (TorchTitan, no DualPipeV)',
};

// Layouts of rows that give only tokens a step, from the example script of
// their commit as the row's `how` names it.
const LAYOUT = {
  'dsv2-lite-pp2-ep2-seq2048-pr3': { pp: 2, ep: 2, cp: 1, gpus: 8, gbs: 1024, seq: 2048 },
  'qwen3-30b-pr7': { pp: 2, ep: 8, cp: 1, gpus: 16, gbs: 1024, seq: 2048 },
  'dsv2-lite-pr7': { pp: 2, ep: 2, cp: 1, gpus: 8, gbs: 1024, seq: 2048 },
};

const stated = (v) => v !== 'not stated' && v !== null && v !== undefined;

export function inputsOf(row) {
  if (SKIP[row.id]) return { skip: SKIP[row.id] };
  const filled = [];
  const take = (v, key) => {
    if (stated(v)) return v;
    filled.push(`${key}: ${FILL[key][1]}`);
    return FILL[key][0];
  };
  const lay = LAYOUT[row.id] ?? {
    pp: row.pp, ep: row.ep, cp: row.cp, gpus: row.gpus,
    gbs: stated(row.global_batch_size) ? row.global_batch_size
      : (row.id.includes('issue79') ? (filled.push(`global batch: ${FILL.gbs_issue79[1]}`), FILL.gbs_issue79[0]) : undefined),
    seq: row.sequence_length,
  };
  if (LAYOUT[row.id]) filled.push('layout: the example script of its commit, as the row says');
  const opt = take(row.optimizer, 'optimizer');
  const flags = [
    '--model', row.model, '--pp-size', String(lay.pp), '--ep-size', String(lay.ep),
    '--cp-size', String(lay.cp), '--total-gpus', String(lay.gpus),
    '--micro-batch-size', String(take(row.micro_batch_size, 'micro_batch_size')),
    '--global-batch-size', String(lay.gbs), '--sequence-length', String(lay.seq),
    '--gpu', String(take(row.gpu, 'gpu')),
    '--optimizer', opt === 'muon' ? 'muon' : 'adamw',
    '--sharding', row.sharding === 'hsdp' ? 'hsdp' : 'fsdp',
  ];
  if (row.fp8 === true) flags.push('--fp8-training', 'deep-gemm');
  return { flags, filled };
}

export function compareRows(memest, extra = []) {
  const rows = JSON.parse(readFileSync(rowsPath, 'utf8'));
  return rows.map((row) => {
    const inp = inputsOf(row);
    const out = { id: row.id, pair: row.pair, pair_role: row.pair_role, trainer_commit: row.trainer_commit,
      measured_step_s: typeof row.step_time_s === 'number' ? row.step_time_s : null,
      measured_tps: row.tokens_per_second, url: row.url };
    if (inp.skip) return { ...out, skip: inp.skip };
    const text = execFileSync(memest, [...inp.flags, ...extra, '--json'], { encoding: 'utf8' });
    const t = JSON.parse(text).time;
    const tps = t.tokens_per_second;
    return { ...out, flags: inp.flags, filled: inp.filled, est_step_s: t.step_seconds, est_tps: tps,
      mfu: t.mfu, tps_error: (tps - row.tokens_per_second) / row.tokens_per_second };
  });
}

const fmt = (x, d = 0) => (x === null || x === undefined ? '-'
  : Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
const source = (r) => `[${r.url.replace(/^.*\/(pull|issues)\//, (m, k) => (k === 'pull' ? 'PR #' : 'issue #'))}](${r.url})`;
const commit = (r) => (String(r.trainer_commit).startsWith('not') ? 'not stated' : String(r.trainer_commit).split(' ')[0]);
const pct = (e) => `${e > 0 ? '+' : ''}${(100 * e).toFixed(1)}%`;

/** The rows as a Markdown table. */
export function throughputTable(res) {
  const out = ['| run | trainer | measured step (s) | estimated step (s) | measured tokens/s | estimated tokens/s | error | source |',
    '|---|---|---|---|---|---|---|---|'];
  for (const r of res) {
    const est = r.skip ? `not estimated: ${r.skip}` : fmt(r.est_tps);
    out.push(`| ${r.id} | ${commit(r)} | ${fmt(r.measured_step_s, 2)} | ${r.skip ? '-' : fmt(r.est_step_s, 2)} | ${fmt(r.measured_tps)} | ${est} | ${r.skip ? '-' : pct(r.tps_error)} | ${source(r)} |`);
  }
  return out.join('\n');
}

/** Each before/after pair: the measured change, the estimated one, and whether their order agrees
 * (a tie when the estimates are within 0.5% of each other). */
export function pairs(res) {
  const by = new Map();
  for (const r of res) if (r.pair && !r.skip) by.set(r.pair, [...(by.get(r.pair) ?? []), r]);
  const out = [];
  for (const [pair, rs] of by) {
    if (rs.length !== 2) continue;
    const [a, b] = rs;
    const measured = b.measured_tps / a.measured_tps - 1, estimated = b.est_tps / a.est_tps - 1;
    const order = Math.abs(estimated) < 0.005 ? 'tie' : Math.sign(measured) === Math.sign(estimated) ? 'right' : 'wrong';
    out.push({ pair, before: a.id, after: b.id, measured, estimated, order });
  }
  return out;
}

export function pairsTable(ps) {
  return ['| pair | before → after | measured change in tokens/s | estimated change | order |', '|---|---|---|---|---|',
    ...ps.map((p) => `| ${p.pair} | ${p.before} → ${p.after} | ${pct(p.measured)} | ${pct(p.estimated)} | ${p.order} |`)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--memest');
  const memest = at >= 0 ? args[at + 1] : join(root, 'build', 'memest');
  const dash = args.indexOf('--');
  const extra = dash >= 0 ? args.slice(dash + 1) : [];
  const res = compareRows(memest, extra);
  if (args.includes('--json')) console.log(JSON.stringify({ rows: res, pairs: pairs(res) }, null, 1));
  else console.log(`${throughputTable(res)}\n\n${pairsTable(pairs(res))}`);
}
