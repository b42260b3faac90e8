// TimePanel.jsx — the time model's inputs (state.js TIME_INPUTS, rows of
// the core's parameter table): the NVLink and network bandwidths per GPU
// (0: the GPU's) and the efficiency overrides, in a group that stays
// closed while they hold the core's defaults and nothing names them. They
// move the step time and tokens/s, never the memory.

import { useContext, useState } from 'preact/hooks';
import { SliderField } from './SliderField.jsx';
import { TextField } from './TextField.jsx';
import { ProblemsContext } from './FieldProblems.jsx';
import { useSetters } from './setters.js';
import { inputLabel } from './names.js';
import { DEFAULTS, TIME_INPUTS } from './state.js';

/** The summary as the config editor's reads (style.css has no rule of its own for it). */
const SUMMARY = { cursor: 'pointer', fontSize: '0.88rem', margin: '0.3rem 0' };

/** Whether the state holds one of the time model's inputs off its default. */
export function timeInputsSet(state) {
  return TIME_INPUTS.some((k) => !Object.is(state[k], DEFAULTS[k]));
}

/** Whether one of `problems` names a time model's input (then the group is open, to show it). */
export function timeProblem(problems) {
  return problems.some((p) => TIME_INPUTS.includes(p.field));
}

/** Props: state, update(patch), info (parameter help by name). */
export function TimePanel({ state, update, info }) {
  const set = useSetters(update);
  const { problems } = useContext(ProblemsContext);
  const [opened, setOpened] = useState(/** @type {boolean | null} */ (null));
  const open = timeProblem(problems) || (opened ?? timeInputsSet(state));
  const [nvlink, network, efficiency] = TIME_INPUTS;
  return (
    <fieldset class="panel" data-testid="time-inputs">
      <legend>Time model</legend>
      <details class="time-inputs" open={open} onToggle={(e) => e.currentTarget.open !== open && setOpened(e.currentTarget.open)}>
        <summary style={SUMMARY}>Link bandwidths and efficiencies (the GPU’s unless set)</summary>
        <SliderField label={inputLabel(nvlink)} field={nvlink} value={state[nvlink]} integer={false}
          step={/** @type {any} */ ('any')} onChange={set(nvlink)} help={info[nvlink]?.choose} />
        <SliderField label={inputLabel(network)} field={network} value={state[network]} integer={false}
          step={/** @type {any} */ ('any')} onChange={set(network)} help={info[network]?.choose} />
        <TextField label={inputLabel(efficiency)} field={efficiency} value={state[efficiency]}
          placeholder="gemm=0.6,nvlink=0.5" onChange={set(efficiency)} help={info[efficiency]?.choose} />
      </details>
    </fieldset>
  );
}
