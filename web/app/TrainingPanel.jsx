// TrainingPanel.jsx — optimizer, sharding, FP8, EP imbalance, and which
// pipeline rank the report shows.

import { SelectField } from './SelectField.jsx';
import { SliderField } from './SliderField.jsx';
import { enumOptions } from './enum-titles.js';

const SHARDING_DETAIL = { fsdp: '(shard over dp·cp·ep)', hsdp: '(shard within cp·ep)' };

/** Props: state, update(patch), info (parameter help by name). */
export function TrainingPanel({ state, update, info }) {
  const ranks = [['-1', 'Worst rank']];
  for (let r = 0; r < Math.min(state.pp_size, 256); r++) ranks.push([String(r), `Rank ${r}`]);
  if (state.pp_rank >= state.pp_size) ranks.push([String(state.pp_rank), `Rank ${state.pp_rank}`]);
  return (
    <fieldset class="panel">
      <legend>Training</legend>
      <SelectField label="Optimizer" field="optimizer" value={state.optimizer} options={enumOptions('optimizer')}
        onChange={(v) => update({ optimizer: v })} />
      <SelectField label="Sharding" field="sharding" value={state.sharding} options={enumOptions('sharding', SHARDING_DETAIL)}
        onChange={(v) => update({ sharding: v })} help={info.sharding?.meaning} />
      <SelectField label="FP8 training" field="fp8_training" value={state.fp8_training} options={enumOptions('fp8_training')}
        onChange={(v) => update({ fp8_training: v })} help={info.fp8_training?.choose} />
      <SliderField label="EP imbalance (routed rows ×)" field="ep_imbalance" help={info.ep_imbalance?.meaning} value={state.ep_imbalance}
        min={1} max={3} step={0.05} integer={false} onChange={(v) => update({ ep_imbalance: v })} />
      <SelectField label="Pipeline rank shown" field="pp_rank" value={String(state.pp_rank)} options={ranks}
        onChange={(v) => update({ pp_rank: Number(v) })} />
    </fieldset>
  );
}
