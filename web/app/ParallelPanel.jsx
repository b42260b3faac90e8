// ParallelPanel.jsx — the parallel layout: pp, ep, cp and the GPU count
// (also as nodes x GPUs per node), with the derived dp and num_chunks.

import { useId, useState } from 'preact/hooks';
import { SliderField } from './SliderField.jsx';
import { FieldProblems } from './FieldProblems.jsx';
import { derive } from './state.js';
import { degree } from './format.js';
import { useSetters } from './setters.js';
import { inputLabel } from './names.js';

function Derived({ label, value, formula, name }) {
  const whole = value !== null && Number.isInteger(value) && value > 0;
  return (
    <div class={`derived${whole ? '' : ' derived-bad'}`} data-derived={name}>
      <dt>{label}</dt>
      <dd>
        <output>{degree(value)}</output>
        <span class="formula"> = {formula}</span>
        {!whole && <span class="derived-note"> (must be a whole number ≥ 1)</span>}
      </dd>
    </div>
  );
}

function NodesRow({ state, update }) {
  const id = useId();
  const [bad, setBad] = useState(null);
  const nodes = state.gpus_per_node > 0 ? state.total_gpus / state.gpus_per_node : null;
  const whole = (e, what) => {
    const n = Number(e.currentTarget.value);
    if (Number.isInteger(n) && n > 0) {
      setBad(null);
      return n;
    }
    setBad(`${what} must be a whole number of at least 1.`);
    return null;
  };
  const setNodes = (e) => {
    const n = whole(e, 'Nodes');
    if (n !== null) update({ total_gpus: n * state.gpus_per_node });
  };
  const setPerNode = (e) => {
    const n = whole(e, 'GPUs per node');
    if (n !== null) update({ gpus_per_node: n });
  };
  return (
    <div class="field nodes-row">
      <label for={`${id}-nodes`}>Nodes</label>
      <input id={`${id}-nodes`} type="number" min="1" step="1" value={nodes !== null && Number.isInteger(nodes) ? nodes : ''}
        placeholder={degree(nodes)} onChange={setNodes} />
      <span aria-hidden="true">×</span>
      <label for={`${id}-gpn`}>GPUs per node</label>
      <input id={`${id}-gpn`} type="number" min="1" step="1" value={state.gpus_per_node} onChange={setPerNode} />
      {nodes !== null && !Number.isInteger(nodes) && (
        <p class="help">{state.total_gpus} GPUs are {degree(nodes)} nodes of {state.gpus_per_node}.</p>
      )}
      {bad && <p class="local-problem" role="alert">{bad}</p>}
    </div>
  );
}

/**
 * The help of pp and ep for the model last estimated (result.model's
 * ep_sizes and max_pp_size), or the engine's general help before that.
 */
export function layoutHelp(model, info) {
  if (!model?.ep_sizes) return { pp: info.pp_size?.choose, ep: info.ep_size?.choose };
  const ep = model.experts > 0
    ? `a divisor of the model's ${model.experts} experts: ${model.ep_sizes.join(', ')}; usually the GPUs per node`
    : 'this model has no experts: 1';
  const pp = `at most ${model.max_pp_size} for the model's ${model.layers} layers (DualPipeV needs two per stage); more pp lowers parameter and activation memory per GPU`;
  return { pp, ep };
}

/** Props: state, update(patch), info (parameter help by name), model (result.model, or null). */
export function ParallelPanel({ state, update, info, model = null }) {
  const d = derive(state);
  const help = layoutHelp(model, info);
  const set = useSetters(update);
  return (
    <fieldset class="panel">
      <legend>Parallelism</legend>
      <SliderField label={inputLabel('pp_size')} field="pp_size" help={help.pp} value={state.pp_size} min={1} max={32}
        onChange={set('pp_size')} />
      <SliderField label={inputLabel('ep_size')} field="ep_size" help={help.ep} value={state.ep_size} min={1} max={32} scale="log2"
        onChange={set('ep_size')} />
      <SliderField label={inputLabel('cp_size')} field="cp_size" help={info.cp_size?.choose} value={state.cp_size} min={1} max={64} scale="log2"
        onChange={set('cp_size')} />
      <SliderField label={inputLabel('total_gpus')} field="total_gpus" help={info.total_gpus?.choose} value={state.total_gpus} min={1} max={16384} scale="log2"
        onChange={set('total_gpus')} />
      <NodesRow state={state} update={update} />
      <dl class="derived-list" aria-live="polite">
        <Derived name="dp" label={inputLabel('dp')} value={d.dp} formula="total ÷ (pp·ep·cp)" />
        <Derived name="num_chunks" label={inputLabel('num_chunks')} value={d.num_chunks} formula="gbs ÷ (mbs·dp·ep)" />
      </dl>
      <FieldProblems fields={['dp', 'num_chunks', 'layout']} />
    </fieldset>
  );
}
