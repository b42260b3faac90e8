// EmbedView.jsx — the compact, frameless view for an iframe (#embed=1): the
// peak, the breakdown and the timeline, with a link to the full page.

import { PeakCard, shownRank } from './PeakCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { Timeline } from './Timeline.jsx';
import { linkTo } from './SharePanel.jsx';

/** Props: view (useEstimate), state, engineError, notice. */
export function EmbedView({ view, state, engineError, notice }) {
  const { result } = view;
  const error = engineError || view.error || notice?.text || (view.stale ? view.problems[0]?.message : null);
  const layout = `pp ${state.pp_size} · ep ${state.ep_size} · cp ${state.cp_size} · ${state.total_gpus} GPUs`;
  return (
    <main class="embed" data-testid="results" data-seq={view.seq} aria-busy={view.pending ? 'true' : 'false'}>
      <p class="embed-head">
        <strong>{state.model}</strong> <span>{layout}</span>
        <a href={linkTo(state)} target="_blank" rel="noopener noreferrer" class="embed-link">Open in memest ↗</a>
      </p>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      {!result && !error && <p class="loading" role="status">Estimating…</p>}
      {view.stale && <p class="help">The full page explains what to change.</p>}
      {result && (
        <>
          <PeakCard result={result} stale={view.stale} compact />
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} compact />
          {view.timeline && <Timeline rank={view.timeline} height={200} compact />}
        </>
      )}
    </main>
  );
}
