// TrainingPanel.jsx — optimizer, sharding, FP8, the routing skew (measured,
// the trainer's balanced benchmark mode, or a factor of one's own), and
// which pipeline rank the report shows.

import { SelectField } from './SelectField.jsx';
import { SliderField } from './SliderField.jsx';
import { enumOptions } from './enum-titles.js';

const SHARDING_DETAIL = { fsdp: '(shard over dp·cp·ep)', hsdp: '(shard within cp·ep)' };
const ROUTING_DETAIL = {
  measured: '(busiest rank 1.18× uniform)',
  balanced: '(the trainer\'s benchmark mode)',
  factor: '(a factor of your own)',
};

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
      <SelectField label="Routing" field="routing" value={state.routing} options={enumOptions('routing', ROUTING_DETAIL)}
        onChange={(v) => update({ routing: v })} help={info.routing?.choose} />
      {state.routing === 'factor' && (
        <SliderField label="Routing factor (busiest rank's tokens ×)" field="routing_factor" help={info.routing_factor?.choose}
          value={state.routing_factor} min={1} max={8} step={0.01} integer={false}
          onChange={(v) => update({ routing_factor: v })} />
      )}
      <SelectField label="Pipeline rank shown" field="pp_rank" value={String(state.pp_rank)} options={ranks}
        onChange={(v) => update({ pp_rank: Number(v) })} />
    </fieldset>
  );
}
