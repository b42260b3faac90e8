// EmbedView.jsx — the compact, frameless view for an iframe (#embed=1): the
// peak, the breakdown and the timeline, with a link to the full page. In a
// frame it posts its height to the host page (frame-height.js).

import { PeakCard, shownRank } from './PeakCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { Timeline } from './Timeline.jsx';
import { linkTo } from './SharePanel.jsx';
import { useFrameHeight } from './frame-height.js';
import { pageWords } from './wording.js';

/** Props: view (useEstimate), state, engineError, notice. */
export function EmbedView({ view, state, engineError, notice }) {
  const { result } = view;
  const error = engineError || view.error || notice?.text || (view.stale ? pageWords(view.problems[0]?.message) : null);
  const layout = `pp ${state.pp_size} · ep ${state.ep_size} · cp ${state.cp_size} · ${state.total_gpus} GPUs`;
  useFrameHeight(true);
  return (
    <main class="embed" data-testid="results" data-seq={view.seq} aria-busy={view.pending ? 'true' : 'false'}>
      <div class="embed-head">
        <h1 class="embed-title"><span class="visually-hidden">memest estimate: </span>{state.model} <span>{layout}</span></h1>
        <a href={linkTo(state)} target="_blank" rel="noopener noreferrer" class="embed-link">Open in memest ↗</a>
      </div>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      {!result && !error && <p class="loading" role="status">Estimating…</p>}
      {view.stale && <p class="help">The full page explains what to change.</p>}
      {result && (
        <>
          <PeakCard result={result} stale={view.stale} compact />
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} compact />
          {view.timeline && <Timeline rank={view.timeline} capacity={result.gpu_capacity_bytes} height={200} compact />}
        </>
      )}
    </main>
  );
}
