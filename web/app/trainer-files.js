// trainer-files.js — the trainer's own files dropped on the page (a launch
// script with its setup.py, a log's launch line, a W&B run's files) read by
// the core (engine.readTrainerFiles: the same readers as `memest --script`,
// `check --log` and `check --wandb`, docs/trainer-files.md) into the
// calculator's inputs, and a record of where each input came from and what
// could not be read, which the form shows beside its inputs
// (TrainerSource.jsx). The page adds nothing to the readers: it picks the
// launch script among the .py files, names a benchmark folder when a
// dropped folder gives one, maps the engine's input names onto its own
// state, and takes the model as the core resolved training.model.

import { baseName } from './page-drop.js';
import { CORE_INPUTS, coerceField, labelFor } from './state.js';
import { inputFile } from './names.js';
import { configPatch } from './config-name.js';


/** 1234567 as "1,234,567". */
const grouped = (n) => Math.round(n).toLocaleString('en-US');

/** The input-file kind (core/base/input_files.c) of a dropped file of run kind `kind`. */
function limitKind(kind, path) {
  if (kind === 'script') return 'script';
  if (kind === 'log') return 'log';
  if (kind === 'config') return 'config';
  const name = baseName(path);
  if (name === 'config.yaml') return 'wandb_config';
  if (name === 'output.log') return 'log';
  return 'wandb_json';
}

/** The CLI's refusal of a file over its kind's limit (cli/files.c), or null. */
export function tooLarge(kind, path, bytes) {
  const k = inputFile(limitKind(kind, path));
  if (!k || bytes <= k.max_bytes) return null;
  return `${k.noun} '${path}' is ${grouped(bytes)} bytes (${(bytes / 2 ** 20).toFixed(1)} MiB), over ${k.limit_name} = ${k.max_bytes} bytes; ${k.typical}`;
}

/**
 * The launch script among dropped .py `paths`: the one that is not a
 * module the others import (setup.py), or, with several, null and the
 * candidates to choose from.
 * @returns {{script: string | null, choices: string[]}}
 */
export function launchScript(paths) {
  const py = paths.filter((p) => /\.py$/i.test(p));
  const scripts = py.filter((p) => baseName(p) !== 'setup.py' && baseName(p) !== '__init__.py');
  if (scripts.length === 1) return { script: scripts[0], choices: [] };
  if (scripts.length === 0 && py.length === 1) return { script: py[0], choices: [] };
  return { script: null, choices: scripts.length ? scripts : py };
}

/** The folder a path sits in ("h100-4n8g" for "h100-4n8g/run.py"), or ''. */
const folderOf = (path) => {
  const parts = String(path).split('/');
  return parts.length > 1 ? parts[parts.length - 2] : '';
};

/**
 * The benchmark folder a launch script would lie in, from its own name as
 * the trainer's benchmarks name them ("pp2-dp1-cp1-ep8-seq2048-bf16.py":
 * pp·dp·cp·ep = 16 GPUs, "h100-2n8g" for 8 GPUs a node), when that name's
 * pp, cp and ep are those read (`read`: the values the files gave); else
 * ''. `gpu` is the GPU the page has ("h100").
 */
export function folderExample(script, read = {}, gpu = 'h100') {
  const m = /(?:^|[-_])pp(\d+)-dp(\d+)-cp(\d+)-ep(\d+)(?=[-_.]|$)/.exec(baseName(script ?? ''));
  if (!m) return '';
  const [pp, dp, cp, ep] = m.slice(1, 5).map(Number);
  for (const [k, v] of [['pp_size', pp], ['cp_size', cp], ['ep_size', ep]]) {
    if (k in read && Number(read[k]) !== v) return '';
  }
  const gpus = pp * dp * cp * ep;
  if (!Number.isSafeInteger(gpus) || gpus < 1 || gpus > 1e6) return '';
  const name = /^[a-z0-9][a-z0-9.-]{0,15}$/.test(gpu) ? gpu : 'h100';
  return gpus % 8 === 0 ? `${name}-${gpus / 8}n8g` : `${name}-1n${gpus}g`;
}

/**
 * The engine's request for dropped run files `texts` ({path: text}) of
 * `kind`: {request} or {choices} (several launch scripts: which one?).
 * `script` names the chosen one.
 */
export function runRequest(kind, texts, script = null) {
  const files = {};
  if (kind === 'log') {
    // The log first: the core reads the first file as the log.
    const logs = Object.keys(texts).filter((p) => !/\.json$/i.test(p));
    for (const p of [...logs, ...Object.keys(texts).filter((q) => !logs.includes(q))]) files[p] = texts[p];
    return { request: { kind, files } };
  }
  Object.assign(files, texts);
  if (kind !== 'script') return { request: { kind, files } };
  const pick = script ? { script, choices: [] } : launchScript(Object.keys(texts));
  if (!pick.script) return { choices: pick.choices };
  const request = { kind, files, script: pick.script };
  if (folderOf(pick.script)) request.folder = folderOf(pick.script);
  return { request };
}

/**
 * What an answer of readTrainerFiles() does to the state `current`, and
 * the record the form shows: {patch, record, hubId}. `texts` are the
 * dropped files' texts (for a config the core found among them).
 */
export function applyRun(answer, texts, current) {
  /** @type {Record<string, any>} */
  const patch = {};
  const notRead = [];
  for (const p of answer.problems ?? []) notRead.push({ field: p.field, text: p.message });
  for (const [name, value] of Object.entries(answer.params ?? {})) {
    if (name === 'model') continue;
    if (!CORE_INPUTS.includes(name)) {
      notRead.push({ field: name, text: `${name} ${value}: the page has no such input` });
      continue;
    }
    try {
      patch[name] = coerceField(name, value);
    } catch (e) {
      notRead.push({ field: name, text: `${name}: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  if (patch.gpu) patch.gpu_memory_gb = current.gpu_memory_gb;
  // The trainer runs DualPipeV only: its files describe a DualPipeV run.
  const schedule = current.schedule && current.schedule !== 'dualpipev';
  if (schedule) patch.schedule = 'dualpipev';
  let hubId = '';
  const m = answer.model ?? {};
  const modelFrom = answer.source?.read?.model ?? '';
  if (m.preset) {
    patch.model = m.preset;
    patch.config = '';
  } else if (m.file && typeof texts[m.file] === 'string') {
    const r = configPatch(texts[m.file], labelFor(texts[m.file], baseName(m.file)), { ...current, ...patch });
    if (r.patch) Object.assign(patch, r.patch);
    else notRead.push({ field: 'model', text: `${m.file}: ${r.problem}` });
  } else if (m.hub_id) {
    hubId = m.hub_id;
    notRead.push({ field: 'model', text: `training.model is the hub id ${m.hub_id} (${modelFrom}): fetch its config.json with the Hub id field, or pick a preset` });
  } else if (m.missing) {
    notRead.push({ field: 'model', text: `training.model is ${m.missing} (${modelFrom}), which is not among the files: drop that config.json with them, or pick a preset` });
  }
  // The inputs no file gives stay as they are on the page.
  const kept = ['total_gpus', 'gpu'].filter((k) => !(k in patch));
  const notes = [...(answer.source?.notes ?? [])];
  if (schedule) notes.push(`The trainer runs DualPipeV only, so the pipeline schedule is DualPipeV again (it was ${current.schedule}).`);
  const console = Object.keys(texts).find((p) => baseName(p) === 'output.log');
  if (answer.source?.kind === 'wandb' && console) {
    notes.push(`${console} holds the run's steps from step 2, not its inputs: drop it on the Measured run panel to compare them with the estimate.`);
  }
  const record = {
    kind: answer.source?.kind ?? '',
    files: answer.source?.files ?? Object.keys(texts),
    read: answer.source?.read ?? {},
    refused: answer.source?.refused ?? {},
    ignored: answer.source?.ignored ?? [],
    warnings: answer.source?.warnings ?? [],
    notes,
    regime: answer.source?.regime ?? null,
    trainerCommit: answer.source?.trainer_commit ?? null,
    notRead,
    kept,
    applied: { ...patch },
  };
  return { patch, record, hubId };
}

/**
 * Reads dropped `entries` ({file, path}) of run kind `kind` with the engine
 * `client`, against the state `current`: {patch, record, hubId},
 * {choices} (which launch script?), {missing: module, texts} (a script
 * imports a module not dropped: ask for it by name), or {problem}.
 * `earlier` are texts of an earlier drop still waiting (a script whose
 * setup.py was asked for); `script` the launch script chosen.
 */
export async function readRun(client, kind, entries, current, { earlier = {}, script = null } = {}) {
  const texts = { ...earlier };
  for (const { file, path } of entries) {
    const fileKind = /\.json$/i.test(path) && !/^wandb-(metadata|summary)\.json$/.test(baseName(path)) ? 'config' : kind;
    const big = tooLarge(fileKind, path, file.size);
    if (big) return { problem: big };
    texts[path] = await file.text();
  }
  const asked = runRequest(kind, texts, script);
  if (asked.choices) return { choices: asked.choices, texts };
  const answer = await client.readTrainerFiles(asked.request);
  if (answer.error) {
    const missing = /\bno module (\S+) among the files given\b/.exec(answer.error.message);
    if (missing && kind === 'script') return { missing: missing[1], texts, script: asked.request.script, problem: answer.error.message };
    // A log or W&B console without the inputs is a measured run's: say where it goes.
    const steps = answer.error.code === 'missing' && (kind === 'log' || kind === 'wandb')
      ? ' To compare its steps with the estimate, drop it on the Measured run panel.' : '';
    return { problem: `${answer.error.message.replace(/\.?$/, '.')}${steps}` };
  }
  return applyRun(answer, texts, current);
}
