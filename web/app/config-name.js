// config-name.js — a distinct name for a pasted config that has only its
// model_type to go by: "qwen3_moe-235B" and "qwen3_moe-30.5B", not two
// "qwen3_moe". The size is the engine's parameter count.

import { labelFor } from './state.js';

/** 1026408209408 as "1.03T", 235093634560 as "235B", 30532122624 as "30.5B", 6919161856 as "6.92B". */
export function sizeText(params) {
  if (!(params > 0)) return '';
  if (params >= 1e12) return `${Number((params / 1e12).toPrecision(3))}T`;
  const b = params / 1e9;
  if (b >= 1) return `${Number(b.toPrecision(3))}B`;
  return `${Number((params / 1e6).toPrecision(3))}M`;
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
