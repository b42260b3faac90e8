#!/usr/bin/env bash
# A random battery for the memest command: thousands of mutated configs and
# argument lists, generated from a fixed seed (the same cases every run),
# each run under `timeout`. Every run must exit 0, 1 or 2, print the report
# on stdout for 0 (JSON that parses, with --json) and a message on stderr
# for 1 and 2, and finish within a second: a run may use BATTERY_TIMEOUT
# seconds of CPU (ulimit -t; a busy machine does not fail it) and twenty
# times that of wall-clock time (timeout). A failing case is printed as a
# command line to rerun it.
# Usage: tests/cli/battery.sh path/to/memest   (from the repository root)
# Environment: BATTERY_SEED (default 20240611), BATTERY_CASES (default
# 3000), BATTERY_TIMEOUT in seconds (default 1; sanitizer builds run
# slower, scripts/sanitize.sh raises it), BATTERY_JOBS (default 2).
set -u
memest=${1:?usage: battery.sh path/to/memest}
command -v node >/dev/null || { echo "battery: node is required" >&2; exit 1; }
command -v timeout >/dev/null || { echo "battery: timeout (coreutils) is required" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

MEMEST="$memest" TMPDIR_BATTERY="$tmp" node - <<'EOF'
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const memest = path.resolve(process.env.MEMEST);
const dir = process.env.TMPDIR_BATTERY;
const seed = Number(process.env.BATTERY_SEED || 20240611) >>> 0;
const cases = Number(process.env.BATTERY_CASES || 3000);
const limit = Number(process.env.BATTERY_TIMEOUT || 1);
const jobs = Number(process.env.BATTERY_JOBS || 2);

// mulberry32: a small seeded generator, so every run builds the same cases.
let state = seed;
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(rand() * n);
const pick = (a) => a[int(a.length)];
const chance = (p) => rand() < p;

// {==== configs: the shipped and shared ones, then mutations of them ====}
const sources = [];
for (const d of ['presets', '../shared/models']) {
  if (!fs.existsSync(d)) continue;
  for (const f of fs.readdirSync(d).sort()) {
    if (f.endsWith('.json')) sources.push(fs.readFileSync(path.join(d, f), 'utf8'));
  }
}
if (sources.length === 0) throw new Error('battery: no configs under presets/');

const numbers = [0, -1, 1, 2, 3, 4, 7, 8, 16, 31, 32, 33, 64, 128, 255, 256, 257, 1000, 1024,
  1025, 4096, 4097, 65536, 262144, 262145, 1048576, 1048577, 16777216, 16777217, 2 ** 31,
  2 ** 53, 1e30, 1e308, -1e308, 0.5, 1.5, 2.0000001, 1e-300];
const odd = [null, true, false, '', '12', 'x', [], [1, 2], {}, { a: 1 }];
const keys = ['hidden_size', 'num_attention_heads', 'num_key_value_heads', 'head_dim',
  'num_hidden_layers', 'vocab_size', 'num_experts', 'num_local_experts', 'n_routed_experts',
  'num_experts_per_tok', 'moe_intermediate_size', 'intermediate_size', 'model_type',
  'attention_bias', 'norm_topk_prob', 'first_k_dense_replace', 'q_lora_rank', 'kv_lora_rank',
  'qk_nope_head_dim', 'qk_rope_head_dim', 'v_head_dim', 'sliding_window', 'layer_types',
  'partial_rotary_factor', 'text_config', 'n_shared_experts', 'shared_expert_intermediate_size'];
const types = ['qwen3_moe', 'deepseek_v2', 'deepseek_v3', 'gpt_oss', 'qwen3_5_moe',
  'qwen3_5_moe_text', 'mixtral', 'llama', 'mamba', '', 'QWEN3_MOE'];

function mutateObject(o) {
  const k = chance(0.7) ? pick(keys) : pick(Object.keys(o).concat(keys));
  switch (int(6)) {
    case 0: delete o[k]; break;
    case 1: o[k] = pick(numbers); break;
    case 2: o[k] = pick(odd); break;
    case 3: o.model_type = pick(types); break;
    case 4: if (typeof o[k] === 'number') o[k] = o[k] * pick([2, 0.5, 10, -1]) + pick([0, 1, -1]); break;
    default: o = { model_type: pick(types), text_config: o }; break;
  }
  return o;
}

function mutateText(t) {
  switch (int(8)) {
    case 0: return t.slice(0, int(t.length + 1));
    case 1: { const i = int(t.length + 1); return t.slice(0, i) + pick(['{', '}', '[', ']', ',', ':', '"', '\\', '\u0000', '\u00ff', 'nul', '1e999', '-']) + t.slice(i); }
    case 2: { const i = int(t.length); return t.slice(0, i) + t.slice(i + 1 + int(8)); }
    case 3: return '\ufeff' + t;
    case 4: return '['.repeat(50 + int(40)) + ']'.repeat(50 + int(40));
    case 5: return pick(['', ' ', 'null', '0', '"x"', '[]', '{}', '{"model_type":"qwen3_moe"}']);
    case 6: { const d = 60 + int(10); return t.replace(/\}\s*$/, ', "x": ' + '['.repeat(d) + ']'.repeat(d) + '}'); }
    default: return t + pick(['', ' ', '\n', 'x', '}', '\u0000']);
  }
}

function makeConfig() {
  const src = pick(sources);
  if (chance(0.25)) return mutateText(src);
  let o = JSON.parse(src);
  const n = 1 + int(3);
  for (let i = 0; i < n; i++) o = mutateObject(o);
  return JSON.stringify(o, null, chance(0.5) ? 2 : 0);
}

// {==== argument lists ====}
const presetNames = ['qwen3-30b-a3b', 'qwen3-235b-a22b', 'deepseek-v2-lite', 'deepseek-v3',
  'gpt-oss-20b', 'gpt-oss-120b', 'qwen3.5-35b-a3b', 'mixtral-8x7b'];
const layouts = [
  ['4', '8', '1', '32', '1', '1024', '4096'],
  ['2', '8', '1', '16', '1', '64', '4096'],
  ['1', '1', '1', '1', '1', '2', '512'],
  ['8', '8', '1', '64', '1', '512', '8192'],
  ['4', '4', '2', '64', '2', '256', '16384'],
  ['2', '2', '1', '8', '1', '16', '2048'],
];
const flagsReq = ['--pp-size', '--ep-size', '--cp-size', '--total-gpus', '--micro-batch-size',
  '--global-batch-size', '--sequence-length'];
const values = ['0', '-1', '1', '2', '3', '4', '5', '7', '8', '16', '32', '33', '64', '512', '513',
  '1024', '1025', '4096', '65536', '65537', '1048576', '1048577', '4194304', '16777216',
  '16777217', '1099511627776', '1099511627777', '9223372036854775807',
  '99999999999999999999999', 'abc', '', ' 4', '4 ', '0x10', '1e2', '1.5', 'nan', 'inf', '-0',
  '+8', '４'];
const options = [
  ['--json'], ['--detail'], ['--timeline'], ['--timeline-limit', () => pick(['0', '1', '10', '100', '65536', '65537', '-1'])],
  ['--pp-rank', () => pick(['-1', '0', '1', '3', '7', '511', '512', 'x'])],
  ['--optimizer', () => pick(['adamw', 'muon', 'sgd', ''])],
  ['--sharding', () => pick(['fsdp', 'hsdp', 'zero3'])],
  ['--fp8-training', () => pick(['disabled', 'deep-gemm', 'yes'])],
  ['--ep-imbalance', () => pick(['1', '1.5', '16', '16.01', '0.9', 'nan'])],
  ['--routing', () => pick(['measured', 'balanced', 'factor', 'skewed', ''])],
  ['--routing-factor', () => pick(['1', '1.18', '2.5', '8', '8.01', '32', '32.01', '0.99', 'nan', '-inf'])],
  ['--fragmentation', () => pick(['0', '0.1', '1', '1.01', '-0.1'])],
  ['--gpu', () => pick(['h100', 'h200', 'b200', 'a100-80', 'a100-40', 'tpu'])],
  ['--gpu-memory-gb', () => pick(['80', '0', '0.0009765625', '0.0009', '1048576', '1048577', '1e-310', 'x'])],
];

function argsFor(i, configPath) {
  const a = [];
  const model = configPath || (chance(0.9) ? pick(presetNames) : pick(['nope', 'tests/fuzz', '/nonexistent.json', '']));
  const lay = pick(layouts).slice();
  if (chance(0.5)) lay[int(lay.length)] = pick(values);
  if (chance(0.2)) lay[int(lay.length)] = pick(values);
  a.push('--model', model);
  flagsReq.forEach((f, k) => a.push(f, lay[k]));
  if (chance(0.85)) a.push(...(chance(0.5) ? ['--gpu', 'h100'] : ['--gpu-memory-gb', '141']));
  const nopt = int(4);
  for (let k = 0; k < nopt; k++) {
    const o = pick(options);
    a.push(o[0]);
    if (o[1]) a.push(o[1]());
  }
  // Structural mutations of the list itself.
  const m = int(10);
  if (m === 0 && a.length > 2) a.splice(int(a.length), 1);                  // drop a word
  if (m === 1) a.splice(int(a.length + 1), 0, pick(['--frob', 'x', '-h', '--', '-', '--=', '--pp-size']));
  if (m === 2) { const k = 2 * int(a.length / 2); if (k + 1 < a.length && a[k].startsWith('--')) a.splice(k, 2, a[k] + '=' + a[k + 1]); }
  if (m === 3) a.push(pick(flagsReq));                                       // flag without value
  if (m === 4) a.splice(0, 2 * int(4));                                     // drop required ones
  if (m === 5) a.unshift(pick(['--help', '--version', '--list-models', '--list-gpus']));
  if (m === 6 && i % 7 === 0) return [];                                     // no arguments
  if (m === 7 && i % 5 === 0) return [pick(['plan', 'compare'])].concat(a.slice(2 * int(3)));
  return a;
}

// {==== the cases ====}
const list = [];
for (let i = 0; i < cases; i++) {
  let configPath = null;
  if (chance(0.4)) {
    configPath = path.join(dir, `c${i}.json`);
    fs.writeFileSync(configPath, makeConfig());
  }
  list.push(argsFor(i, configPath));
}
// A few configs at and over the size limit (1 MiB), read from files.
for (const n of [1048576, 1048577, 4194305]) {
  const p = path.join(dir, `size${n}.json`);
  const body = sources[0];
  fs.writeFileSync(p, body + ' '.repeat(Math.max(0, n - Buffer.byteLength(body))));
  list.push(['--model', p].concat(...flagsReq.map((f, k) => [f, layouts[0][k]]), ['--gpu', 'h100']));
}

const quote = (s) => (/^[A-Za-z0-9._\/=+:,-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
let failures = 0, done = 0, next = 0;
const counts = { 0: 0, 1: 0, 2: 0 };
const started = Date.now();

function judge(args, code, signal, out, err) {
  const why = [];
  // timeout(1) passes on a signal that ended the run as 128 + its number.
  if (code === 128 + 24) why.push(`used more than ${limit} s of CPU`);
  else if (code === 124 || code === 137) why.push(`did not finish within ${20 * limit} s`);
  else if (signal || code > 128) why.push(`killed by ${signal || 'signal ' + (code - 128)}`);
  else if (![0, 1, 2].includes(code)) why.push(`exit ${code}`);
  else {
    counts[code]++;
    if (code === 0 && out.length === 0) why.push('exit 0 with nothing on stdout');
    const jsonRun = args.includes('--json');
    if (code !== 0 && jsonRun) {
      // With --json an error is one JSON object on stdout: {"error": {...}}.
      try {
        const e = JSON.parse(out.toString('utf8')).error;
        if (!e || typeof e.message !== 'string' || !e.message) why.push(`exit ${code} with no error object on stdout`);
      } catch (x) { why.push(`exit ${code}: the --json error does not parse: ${x.message}`); }
    } else if (code !== 0 && err.length === 0) why.push(`exit ${code} with nothing on stderr`);
    if (code === 0 && args.includes('--json') && !args.some((a) => ['--help', '-h', '--version', '--list-models', '--list-gpus'].includes(a)) && args[0] !== 'plan' && args[0] !== 'compare') {
      try { JSON.parse(out.toString('utf8')); } catch (e) { why.push(`--json output does not parse: ${e.message}`); }
    }
  }
  if (why.length) {
    failures++;
    if (failures <= 20) {
      console.error(`FAIL: ${why.join('; ')}\n  ${memest} ${args.map(quote).join(' ')}\n  stderr: ${err.toString('utf8').slice(0, 300)}`);
    }
  }
}

function runOne() {
  if (next >= list.length) return;
  const args = list[next++];
  const child = spawn('timeout', ['-k', '1', String(20 * limit), 'bash', '-c',
    `ulimit -St ${limit}; ulimit -Ht ${limit + 1}; exec "$0" "$@"`, memest, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = [], err = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  child.on('close', (code, signal) => {
    judge(args, code, signal, Buffer.concat(out), Buffer.concat(err));
    done++;
    if (done === list.length) finish();
    else runOne();
  });
}

function finish() {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`battery: ${done} runs in ${secs} s (exit 0: ${counts[0]}, 1: ${counts[1]}, 2: ${counts[2]}), seed ${seed}`);
  if (failures) {
    console.error(`battery: ${failures} runs broke the contract`);
    process.exit(1);
  }
}

for (let j = 0; j < jobs; j++) runOne();
EOF
