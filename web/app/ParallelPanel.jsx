// ParallelPanel.jsx — the parallel layout: pp and its pipeline schedule
// (interleaved 1F1B's stages per GPU with it), ep, cp and the GPU count
// (also as nodes x GPUs per node), with the derived dp and num_chunks.

import { useId, useRef, useState } from 'preact/hooks';
import { SliderField } from './SliderField.jsx';
import { inputRange } from './input-ranges.js';
import { FieldProblems } from './FieldProblems.jsx';
import { INTERLEAVED, derive } from './state.js';
import { SelectField } from './SelectField.jsx';
import { enumOptions, scheduleTitle } from './enum-titles.js';
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

/** The nodes box's text for a GPU count: whole nodes, else empty (the help says why). */
function shownNodesOf(state) {
  const nodes = typeof state.total_gpus === 'number' && state.gpus_per_node > 0 ? state.total_gpus / state.gpus_per_node : null;
  return nodes !== null && Number.isInteger(nodes) ? String(nodes) : '';
}

/**
 * Total GPUs as nodes x GPUs per node. A box that holds no whole number of
 * at least 1 is an input too: total_gpus becomes the text "nodes × per
 * node" as typed, which the engine refuses by the GPU count's name, so the
 * cards go stale and the link carries it; the boxes keep their text until
 * the GPU count changes otherwise.
 */
function NodesRow({ state, update }) {
  const id = useId();
  const typed = useRef(/** @type {{nodes: string, perNode: string, total: number | string, base: number | null} | null} */ (null));
  const [, retype] = useState(0);
  if (typed.current && typed.current.total !== state.total_gpus) typed.current = null;
  const gpn = state.gpus_per_node;
  const nodes = typeof state.total_gpus === 'number' && gpn > 0 ? state.total_gpus / gpn : null;
  const shownNodes = typed.current ? typed.current.nodes : shownNodesOf(state);
  const shownPer = typed.current ? typed.current.perNode : String(gpn);
  const whole = (text) => text.trim() !== '' && Number.isInteger(Number(text)) && Number(text) > 0;
  const set = (nodesText, perText) => {
    const per = whole(perText) ? Number(perText) : null;
    const total = whole(nodesText) && per !== null ? Number(nodesText) * per : `${nodesText} × ${perText}`;
    typed.current = typeof total === 'number' ? null : { nodes: nodesText, perNode: perText, total, base: null };
    retype((k) => k + 1);
    update(per !== null ? { total_gpus: total, gpus_per_node: per } : { total_gpus: total });
  };
  // GPUs per node alone keeps the GPU count (`base`), unless the nodes box holds a draft.
  const setPerNode = (perText) => {
    const base = typed.current ? typed.current.base : state.total_gpus;
    if (base === null) return set(typed.current?.nodes ?? '', perText);
    if (whole(perText)) {
      typed.current = null;
      retype((k) => k + 1);
      return update({ total_gpus: base, gpus_per_node: Number(perText) });
    }
    const total = `${base} GPUs in nodes of ${perText}`;
    typed.current = { nodes: shownNodesOf({ total_gpus: base, gpus_per_node: gpn }), perNode: perText, total, base };
    retype((k) => k + 1);
    return update({ total_gpus: total });
  };
  const bad = [typed.current?.base === null && !whole(shownNodes) && 'Nodes', !whole(shownPer) && 'GPUs per node'].filter(Boolean);
  // An untyped count that is not whole nodes is shown as the help below, not as a problem.
  const problem = typed.current && bad.length ? `${bad.join(' and ')} must be a whole number of at least 1.` : null;
  return (
    <div class="field nodes-row">
      <label for={`${id}-nodes`}>Nodes</label>
      <input id={`${id}-nodes`} type="number" min="1" step="1" value={shownNodes} aria-invalid={problem && bad.includes('Nodes') ? 'true' : undefined}
        placeholder={degree(nodes)} onInput={(e) => set(e.currentTarget.value, shownPer)} />
      <span aria-hidden="true">×</span>
      <label for={`${id}-gpn`}>GPUs per node</label>
      <input id={`${id}-gpn`} type="number" min="1" step="1" value={shownPer} aria-invalid={problem && bad.includes('GPUs per node') ? 'true' : undefined}
        onInput={(e) => setPerNode(e.currentTarget.value)} />
      {!typed.current && nodes !== null && !Number.isInteger(nodes) && (
        <p class="help">{state.total_gpus} GPUs are {degree(nodes)} nodes of {gpn}.</p>
      )}
      {problem && <p class="local-problem" role="alert">{problem}</p>}
    </div>
  );
}

/**
 * The help of pp and ep for the model last estimated (result.model's
 * ep_sizes and max_pp_size), or the engine's general help before that.
 */
export function layoutHelp(model, info, schedule = 'dualpipev', virtualStages = 2) {
  if (!model?.ep_sizes) return { pp: info.pp_size?.choose, ep: info.ep_size?.choose };
  const ep = model.experts > 0
    ? `a divisor of the model's ${model.experts} experts: ${model.ep_sizes.join(', ')}; usually the GPUs per node`
    : 'this model has no experts: 1';
  // max_pp_size is DualPipeV's bound (two stages per GPU); another schedule's need is said in words, the engine refusing what it cannot take.
  const pp = schedule === 'dualpipev'
    ? `at most ${model.max_pp_size} for the model's ${model.layers} layers (DualPipeV needs two per GPU); more pp lowers parameter and activation memory per GPU`
    : `the model's ${model.layers} layers over pp GPUs: ${scheduleTitle(schedule)} ${LAYER_NEED[schedule]?.(virtualStages) ?? 'needs its stages'}; more pp lowers parameter and activation memory per GPU`;
  return { pp, ep };
}

/** What a schedule other than DualPipeV needs of the layers, for pp's help (the core's checks: docs/schedules.md). */
const LAYER_NEED = {
  '1f1b': () => 'needs at least one per GPU',
  'interleaved-1f1b': (v) => `needs at least ${v} per GPU, one per stage`,
  'zb-h1': () => 'needs at least one per GPU',
  dualpipe: () => 'needs an even pp and at least one layer per GPU',
};

/** Said under the schedule's select. */
const SCHEDULE_HELP = 'The trainer runs DualPipeV; another schedule shows what the same run would hold and take under it (the Schedules tab sets all five side by side).';
/** Said under interleaved 1F1B's stages per GPU. */
const VIRTUAL_HELP = 'Model chunks per GPU (Megatron’s virtual pipeline size): 2 unless your interleaved runs use more.';

/** The schedule's select: the core's values, titled by the core; built once. */
let scheduleChoices = null;

/** Props: state, update(patch), info (parameter help by name), model (result.model, or null). */
export function ParallelPanel({ state, update, info, model = null }) {
  const d = derive(state);
  const help = layoutHelp(model, info, state.schedule, state.virtual_stages);
  const set = useSetters(update);
  scheduleChoices ??= enumOptions('schedule');
  return (
    <fieldset class="panel">
      <legend>Parallelism</legend>
      <SliderField label={inputLabel('pp_size')} field="pp_size" help={help.pp} value={state.pp_size} {...inputRange('pp_size')}
        onChange={set('pp_size')} />
      <SelectField label={inputLabel('schedule')} field="schedule" value={state.schedule} options={scheduleChoices}
        onChange={set('schedule')} help={SCHEDULE_HELP} />
      {state.schedule === INTERLEAVED && (
        <SliderField label={inputLabel('virtual_stages')} field="virtual_stages" help={VIRTUAL_HELP}
          value={state.virtual_stages} {...inputRange('virtual_stages')} onChange={set('virtual_stages')} />
      )}
      <SliderField label={inputLabel('ep_size')} field="ep_size" help={help.ep} value={state.ep_size} {...inputRange('ep_size')}
        onChange={set('ep_size')} />
      <SliderField label={inputLabel('cp_size')} field="cp_size" help={info.cp_size?.choose} value={state.cp_size} {...inputRange('cp_size')}
        onChange={set('cp_size')} />
      <SliderField label={inputLabel('total_gpus')} field="total_gpus" help={info.total_gpus?.choose} value={state.total_gpus} {...inputRange('total_gpus')}
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
