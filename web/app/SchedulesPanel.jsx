// SchedulesPanel.jsx — the Schedules tab: the calculator's inputs under
// every pipeline schedule the core replays, side by side (schedules.js):
// a table of each one's pipeline in DualPipe's units, bubble, peak,
// verdict and time, a schedule the layout cannot take with the engine's
// refusal in its row; and each one's worst rank over the step on one axis
// (SchedulesChart.jsx). The answers are for the inputs on screen, or the
// cards say which inputs they are for.

import { Card, staleNote } from './Card.jsx';
import { SchedulesChart } from './SchedulesChart.jsx';
import { scheduleRow, schedulesPlot } from './schedules.js';
import { gpuText, numberWords } from './plan/FixedInputs.jsx';
import { LAYOUT_INPUTS, OPTION_INPUTS } from './state.js';
import { enumTitle } from './enum-titles.js';
import { inputLabel } from './names.js';
import { degree, duration, gib, percent, rate } from './format.js';
import { STATUS_CLASS } from './palette.js';
import { pageWords } from './wording.js';

/** The calculator's inputs the five answers share, in one line: all but the schedule (virtual_stages is interleaved 1F1B's). */
function summary(state, gpus) {
  const options = OPTION_INPUTS.filter((key) => key !== 'schedule').map((key) => enumTitle(key, state[key]));
  return [state.config ? `${state.model} (pasted config)` : state.model, gpuText(state, gpus), ...numberWords(state, LAYOUT_INPUTS),
    ...options, `interleaved 1F1B with ${state.virtual_stages} stages per GPU`].join(', ');
}

/** "2x" for a whole number of parameter copies per stage, else its figure. */
function copies(n) {
  return `${degree(n)}x`;
}

function Row({ row, chosen, onUse }) {
  const name = enumTitle('schedule', row.schedule);
  const head = (
    <th scope="row">
      {name}
      {row.schedule === 'dualpipev' && <span class="help"> (the trainer’s)</span>}
      {chosen && <span class="help"> (in the calculator)</span>}
    </th>
  );
  if (row.error) {
    return (
      <tr data-schedule={row.schedule} data-status="refused">
        {head}
        <td class="reason" colSpan={9} data-testid="schedule-refusal">{pageWords(row.error.message)}</td>
        <td />
      </tr>
    );
  }
  const cls = STATUS_CLASS[row.status] ?? 'ok';
  return (
    <tr data-schedule={row.schedule} data-status={row.status} data-peak={row.peak_bytes} data-activations={row.activations}
      data-pp-stages={row.pp_stages} data-bubble-from={row.bubble_from ?? ''}>
      {head}
      <td class="num">{row.pp_stages}</td>
      <td class="num">{row.devices}</td>
      <td class="num">{degree(row.activations)}</td>
      <td class="num">{copies(row.parameter_copies)}</td>
      <td class="num">{row.bubble === null ? '—' : `${percent(row.bubble, 2)}${row.bubble_from === 'formula' ? ' (formula)' : ''}`}</td>
      <td class="num">{gib(row.peak_bytes)}</td>
      <td><span class={`badge badge-${cls}`}>{row.status}</span></td>
      <td class="num">{duration(row.step_seconds)}</td>
      <td class="num">{rate(row.tokens_per_second)}</td>
      <td>{!chosen && <button type="button" class="link" aria-label={`Use ${name} in the calculator`} onClick={() => onUse(row.schedule)}>Use</button>}</td>
    </tr>
  );
}

/**
 * Props: state (the calculator's), gpus (engine presets), schedules
 * (useSchedules), update(patch).
 */
export function SchedulesPanel({ state, gpus, schedules, update }) {
  const { answers, error, pending, key, want } = schedules;
  const current = answers !== null && key === want;
  const note = answers && !current ? staleNote(schedules.state, state) || 'For other inputs than the calculator’s.' : '';
  const rows = answers ? answers.map(scheduleRow) : [];
  const plot = answers ? schedulesPlot(answers.filter((a) => !a.error)) : null;
  const answerFor = answers?.find((a) => a.result)?.result.command ?? '';
  const valid = rows.filter((r) => !r.error);
  const anyTime = valid.some((r) => r.step_seconds !== null);
  // Inputs every schedule refuses alike (a GPU count that does not divide, say): said once, with no table.
  const refusedAll = rows.length > 0 && !valid.length && rows.every((r) => r.error.message === rows[0].error.message) ? rows[0].error : null;
  const shownError = error ?? refusedAll;
  const onUse = (schedule) => update({ schedule, view: 'calculator' });
  return (
    <div class="schedules-body" aria-busy={pending ? 'true' : 'false'} data-current={current ? 'true' : 'false'} data-testid="schedules">
      <h2>The pipeline schedules side by side</h2>
      <p class="fixed-inputs" data-testid="fixed-inputs">
        <span class="fixed-title">From the calculator:</span> {summary(state, gpus)}{' '}
        <button type="button" class="link" onClick={() => update({ view: 'calculator' })}>Change in the calculator</button>
      </p>
      <p class="help">
        The trainer runs DualPipeV; each other row is what the same run would hold and take under that schedule, its worst
        rank at its peak. Stages are DualPipe’s units: DualPipeV runs 2·pp stages on its pp GPUs, DualPipe two model copies
        of pp stages. Activations per GPU: how many micro-batches’ worth of stages a GPU holds at once. Parameters per GPU:
        the copies of its layers’ parameters it keeps (2x: two modules, or two copies).{' '}
        {!valid.length ? '' : anyTime ? 'Bubble: the replayed step’s idle share.' : 'Without a GPU preset there is no step time: the bubble is each schedule’s formula.'}
      </p>
      {pending && !answers && <p role="status" class="loading">Estimating the schedules…</p>}
      {shownError && (
        <Card as="div" answerFor={answerFor} note={note} class="schedules-error">
          <p class="problem" role="alert" data-testid="schedules-error">
            {refusedAll && !error ? 'Every schedule refuses these inputs: ' : ''}{pageWords(shownError.message)}
          </p>
        </Card>
      )}
      {answers && !refusedAll && (
        <Card as="div" answerFor={answerFor} note={note} class="schedules-table" data-testid="schedules-table">
          <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="schedules-caption">
            <table>
              <caption id="schedules-caption">The calculator’s inputs under each schedule</caption>
              <thead>
                <tr>
                  <th scope="col">{inputLabel('schedule')}</th><th scope="col">PP stages</th><th scope="col">GPUs</th>
                  <th scope="col">Activations per GPU</th><th scope="col">Parameters per GPU</th>
                  <th scope="col">Bubble</th><th scope="col">Peak</th><th scope="col">Verdict</th>
                  <th scope="col">Step time</th><th scope="col">Tokens/s</th><th scope="col"><span class="visually-hidden">Calculator</span></th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => <Row key={row.schedule} row={row} chosen={row.schedule === state.schedule} onUse={onUse} />)}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {plot && <SchedulesChart plot={plot} capacity={answers.find((a) => a.result)?.result.gpu_capacity_bytes ?? 0} answerFor={answerFor} note={note} />}
    </div>
  );
}
