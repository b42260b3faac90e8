// InputsSummary.jsx — the inputs on screen, as one paragraph: what
// a printed page gives in place of the controls (style.css, "print"), and
// what a reader of the print needs to run it again. Hidden on screen.

import { inputLabel } from './names.js';
import { enumTitle } from './enum-titles.js';
import { count } from './format.js';
import { derive } from './state.js';

/** The inputs of `state` as [label, value] pairs, in the form's order. */
export function inputsList(state) {
  const d = derive(state);
  const gpu = state.gpu ? state.gpu.toUpperCase() : `${state.gpu_memory_gb} GiB`;
  const routing = state.routing === 'factor' ? `factor ${state.routing_factor}` : enumTitle('routing', state.routing);
  return [
    [inputLabel('model'), state.model],
    [inputLabel('pp_size'), state.pp_size], [inputLabel('ep_size'), state.ep_size], [inputLabel('cp_size'), state.cp_size],
    [inputLabel('dp'), d.dp], [inputLabel('total_gpus'), count(state.total_gpus)],
    [inputLabel('micro_batch_size'), state.micro_batch_size], [inputLabel('global_batch_size'), count(state.global_batch_size)],
    [inputLabel('sequence_length'), count(state.sequence_length)], [inputLabel('gpu'), gpu],
    [inputLabel('optimizer'), enumTitle('optimizer', state.optimizer)], [inputLabel('sharding'), enumTitle('sharding', state.sharding)],
    [inputLabel('fp8_training'), enumTitle('fp8_training', state.fp8_training)], [inputLabel('routing'), routing],
    [inputLabel('fragmentation'), state.fragmentation],
    [inputLabel('pp_rank'), state.pp_rank < 0 ? 'the worst' : state.pp_rank],
  ];
}

/** The state keys behind inputsList()'s rows, in its order (dp: the layout's problems). */
const ROW_FIELDS = [['model', 'config'], ['pp_size'], ['ep_size'], ['cp_size'], ['dp', 'num_chunks', 'layout'], ['total_gpus'],
  ['micro_batch_size'], ['global_batch_size'], ['sequence_length'], ['gpu', 'gpu_memory_gb'], ['optimizer'], ['sharding'],
  ['fp8_training'], ['routing', 'routing_factor', 'ep_imbalance'], ['fragmentation'], ['pp_rank']];

/**
 * Props: state (the inputs on screen), problems (the engine's for them:
 * each input they name is marked, so that a printed page never shows a
 * value without the problem it has).
 */
export function InputsSummary({ state, problems = [] }) {
  const named = new Set(problems.map((p) => p.field).filter(Boolean));
  const config = problems.some((p) => p.field && !ROW_FIELDS.flat().includes(p.field));
  return (
    <section class="inputs-summary" aria-labelledby="inputs-summary-title" data-testid="inputs-summary">
      <h2 id="inputs-summary-title">Inputs</h2>
      <dl>
        {inputsList(state).map(([label, value], i) => {
          const bad = ROW_FIELDS[i].some((f) => named.has(f)) || (i === 0 && config);
          return (
            <div key={label} class={bad ? 'needs-change' : undefined}>
              <dt>{label}</dt>
              <dd>{value === '' ? '(empty)' : String(value)}{bad && <span class="needs-change-mark"> (needs a change)</span>}</dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
