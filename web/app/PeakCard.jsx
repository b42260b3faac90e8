// PeakCard.jsx — the headline: the peak per GPU, OK / TIGHT / OOM, the
// headroom, and where in the schedule the peak happens.

import { gib, signedGib, percent } from './format.js';
import { STATUS_CLASS } from './palette.js';
import { tightPercent } from './names.js';
import { Card } from './Card.jsx';

/** What each status means, with the core's TIGHT threshold. */
export function statusText(status) {
  if (status === 'TIGHT') return `fits, with less than ${tightPercent()}% headroom`;
  return status === 'OOM' ? 'does not fit' : 'fits';
}

/** The rank whose figures a result carries: the worst one, or the one asked for. */
export function shownRank(result) {
  return result.ranks.find((r) => r.pp_rank === result.worst_rank) ?? result.ranks[0];
}

/**
 * The headline is the run's: its worst rank's peak and verdict, whichever
 * rank is shown. A rank chosen with "Pipeline rank shown" gets its own line,
 * under its name, and the facts below are that rank's.
 * Props: result, compact (embed: no facts).
 * @param {{result: any, compact?: boolean}} props
 */
export function PeakCard({ result, compact }) {
  const rank = shownRank(result);
  const cls = STATUS_CLASS[result.status] ?? 'ok';
  const own = result.shown_rank ?? null;
  const known = !own || own.run_known;
  return (
    <Card answerFor={result.command} class={`peak-card status-${cls}`} aria-labelledby="peak-title"
      data-testid="peak-card">
      <h2 id="peak-title" class="visually-hidden">Peak memory per GPU</h2>
      <div class="peak-line" aria-live="polite">
        <span class="peak-number" data-testid="peak" data-bytes={result.peak_bytes}>{gib(result.peak_bytes)}</span>
        <span class={`badge badge-${cls}`} data-testid="status" title={statusText(result.status)}>{result.status}</span>
        <span class="peak-verdict">{statusText(result.status)}</span>
      </div>
      <p class="peak-sub">
        {known
          ? <>peak per GPU, worst rank {result.worst_rank} of{' '}</>
          : <>peak of rank {own.pp_rank} alone (every rank would take too long to replay) of{' '}</>}
        {gib(result.gpu_capacity_bytes)} — headroom{' '}
        <strong data-testid="headroom">{signedGib(result.headroom_bytes)}</strong> ({percent(result.headroom_fraction)})
      </p>
      {own && known && (
        <p class="peak-sub peak-shown" data-testid="shown-rank" data-bytes={own.peak_bytes}>
          Rank {own.pp_rank}, shown: {gib(own.peak_bytes)}, headroom {signedGib(own.headroom_bytes)}{' '}
          ({percent(own.headroom_fraction)}), <span class={`badge badge-${STATUS_CLASS[own.status] ?? 'ok'}`}>{own.status}</span>{' '}
          {own.pp_rank === result.worst_rank ? 'the worst rank' : `on its own; the run's verdict is rank ${result.worst_rank}'s`}
        </p>
      )}
      {!compact && (
        <dl class="peak-facts" aria-label={`Rank ${rank.pp_rank} at its peak`}>
          <div><dt>{own ? `Rank ${rank.pp_rank}’s tensors` : 'PyTorch tensors'}</dt><dd>{gib(rank.tensor_peak_bytes)}</dd></div>
          <div><dt>Non-PyTorch</dt><dd>{gib(rank.non_pytorch_bytes)}</dd></div>
          <div><dt>Fragmentation</dt><dd>{gib(rank.fragmentation_bytes)}</dd></div>
          <div><dt>Peak during</dt><dd class="peak-event">{rank.peak_phase}: {rank.peak_event}</dd></div>
        </dl>
      )}
    </Card>
  );
}
