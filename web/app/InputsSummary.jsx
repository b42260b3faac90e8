// InputsSummary.jsx — the inputs on screen, as one paragraph: what
// a printed page gives in place of the controls (style.css, "print"), and
// what a reader of the print needs to run it again. Hidden on screen.

import { inputLabel } from './names.js';
import { enumTitle } from './enum-titles.js';
import { count } from './format.js';
import { DEFAULTS, INTERLEAVED, LAYOUT_INPUTS, OPTION_INPUTS, TIME_INPUTS, derive } from './state.js';

/** A number as the form shows it ("1,024"), or the text of a box that holds none. */
const shown = (v) => (typeof v === 'number' ? count(v) : v);

/**
 * The inputs of `state` in the form's order, as [the input the row is
 * labelled by, the state keys behind it (whose problems mark it), value]:
 * the model, the core's layout inputs (dp with them), the GPU, the core's
 * options, the routing, the fragmentation, the rank shown, and the time
 * model's inputs that are set or that a problem names (`named`).
 * @returns {[string, string[], unknown][]}
 */
function rows(state, named = new Set()) {
  const d = derive(state);
  const gpu = state.gpu ? state.gpu.toUpperCase() : `${state.gpu_memory_gb} GiB`;
  const routing = state.routing === 'factor' ? `factor ${state.routing_factor}` : enumTitle('routing', state.routing);
  /** @type {[string, string[], unknown][]} */
  const layout = LAYOUT_INPUTS.flatMap((key) => {
    /** @type {[string, string[], unknown][]} */
    const row = [[key, [key], shown(state[key])]];
    return key === 'cp_size' ? [...row, ['dp', ['dp', 'num_chunks', 'layout'], d.dp]] : row;
  });
  return [
    ['model', ['model', 'config'], state.model],
    ...layout,
    ['gpu', ['gpu', 'gpu_memory_gb'], gpu],
    ...OPTION_INPUTS.map((key) => /** @type {[string, string[], unknown]} */ ([key, [key], enumTitle(key, state[key])])),
    ...(state.schedule === INTERLEAVED || named.has('virtual_stages')
      ? [/** @type {[string, string[], unknown]} */ (['virtual_stages', ['virtual_stages'], shown(state.virtual_stages)])] : []),
    ['routing', ['routing', 'routing_factor', 'ep_imbalance'], routing],
    ['fragmentation', ['fragmentation'], state.fragmentation],
    ['pp_rank', ['pp_rank'], state.pp_rank < 0 ? 'the worst' : state.pp_rank],
    ...TIME_INPUTS.filter((key) => !Object.is(state[key], DEFAULTS[key]) || named.has(key))
      .map((key) => /** @type {[string, string[], unknown]} */ ([key, [key], state[key]])),
  ];
}

/**
 * Props: state (the inputs on screen), problems (the engine's for them:
 * each input they name is marked, so that a printed page never shows a
 * value without the problem it has).
 */
export function InputsSummary({ state, problems = [] }) {
  const named = new Set(problems.map((p) => p.field).filter(Boolean));
  const list = rows(state, named);
  const config = problems.some((p) => p.field && !list.some(([, fields]) => fields.includes(p.field)));
  return (
    <section class="inputs-summary" aria-labelledby="inputs-summary-title" data-testid="inputs-summary">
      <h2 id="inputs-summary-title">Inputs</h2>
      <dl>
        {list.map(([name, fields, value], i) => {
          const bad = fields.some((f) => named.has(f)) || (i === 0 && config);
          return (
            <div key={name} class={bad ? 'needs-change' : undefined}>
              <dt>{inputLabel(name)}</dt>
              <dd>{value === '' ? '(empty)' : String(value)}{bad && <span class="needs-change-mark"> (needs a change)</span>}</dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
