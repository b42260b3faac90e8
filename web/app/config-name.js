// config-name.js — a config put on the page (configPatch, readConfigFile)
// and the name it takes. A pasted or dropped config takes its own: its
// file's name (unless that is just "config.json"), else its _name_or_path,
// else its model_type, which takes the model's size once the engine has
// counted its parameters ("qwen3_moe-235B", "qwen3_moe-30.5B", not two
// "qwen3_moe"). A preset's text edited by hand becomes "<its title>
// (edited)" ("Mixtral-8x7B-v0.1 (edited)", the name the model list shows);
// a later paste, or a config of another model, renames it. The embed's header and the full
// page show the same name (modelTitle).

import { DEFAULTS, LABEL_RE, MAX_CONFIG_CHARS, labelFor } from './state.js';
import { linkProblem } from './url.js';

/** 1026408209408 as "1.03T", 235093634560 as "235B", 30532122624 as "30.5B", 6919161856 as "6.92B". */
export function sizeText(params) {
  if (!(params > 0)) return '';
  if (params >= 1e12) return `${Number((params / 1e12).toPrecision(3))}T`;
  const b = params / 1e9;
  if (b >= 1) return `${Number(b.toPrecision(3))}B`;
  return `${Number((params / 1e6).toPrecision(3))}M`;
}

/**
 * What tells one model's config from another's: its _name_or_path, else
 * its model_type with its size keys; null when the text is not a JSON
 * object.
 */
export function configIdentity(text) {
  let obj;
  try {
    obj = JSON.parse(text);
  } catch {
    return null;
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
  if (typeof obj._name_or_path === 'string' && obj._name_or_path) return `path:${obj._name_or_path}`;
  return `type:${obj.model_type}|${obj.hidden_size}|${obj.num_hidden_layers}|${obj.num_experts ?? obj.n_routed_experts ?? ''}`;
}

/**
 * The name a config's text takes when it is put in the editor.
 *   text      the new text; `before` the text it replaces ('' for a preset)
 *   model     the name on screen; `preset` true while it is a preset's
 *   models    the engine's presets, whose titles name an edited preset
 *   pasted    the text came whole (a paste, a drop), not typed
 *   fileName  the file it came from, if any
 * @param {{text: string, before?: string, model?: string, preset?: boolean, models?: {name: string, title: string}[], pasted?: boolean, fileName?: string | null}} o
 */
export function nameFor({ text, before = '', model = '', preset = false, models = [], pasted = false, fileName = null }) {
  if (fileName) return labelFor(text, fileName);
  if (pasted) return labelFor(text, null);
  // Another model's config typed or filled over this one: its own name.
  const was = configIdentity(before);
  const now = configIdentity(text);
  if (now !== null && was !== null && now !== was) return labelFor(text, null);
  if (!preset) return model;
  const edited = `${modelTitle({ model, config: '' }, models)} (edited)`;
  return LABEL_RE.test(edited) ? edited : `${model} (edited)`;
}

/**
 * The name `state` should carry once the engine has counted the pasted
 * config's parameters, or null to keep its name: only a config named after
 * its model_type alone (no _name_or_path, no file name, not edited by hand)
 * is renamed, to model_type plus its size.
 */
export function sizedName(state, model) {
  if (!state.config || !(model?.total_parameters > 0)) return null;
  let obj;
  try {
    obj = JSON.parse(state.config);
  } catch {
    return null;
  }
  if (!obj || typeof obj !== 'object' || obj._name_or_path || typeof obj.model_type !== 'string') return null;
  const byType = labelFor(JSON.stringify({ model_type: obj.model_type }), null);
  if (byType === 'custom' || state.model !== byType) return null;
  const name = `${byType}-${sizeText(model.total_parameters)}`;
  return name.length <= 100 ? name : null;
}

/** The model's name as the page shows it: a preset's title (`models`, the engine's presets), else the state's name. */
export function modelTitle(state, models = []) {
  if (state.config) return state.model;
  return models.find((m) => m.name === state.model)?.title ?? state.model;
}

/**
 * The patch that puts config `text` named `label` on screen, or why it
 * cannot be: {patch} or {problem}. `current` is the state now (a link must
 * still hold it).
 */
export function configPatch(text, label, current) {
  if (text.length > MAX_CONFIG_CHARS) {
    return { problem: `This config has ${text.length} characters; the page takes at most ${MAX_CONFIG_CHARS}.` };
  }
  if (!text) return { patch: { config: '', model: DEFAULTS.model } };
  const why = linkProblem({ ...current, config: text, model: label });
  return why ? { problem: why } : { patch: { config: text, model: label } };
}

/**
 * Reads a config file the user opened or dropped: {patch} or {problem}.
 * @param {File} file  @param {any} current  the state now
 */
export async function readConfigFile(file, current) {
  if (file.size > MAX_CONFIG_CHARS * 4) return { problem: `${file.name} is ${file.size} bytes; a config.json is a few kilobytes.` };
  const text = await file.text();
  return configPatch(text, nameFor({ text, fileName: file.name }), current);
}
