#!/usr/bin/env node
// Writes docs/accuracy.md: every real-run case we have (tests/data/measured.json
// and tests/data/further-runs.json) against the native CLI's estimate, with
// the older Python estimator's figure beside ours where
// tests/data/older-estimator.json has the same inputs. Usage: node scripts/accuracy.mjs [--check]
// --check exits 1 if the committed file differs from what it would write.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { compareRows, pairs, pairsTable, throughputTable } from "../tests/throughput/compare.mjs";

const GiB = 2 ** 30;
const memest = process.env.MEMEST || "build/memest";
const out = "docs/accuracy.md";

function load(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function estimate(c, extra = []) {
  const args = [
    "--model", `presets/${c.model}`,
    "--pp-size", c.pp_size, "--ep-size", c.ep_size, "--cp-size", c.cp_size,
    "--total-gpus", c.total_gpus, "--micro-batch-size", c.micro_batch_size,
    "--global-batch-size", c.global_batch_size, "--sequence-length", c.sequence_length,
    "--gpu", c.gpu, "--optimizer", c.optimizer, "--sharding", c.sharding,
    "--fp8-training", c.fp8_training, "--json", ...extra,
  ].map(String);
  return JSON.parse(execFileSync(memest, args, { encoding: "utf8" }));
}

// The older estimator's run with the same layout (gbs may differ: the peak
// does not depend on it once there are 2*pp micro-batches).
function older(reference, c) {
  const same = (i) => i.model === c.model && i.pp === c.pp_size && i.ep === c.ep_size &&
    i.cp === c.cp_size && i.total_gpus === c.total_gpus &&
    i.micro_batch_size === c.micro_batch_size && i.sequence_length === c.sequence_length &&
    i.ep_imbalance === 1 && i.fragmentation === 0.1;
  const hits = reference.cases.filter((r) => same(r.inputs));
  const exact = hits.find((r) => r.inputs.global_batch_size === c.global_batch_size);
  const hit = exact || hits[0];
  if (!hit || c.optimizer !== "adamw" || c.sharding !== "fsdp") return null;
  const ranks = hit.ranks.map((r) => ({
    rank: r.pp_rank,
    total: r.peak_total,
    tensors: r.peak_total - r.non_pytorch - r.fragmentation,
  }));
  return { ranks, gbs: hit.inputs.global_batch_size };
}

const gib = (b) => (b / GiB).toFixed(2);
const pct = (ours, want) => `${(100 * (ours - want) / want >= 0 ? "+" : "")}${(100 * (ours - want) / want).toFixed(1)}%`;

/** The previous model's figure for a case (tests/data/previous-model.json), with its error. */
function previous(prior, c, key, want) {
  const v = (prior.figures[c.id] || {})[key];
  if (v === undefined) return "—";
  return want === null ? v.toFixed(2) : `${v.toFixed(2)} (${pct(v * GiB, want)})`;
}

function rows(cases, reference, prior) {
  const lines = [];
  for (const c of cases) {
    const r = estimate(c);
    const old = older(reference, c);
    const layout = `pp ${c.pp_size} · ep ${c.ep_size} · cp ${c.cp_size} · ${c.total_gpus} GPUs · mbs ${c.micro_batch_size} · gbs ${c.global_batch_size} · seq ${c.sequence_length} · ${c.optimizer} · ${c.sharding}`;
    const oldNote = (v) => old ? `${gib(v)}${old.gbs !== c.global_batch_size ? ` (gbs ${old.gbs})` : ""}` : "—";
    if (c.verdict) {
      const fits = r.status !== "OOM";
      const ok = fits === (c.verdict === "fits");
      lines.push(`| ${c.id} | ${c.model.replace(".json", "")} | ${layout} | fit on ${c.gpu.toUpperCase()}: **${c.verdict}** | ${r.status}, ${gib(r.peak_bytes)} of ${gib(r.gpu_capacity_bytes)} GiB | ${ok ? "right" : "**wrong**"} | ${previous(prior, c, "verdict", null)} | ${old ? oldNote(Math.max(...old.ranks.map((x) => x.total))) : "—"} |`);
    }
    const m = c.measured || {};
    if (m.max_memory_allocated_gib !== undefined) {
      const ours = r.tensor_peak_bytes;
      const want = m.max_memory_allocated_gib * GiB;
      const o = old ? Math.max(...old.ranks.map((x) => x.tensors)) : null;
      lines.push(`| ${c.id} | ${c.model.replace(".json", "")} | ${layout} | allocated ${m.max_memory_allocated_gib.toFixed(2)} | tensor peak ${gib(ours)} | ${pct(ours, want)} | ${previous(prior, c, "allocated", want)} | ${old ? `${oldNote(o)} (${pct(o, want)})` : "—"} |`);
    }
    if (m.by_rank) {
      for (const [rank, value] of Object.entries(m.by_rank)) {
        const row = r.ranks.find((x) => x.pp_rank === Number(rank));
        const want = value * GiB;
        const o = old ? old.ranks.find((x) => x.rank === Number(rank)) : null;
        lines.push(`| ${c.id} | ${c.model.replace(".json", "")} | ${layout} | device total, rank ${rank}: ${value.toFixed(2)} | grand total ${gib(row.peak_bytes)} | ${pct(row.peak_bytes, want)} | ${previous(prior, c, `rank ${rank}`, want)} | ${o ? `${oldNote(o.total)} (${pct(o.total, want)})` : "—"} |`);
      }
    }
  }
  return lines;
}

// {======================================================================
// Routing: each run's regime (tests/data/run-regimes.json), the estimate at
// the measured factor, at balanced routing and at the run's regime, the
// factor that would match the measurement, and the trainer-version terms.

/** The figure a case compares: the tensor peak, or a rank's grand total. */
function figures(c) {
  const m = c.measured || {};
  if (m.max_memory_allocated_gib !== undefined) {
    return [{ label: "allocated", want: m.max_memory_allocated_gib * GiB, of: (r) => r.tensor_peak_bytes, rank: (r) => r.ranks.find((x) => x.tensor_peak_bytes === r.tensor_peak_bytes) }];
  }
  return Object.entries(m.by_rank || {}).map(([rank, v]) => ({
    label: `device total, rank ${rank}`, want: v * GiB,
    of: (r) => r.ranks.find((x) => x.pp_rank === Number(rank)).peak_bytes,
    rank: (r) => r.ranks.find((x) => x.pp_rank === Number(rank)),
  }));
}

/** The routing factor at which figure f of case c equals the measurement, to 0.001. */
function matchingFactor(c, f, cap) {
  const at = (x) => f.of(estimate(c, ["--routing-factor", x]));
  if (at(1) > f.want) return "below factor 1";
  if (at(cap) < f.want) return `above the cap ${cap}`;
  let lo = 1, hi = cap;
  while (hi - lo > 0.001) {
    const mid = (lo + hi) / 2;
    if (at(mid) <= f.want) lo = mid; else hi = mid;
  }
  return lo.toFixed(3);
}

/**
 * What the trainer versions before f53f32d kept beyond the modelled set, in
 * bytes, at the peak of rank row `rr`: the router's input (the
 * post-attention norm output, m x H bf16) per MoE layer per live chunk, as
 * the router was its own compiled graph; and fp32 rotary tables of
 * max_position_embeddings rows, one pair per module, instead of the
 * modelled bf16 pair of the sequence length shared by both.
 */
function oldVersionTerms(c, r, rr, trainer) {
  const config = load(`presets/${c.model}`);
  const dense = config.first_k_dense_replace ?? 0;
  const per = r.derived.layers_per_stage;
  let router = 0;
  rr.stages.forEach((stage, i) => {
    const first = per.slice(0, stage).reduce((a, b) => a + b, 0);
    let moe = 0;
    for (let l = first; l < first + per[stage]; l++) if (l >= dense) moe++;
    router += rr.live_chunks_at_peak[i] * moe * r.tokens.m * r.model.hidden_size * 2;
  });
  const rotary = 2 * 2 * trainer.max_position_embeddings * trainer.rotary_dim * 4 - rr.static.rotary_tables;
  return { router, rotary };
}

function routingRows(cases, regimes) {
  const lines = [];
  for (const c of cases) {
    const info = regimes.cases[c.id] || { commit: "—", regime: "not-stated", why: "" };
    const r = estimate(c);
    const bal = estimate(c, ["--routing", "balanced"]);
    const ro = r.routing;
    const margin = ro.margin === null ? "none" : `${ro.margin.toFixed(3)}${ro.margin_is_limit ? " (the cap)" : ""}`;
    const regime = `${info.regime} (${info.commit})`;
    if (c.verdict) {
      const atRegime = info.regime === "benchmark" ? bal : info.regime === "pretrained" ? r : null;
      lines.push(`| ${c.id} | ${regime} | fit: **${c.verdict}** | ${r.status} | ${bal.status} | ${atRegime ? atRegime.status : "—"} | — | ${margin} | — | — |`);
      continue;
    }
    const atMargin = ro.margin === null ? null : estimate(c, ["--routing-factor", ro.margin]);
    for (const f of figures(c)) {
      const ours = f.of(r);
      const atRegime = info.regime === "benchmark" ? f.of(bal) : info.regime === "pretrained" ? ours : null;
      const between = atMargin && f.of(bal) <= f.want && f.want <= f.of(atMargin) ? "yes" : "no";
      let old = "—";
      if (regimes.old_versions.includes(info.commit) && regimes.trainer_configs[c.model]) {
        const t = oldVersionTerms(c, r, f.rank(r), regimes.trainer_configs[c.model]);
        old = `+${gib(t.router)} router, +${gib(t.rotary)} rotary: ${pct(ours + t.router + t.rotary, f.want)}`;
      }
      lines.push(`| ${c.id} | ${regime} | ${f.label}: ${gib(f.want)} | ${gib(ours)} (${pct(ours, f.want)}) | ${gib(f.of(bal))} (${pct(f.of(bal), f.want)}) | ${atRegime === null ? "—" : `${gib(atRegime)} (${pct(atRegime, f.want)})`} | ${matchingFactor(c, f, ro.cap)} | ${margin} | ${between} | ${old} |`);
    }
  }
  return lines;
}
// }======================================================================

const measured = load("tests/data/measured.json");
const regimes = load("tests/data/run-regimes.json");
const further = load("tests/data/further-runs.json");
const reference = load("tests/data/older-estimator.json");
const prior = load("tests/data/previous-model.json");
const head = `| case | model | layout | measured (GiB) | memest (GiB) | error / verdict | memest at ${prior.commit} | older estimator |\n|---|---|---|---|---|---|---|---|`;
const runs = compareRows(memest);
const estimated = runs.filter((r) => !r.skip);
const within = (f) => estimated.filter((r) => Math.abs(r.tps_error) <= f).length;
const absErrors = estimated.map((r) => Math.abs(r.tps_error)).sort((a, b) => a - b);
const medianError = (100 * absErrors[Math.floor(absErrors.length / 2)]).toFixed(1);
const pairList = pairs(runs);
const orderCount = (o) => pairList.filter((p) => p.order === o).length;
const version = JSON.parse(execFileSync(memest, ["--version"], { encoding: "utf8" }).replace(/^memest /, "\"").trim() + "\"");
const text = `# Accuracy against real runs

Generated by \`node scripts/accuracy.mjs\` from memest ${version}; do not edit by hand.

Yardstick: \`torch.cuda.max_memory_allocated()\` as the trainer logs it (GiB, the maximum over
ranks), compared with memest's **tensor peak**; a "device total" figure (memory in use on the
device) is compared with the **grand total** (tensors + non-PyTorch + 10% fragmentation). A fit
verdict is right when memest says OK or TIGHT for a run that fits and OOM for one that does not.
The older estimator's column shows what \`python -m tools.memory_estimator\` printed for the same
layout (its tensor part for allocated figures: its total less its non-PyTorch and fragmentation
terms); "—" where the reference has no such run. The column "memest at ${prior.commit}"
(tests/data/previous-model.json) gives memest's figure before its FSDP2 state rules
([model.md](model.md#fsdp-state-under-dualpipev)), when every chunk was taken to fold into fp32,
reshard and all-gather again, so that each case's move is visible.

## Ground truth (tests/data/measured.json)

${head}
${rows(measured.cases, reference, prior).join("\n")}

## Further runs quoted in the trainer's history (tests/data/further-runs.json)

${head}
${rows(further.cases, reference, prior).join("\n")}

Every row is also checked by \`tests/c/test_accuracy.c\` (within 10%, verdicts right).

## Routing

memest's default routing factor is 1.18 (the worst layer of a pretrained Qwen3-30B-A3B, see
[model.md](model.md#routing)). Each run's regime, as far as the trainer's history shows, and the
trainer commit it ran, are in \`tests/data/run-regimes.json\` with the evidence: *pretrained*
(a released checkpoint), *random-init* (from scratch), *benchmark* (\`training.benchmark=True\`,
which exists since 9d6634b, 2026-06-23: none of the measured runs used it) or *not-stated*.
Columns: the estimate at the measured factor 1.18, at balanced routing (\`--routing balanced\`)
and at the run's regime where it is known (pretrained: 1.18; benchmark: balanced); the routing
factor at which the estimate equals the measurement; the layout's margin; whether the measured
figure lies between the estimate at balanced routing and the estimate at the margin; and, for
runs of trainer versions before f53f32d (2026-07-14), what those versions kept beyond the modelled
set (below) and the error with it added.

| case | regime (commit) | measured (GiB) | at 1.18 | balanced | at the regime | factor matching it | margin | between | older trainer terms (GiB) |
|---|---|---|---|---|---|---|---|---|---|
${routingRows([...measured.cases, ...further.cases], regimes).join("\n")}

Trainer versions before f53f32d differ from the modelled one (889a408) in two places that these
runs include: the router was its own compiled graph (\`Qwen3MoeGate.compute\`,
\`@torch.compile(fullgraph=True)\` at 47a12dc, 287070f, 093a9e4 and d2fffcc) and kept its input,
the post-attention norm output (m × H bf16, 16 MiB at seq 4096 for these models), per MoE layer
per chunk until the backward; the modelled version computes the router inside the stage-1
compiled region, which recomputes the norm output. And the rotary cos/sin tables were fp32
(\`torch.get_default_dtype()\`), sized by the config's max_position_embeddings (40,960 for
Qwen3-30B-A3B, 163,840 for DeepSeek-V2-Lite), one pair per module (two per rank): 80 MiB per
rank for Qwen3-30B-A3B and 160 MiB for DeepSeek-V2-Lite, against 2 MiB and 0.5 MiB modelled
(bf16 tables of the sequence length, shared by both modules since c3a8cac and f53f32d). memest
does not model the older versions as an option: they differ in more than these two places (no
deferred expert weight gradients before 287070f, no HSDP before 093a9e4, no Muon before
d2fffcc, the schedule's and the model layers' refactor in f53f32d), an option for two of them
would claim a fidelity to old versions that nothing here validates, and every figure the
trainer's users see today comes from the current code. The column above gives the two terms'
size so that an older run can be read against the model.

## Throughput (tests/data/throughput/rows.json)

The time model ([time-model.md](time-model.md)) against the step time and tokens/s the trainer
logged or its threads state, for every run whose layout is known (stated, or inferred as the
row's \`how\` says; the inputs a row leaves open are filled in by
\`tests/throughput/compare.mjs\`, each with its reason). Tokens/s is for the whole job, as the
trainer logs it; the error is the estimate's over the measurement.

${throughputTable(runs)}

${estimated.length} runs estimated: ${within(0.1)} within 10%, ${within(0.15)} within 15%, median
error ${medianError}%. The \`layer_us\` efficiency (host time per layer) is the one figure fitted
to these rows; every other comes from a datasheet or the H200 op timings.

Pairs: two runs of one thread, the same but for one change.

${pairsTable(pairList)}

${orderCount("right")} in the right order, ${orderCount("wrong")} wrong, ${orderCount("tie")} ties. A tie
is a change memest does not model as an input: the trainer's own code (deferred expert weight
gradients in PR #28, FA-4 attention in PR #34), where memest models one version of the trainer.
The runs of trainer versions whose kernels differ from the modelled one (FlexAttention for
gpt-oss before d9cec48) are far off for that reason. What the model leaves out is in
time-model.md. \`tests/js/throughput.test.mjs\` keeps these figures from regressing.
`;

if (process.argv.includes("--check")) {
  const old = existsSync(out) ? readFileSync(out, "utf8") : "";
  if (old !== text) {
    console.error(`${out} is out of date: run node scripts/accuracy.mjs`);
    process.exit(1);
  }
  console.log(`${out} is up to date`);
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
