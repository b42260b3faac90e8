// MeasuredTime.jsx — a log's step time beside the estimate's, as `memest
// check` sets them (docs/measured-runs.md, "Step time"): the log's median
// step time and tokens/s over its steady steps (the engine's runLog:
// `step_time`), the estimate's (`time`), and the signed errors
// (estimated − logged) ÷ logged. Without a figure on one side it says which.

import { count, duration, rate, signedPercent } from './format.js';
import { pageWords } from './wording.js';

/** (estimated − logged) ÷ logged, signed: "+34.5%", or "—" without both. */
export function timeError(estimated, logged) {
  return estimated > 0 && logged > 0 ? signedPercent((estimated - logged) / logged) : '—';
}

/** How the logged figure was taken: "median of 7 steps", "one step". */
export function loggedHow(st) {
  return st.steps === 1 ? 'one step' : `median of ${count(st.steps)} steps`;
}

/**
 * Props: logged (the log's step_time, or null), time (the estimate's
 * `time`, or null), note (the estimate's time_note).
 * @param {{logged: any, time: any, note?: string}} props
 */
export function MeasuredTime({ logged, time, note = '' }) {
  if (!logged) {
    return <p class="help" data-testid="measured-time-none">The log’s step lines print no <code>step-time</code>: no step time to compare.</p>;
  }
  const slow = logged.slow_count ?? 0;
  return (
    <div data-testid="measured-time">
      <p>
        The log’s step time and tokens/s ({loggedHow(logged)}) against the estimate’s; error = (estimated − logged) ÷ logged:
        + means memest estimates more.
      </p>
      <table>
        <caption class="visually-hidden">The log’s step time and tokens/s against the estimate’s</caption>
        <thead><tr><td /><th scope="col">Logged</th><th scope="col">Estimated</th><th scope="col">Error</th></tr></thead>
        <tbody>
          <tr data-testid="measured-time-step">
            <th scope="row">Step time</th><td>{duration(logged.step_seconds)}</td>
            <td>{time ? duration(time.step_seconds) : '—'}</td>
            <td data-testid="measured-time-step-error">{time ? timeError(time.step_seconds, logged.step_seconds) : '—'}</td>
          </tr>
          <tr data-testid="measured-time-tokens">
            <th scope="row">Tokens/s</th><td>{logged.tokens_per_second > 0 ? rate(logged.tokens_per_second) : '—'}</td>
            <td>{time ? rate(time.tokens_per_second) : '—'}</td>
            <td data-testid="measured-time-tokens-error">{time ? timeError(time.tokens_per_second, logged.tokens_per_second) : '—'}</td>
          </tr>
        </tbody>
      </table>
      {!time && <p class="help" data-testid="measured-time-note">The estimate has no step time: {pageWords(note)}.</p>}
      {logged.first_skipped && (
        <p class="help">The first step ({duration(logged.first_step_seconds)}) is left out: it compiles and grows the allocator.</p>
      )}
      {slow > 0 && (
        <p class="help">
          {count(slow)} slow step{slow > 1 ? 's' : ''} left out (far over the median of the others: a checkpoint save, an evaluation):{' '}
          {(logged.slow_steps ?? []).map((s) => `step ${s.step} ${duration(s.step_seconds)} (line ${s.line})`).join(', ')}.
        </p>
      )}
    </div>
  );
}
