// TimeCard.jsx — the step time beside the peak: seconds per step, tokens/s
// (global and per GPU), MFU, the bubble's and exposed communication's
// shares, the critical rank and its step in parts (a stacked bar and its
// table), the hardware row the model used and what the figure leaves out.
// Without a GPU kind the engine gives no time, and the card says its note.
// Every figure is the engine's (`time` of the estimate).

import { count, duration, percent, rate } from './format.js';
import { chartColor } from './scheme.js';
import { useColorScheme } from './use-color-scheme.js';
import { pageWords } from './wording.js';
import { PartName } from './PartName.jsx';
import { Numbers } from './Numbers.jsx';
import { Card } from './Card.jsx';
import { TIME_PARTS, hardwareFacts, rankSeconds, stepParts } from './time-parts.js';

const pc = (x) => `${(Math.max(0, x) * 100).toFixed(3)}%`;
/** The parts' table across the card, as the breakdown's. */
const TABLE = { marginTop: '0.5rem', width: '100%' };
/** One cell of the facts' grid. */
const FACT = { gridColumn: 'auto' };
/** The headline, a size under the peak's. */
const HEADLINE = { fontSize: '2rem' };

/** The critical rank's step as one stacked bar, its parts' shares of the step. */
function StepBar({ parts, rank }) {
  return (
    <div class="bar" style={{ height: '44px' }} role="img" data-testid="time-bar"
      aria-label={`The step of rank ${rank}: ${parts.map((p) => `${p.label.toLowerCase()} ${duration(p.seconds)}`).join(', ')}. The table below lists them.`}>
      <div class="bar-track">
        {parts.filter((p) => p.seconds > 0).map((p) => (
          <span key={p.key} class="bar-segment" style={{ width: pc(p.share), background: p.color }}
            title={`${p.label}: ${duration(p.seconds)}`} />
        ))}
      </div>
    </div>
  );
}

/** The critical rank's parts as a table: seconds and share of the step. */
function PartsTable({ parts, time }) {
  return (
    <table class="time-parts" style={TABLE} data-testid="time-parts">
      <caption class="visually-hidden">The step of rank {time.critical_rank}, in parts</caption>
      <thead><tr><th scope="col">Rank {time.critical_rank}’s step</th><th scope="col">Time</th><th scope="col">Share</th></tr></thead>
      <tbody>
        {parts.map((p) => (
          <tr key={p.key} data-part={p.key}>
            <th scope="row"><PartName label={p.label} color={p.color} /></th>
            <td>{duration(p.seconds)}</td>
            <td>{percent(p.share)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot><tr><th scope="row">Step</th><td>{duration(time.step_seconds)}</td><td>{percent(1)}</td></tr></tfoot>
    </table>
  );
}

/** Every pipeline rank's step, and the efficiencies the model used, behind a disclosure. */
function RanksAndEfficiencies({ time }) {
  const ranks = time.ranks ?? [];
  const eff = Object.entries(time.efficiency ?? {});
  return (
    <Numbers summary={`Every rank’s step (${count(ranks.length)}) and the efficiencies used`}>{() => (
      <>
        <table data-testid="time-ranks">
          <caption class="visually-hidden">Each pipeline rank's step, in parts</caption>
          <thead><tr><th scope="col">Rank</th>{TIME_PARTS.map(([key, label]) => <th key={key} scope="col">{label}</th>)}</tr></thead>
          <tbody>
            {ranks.map((r) => (
              <tr key={r.rank} class={r.rank === time.critical_rank ? 'worst-row' : ''}>
                <th scope="row">{r.rank}{r.rank === time.critical_rank ? ' (critical)' : ''}</th>
                {rankSeconds(r).map((s, i) => <td key={TIME_PARTS[i][0]}>{duration(s)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
        <table data-testid="time-efficiency">
          <caption class="visually-hidden">The efficiencies used</caption>
          <thead><tr><th scope="col">Efficiency</th><th scope="col">Value</th></tr></thead>
          <tbody>{eff.map(([k, v]) => <tr key={k}><th scope="row"><code>{k}</code></th><td>{String(v)}</td></tr>)}</tbody>
        </table>
      </>
    )}</Numbers>
  );
}

/** The figures of a known time, as the card's fact list. */
function Facts({ time }) {
  const facts = [
    ['time-tokens', 'Tokens/s', `${rate(time.tokens_per_second)}`],
    ['time-tokens-gpu', 'Tokens/s per GPU', `${rate(time.tokens_per_second_per_gpu)}`],
    ['time-mfu', 'MFU', percent(time.mfu)],
    ['time-bubble', 'Bubble', percent(time.bubble_fraction, 2)],
    ['time-exposed', 'Exposed comm.', percent(time.exposed_comm_fraction, 2)],
    ['time-critical', 'Critical rank', String(time.critical_rank)],
  ];
  // The peak card's fact grid, every fact one cell (its last one spans the row there).
  return (
    <dl class="peak-facts">
      {facts.map(([id, dt, dd]) => <div key={id} style={FACT}><dt>{dt}</dt><dd data-testid={id}>{dd}</dd></div>)}
    </dl>
  );
}

/** The embed's card: the step time and tokens/s on one line; nothing without a time. */
function CompactTime({ time, answerFor }) {
  return (
    <Card answerFor={answerFor} class="chart time-card" aria-labelledby="time-title" data-testid="time-card" data-known="true"
      data-seconds={time.step_seconds}>
      <h2 id="time-title" class="visually-hidden">Step time</h2>
      <p class="peak-line">
        <strong data-testid="time-step">{duration(time.step_seconds)}</strong>
        <span class="peak-verdict">per step · <span data-testid="time-tokens">{rate(time.tokens_per_second)}</span> tokens/s · MFU {percent(time.mfu)}</span>
      </p>
    </Card>
  );
}

/**
 * Props: result (the estimate: its `time`, or null with `time_note`),
 * answerFor (Card's), compact (embed: the headline alone, and nothing
 * without a time).
 * @param {{result: any, answerFor: string, compact?: boolean}} props
 */
export function TimeCard({ result, answerFor, compact = false }) {
  const scheme = useColorScheme();
  const time = result.time ?? null;
  if (compact) return time ? <CompactTime time={time} answerFor={answerFor} /> : null;
  if (!time) {
    return (
      <Card answerFor={answerFor} class="chart time-card" aria-labelledby="time-title" data-testid="time-card" data-known="false">
        <h2 id="time-title">Step time</h2>
        <p data-testid="time-note">{pageWords(result.time_note) || 'No step time for these inputs.'}</p>
      </Card>
    );
  }
  const parts = stepParts(time).map((p) => ({ ...p, color: chartColor(p.color, scheme) }));
  const hw = time.hardware ?? {};
  return (
    <Card answerFor={answerFor} class="chart time-card" aria-labelledby="time-title" data-testid="time-card" data-known="true"
      data-seconds={time.step_seconds}>
      <h2 id="time-title">Step time</h2>
      <p class="peak-line">
        <span class="peak-number" style={HEADLINE} data-testid="time-step">{duration(time.step_seconds)}</span>
        <span class="peak-verdict">per step: the critical rank’s, its step end and optimizer included</span>
      </p>
      <Facts time={time} />
      <StepBar parts={parts} rank={time.critical_rank} />
      <PartsTable parts={parts} time={time} />
      <p class="help" data-testid="time-hardware">
        {hw.title ?? time.gpu}: {hardwareFacts(hw).map(([k, v]) => `${k} ${v}`).join(' · ')}.
      </p>
      <p class="help" data-testid="time-uncertainty">What it leaves out: {pageWords(time.uncertainty)}</p>
      <RanksAndEfficiencies time={time} />
    </Card>
  );
}
