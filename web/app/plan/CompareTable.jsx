// CompareTable.jsx — A and B side by side (the planner's compare rows):
// the inputs that differ, status, peak, headroom, bubble, then every
// static and dynamic component of each one's worst rank at its peak, with
// B − A for each (the planner's delta).

import { gib, mem, percent, signedGib } from '../format.js';
import { STATIC_PARTS, DYNAMIC_PARTS, STATUS_CLASS, partLabel } from '../palette.js';
import { inputLabel } from '../names.js';
import { enumTitle, scheduleTitle } from '../enum-titles.js';
import { LAYOUT_INPUTS } from '../state.js';

/** The inputs a row shows where A and B differ, the derived dp and chunks with them; their labels are the engine's (names.js). */
const INPUTS = [...LAYOUT_INPUTS.flatMap((key) => (key === 'cp_size' ? [key, 'dp'] : [key])), 'num_chunks'];

/** A signed byte figure for the delta column ("±0" when it did not move). */
function delta(bytes) {
  if (bytes === 0) return '±0';
  return Math.abs(bytes) >= 0.1 * 2 ** 30 ? signedGib(bytes) : `${bytes < 0 ? '\u2212' : '+'}${mem(Math.abs(bytes))}`;
}

/** A row's schedule (the planner's row says it when A's and B's differ). */
function scheduleText(row) {
  return row.schedule ? scheduleTitle(row.schedule, row.virtual_stages) : '';
}

function Status({ row }) {
  const cls = STATUS_CLASS[row.status] ?? 'ok';
  return <span class={`badge badge-${cls}`}>{row.status}</span>;
}

/**
 * One row of figures: label, A, B, B − A, with the raw numbers as data.
 * The delta is red when B is worse: more memory, or less headroom (`more`).
 */
function Figure({ label, name, a, b, d, show = gib, more = false }) {
  const worse = more ? d < 0 : d > 0;
  const better = more ? d > 0 : d < 0;
  return (
    <tr data-name={name} data-a={a} data-b={b} data-delta={d}>
      <th scope="row">{label}</th>
      <td class="num">{show(a)}</td>
      <td class="num">{show(b)}</td>
      <td class={`num delta${worse ? ' worse' : better ? ' better' : ''}`}>{delta(d)}</td>
    </tr>
  );
}

function Group({ title, parts, a, b, d, which }) {
  const rows = parts.filter(([key]) => a[which][key] !== 0 || b[which][key] !== 0);
  return (
    <tbody>
      <tr class="group"><th scope="rowgroup" colSpan={4}>{title}</th></tr>
      {rows.map(([key]) => (
        <Figure key={key} label={partLabel(key)} name={`${which}.${key}`} a={a[which][key]} b={b[which][key]} d={d[which][key]} show={mem} />
      ))}
    </tbody>
  );
}

/**
 * Props: result (the planner's compare JSON, two rows, or comparePair's),
 * gpuA, gpuB (GPU names), modelA, modelB (the models' names).
 */
export function CompareTable({ result, gpuA, gpuB, modelA = '', modelB = '' }) {
  const [a, b] = result.rows;
  const d = b.delta;
  const inputs = INPUTS.filter((key) => a[key] !== b[key]);
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="compare-caption">
      <table class="compare-table" data-testid="compare-table">
        <caption id="compare-caption">A (the calculator) and B, worst rank of each at its peak</caption>
        <thead>
          <tr><th scope="col">Memory</th><th scope="col">A</th><th scope="col">B</th><th scope="col">B − A</th></tr>
        </thead>
        <tbody>
          {inputs.map((key) => (
            <tr key={key} class="input-row" data-name={key}>
              <th scope="row">{inputLabel(key)}</th><td class="num">{a[key]}</td><td class="num">{b[key]}</td><td />
            </tr>
          ))}
          {modelA !== modelB && <tr class="input-row" data-name="model"><th scope="row">{inputLabel('model')}</th><td>{modelA}</td><td>{modelB}</td><td /></tr>}
          {a.routing !== undefined && (a.routing !== b.routing || a.routing_factor !== b.routing_factor) && (
            <tr class="input-row" data-name="routing">
              <th scope="row">{inputLabel('routing')}</th>
              <td>{enumTitle('routing', a.routing)} ({a.routing_factor?.toFixed(2)}×)</td>
              <td>{enumTitle('routing', b.routing)} ({b.routing_factor?.toFixed(2)}×)</td><td />
            </tr>
          )}
          {(a.schedule !== b.schedule || a.virtual_stages !== b.virtual_stages) && (
            <tr class="input-row" data-name="schedule">
              <th scope="row">{inputLabel('schedule')}</th><td>{scheduleText(a)}</td><td>{scheduleText(b)}</td><td />
            </tr>
          )}
          {gpuA !== gpuB && <tr class="input-row" data-name="gpu"><th scope="row">{inputLabel('gpu')}</th><td>{gpuA}</td><td>{gpuB}</td><td /></tr>}
          <tr data-name="status"><th scope="row">Status</th><td><Status row={a} /></td><td><Status row={b} /></td><td /></tr>
          <Figure label="Peak per GPU" name="peak_bytes" a={a.peak_bytes} b={b.peak_bytes} d={d.peak_bytes} />
          <Figure label="Headroom" name="headroom_bytes" a={a.headroom_bytes} b={b.headroom_bytes} d={d.headroom_bytes} show={signedGib} more />
          <Figure label="PyTorch tensors" name="tensor_peak_bytes" a={a.tensor_peak_bytes} b={b.tensor_peak_bytes} d={d.tensor_peak_bytes} />
          <tr data-name="bubble_fraction">
            <th scope="row">Pipeline bubble</th><td class="num">{percent(a.bubble_fraction, 2)}</td>
            <td class="num">{percent(b.bubble_fraction, 2)}</td><td />
          </tr>
        </tbody>
        <Group title="Static (live all step)" parts={STATIC_PARTS} a={a} b={b} d={d} which="static" />
        <Group title="Dynamic (at the peak)" parts={DYNAMIC_PARTS} a={a} b={b} d={d} which="dynamic" />
        <tbody>
          <tr class="group"><th scope="rowgroup" colSpan={4}>Outside PyTorch’s tensors</th></tr>
          <Figure label="CUDA context, NCCL, …" name="non_pytorch_bytes" a={a.non_pytorch_bytes} b={b.non_pytorch_bytes} d={d.non_pytorch_bytes} show={mem} />
          <Figure label="Allocator fragmentation" name="fragmentation_bytes" a={a.fragmentation_bytes} b={b.fragmentation_bytes} d={d.fragmentation_bytes} show={mem} />
        </tbody>
      </table>
    </div>
  );
}
