// TrainingPanel.jsx — optimizer, sharding, FP8, the routing skew (measured,
// the trainer's balanced benchmark mode, or a factor of one's own), and
// which pipeline rank the report shows.

import { SelectField } from './SelectField.jsx';
import { SliderField } from './SliderField.jsx';
import { inputRange } from './input-ranges.js';
import { useCallback, useMemo } from 'preact/hooks';
import { enumOptions } from './enum-titles.js';
import { useSetters } from './setters.js';
import { inputLabel, paramInfo } from './names.js';

const SHARDING_DETAIL = { fsdp: '(shard over dp·cp·ep)', hsdp: '(shard within cp·ep)' };
// The measured factor is the core's default routing factor.
const ROUTING_DETAIL = {
  measured: `(busiest rank ${paramInfo('routing_factor')?.default}× uniform)`,
  balanced: '(the trainer\'s benchmark mode)',
  factor: '(a factor of your own)',
};

/** Props: state, update(patch), info (parameter help by name). */
export function TrainingPanel({ state, update, info }) {
  const set = useSetters(update);
  const setRank = useCallback((v) => update({ pp_rank: Number(v) }), [update]);
  // The option lists keep their identity while what they list stays (the
  // enum names arrive with `info`), so the fields skip their renders.
  const choices = useMemo(() => ({
    optimizer: enumOptions('optimizer'),
    sharding: enumOptions('sharding', SHARDING_DETAIL),
    fp8_training: enumOptions('fp8_training'),
    routing: enumOptions('routing', ROUTING_DETAIL),
  }), [info]);
  const ranks = useMemo(() => {
    const list = [['-1', 'Worst rank']];
    for (let r = 0; r < Math.min(state.pp_size, 256); r++) list.push([String(r), `Rank ${r}`]);
    if (state.pp_rank >= state.pp_size) list.push([String(state.pp_rank), `Rank ${state.pp_rank}`]);
    return list;
  }, [state.pp_size, state.pp_rank]);
  return (
    <fieldset class="panel">
      <legend>Training</legend>
      <SelectField label={inputLabel('optimizer')} field="optimizer" value={state.optimizer} options={choices.optimizer}
        onChange={set('optimizer')} />
      <SelectField label={inputLabel('sharding')} field="sharding" value={state.sharding} options={choices.sharding}
        onChange={set('sharding')} help={info.sharding?.meaning} />
      <SelectField label={inputLabel('fp8_training')} field="fp8_training" value={state.fp8_training} options={choices.fp8_training}
        onChange={set('fp8_training')} help={info.fp8_training?.choose} />
      <SelectField label={inputLabel('routing')} field="routing" value={state.routing} options={choices.routing}
        onChange={set('routing')} help={info.routing?.choose} />
      {state.routing === 'factor' && (
        <SliderField label={inputLabel('routing_factor')} field="routing_factor" help={info.routing_factor?.choose}
          value={state.routing_factor} {...inputRange('routing_factor')}
          onChange={set('routing_factor')} />
      )}
      <SelectField label={inputLabel('pp_rank')} field="pp_rank" value={String(state.pp_rank)} options={ranks}
        onChange={setRank} />
    </fieldset>
  );
}
