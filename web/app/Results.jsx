// Results.jsx — everything the estimate shows on the full page: the peak,
// problems without a control of their own, warnings, the model as read, the three charts,
// suggestions, the per-tensor detail and the equivalent command.

import { PeakCard, shownRank } from './PeakCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { RankChart } from './RankChart.jsx';
import { RoutingChart } from './RoutingChart.jsx';
import { Timeline } from './Timeline.jsx';
import { MeasuredCurve } from './MeasuredCurve.jsx';
import { largest, markersFor } from './measured.js';
import { Warnings } from './Warnings.jsx';
import { Suggestions } from './Suggestions.jsx';
import { DetailTable } from './DetailTable.jsx';
import { CommandLine } from './CommandLine.jsx';
import { ModelSummary } from './ModelSummary.jsx';
import { FieldProblems } from './FieldProblems.jsx';
import { ProblemSummary } from './ProblemSummary.jsx';

/**
 * Props: view (useEstimate), detail (the per-tensor table is open), custom
 * (a pasted config is in use), config (its text), ppRank (the rank asked for, or -1),
 * update(patch), applyFix(fix), engineError, measured (useMeasured, or
 * null): markers on the rank chart and the measured curve under the timeline,
 * onSuggestionsShown(visible), curve (useRoutingCurve's, or null).
 */
export function Results({ view, detail, custom, config, ppRank, update, applyFix, engineError, measured = null, onSuggestionsShown, curve = null }) {
  const { result, stale } = view;
  const snaps = measured?.snapshots ?? [];
  const marks = measured && view.ranks ? markersFor(snaps, measured.log, view.ranks.worst_rank) : [];
  const shownSnap = snaps.find((s) => view.timeline && s.ppRank === view.timeline.pp_rank) ?? largest(snaps);
  const error = engineError || view.error;
  return (
    <div class="results" data-testid="results" data-seq={view.seq} data-stale={stale ? 'true' : 'false'}
      aria-busy={view.pending ? 'true' : 'false'}>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      <FieldProblems match={(f) => !f} />
      {stale && <ProblemSummary problems={view.problems} />}
      {!result && !error && !stale && <p class="loading" role="status">Estimating…</p>}
      {result && (
        <>
          <PeakCard result={result} stale={stale} />
          <Warnings warnings={result.warnings} />
          <ModelSummary result={view.ranks ?? result} />
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} />
          {view.ranks && <RankChart result={view.ranks} selected={ppRank} measured={marks} />}
          <RoutingChart routing={result.routing} curve={stale ? null : curve} capacity={result.gpu_capacity_bytes} />
          {view.timeline && <Timeline rank={view.timeline} capacity={result.gpu_capacity_bytes} />}
          {shownSnap && <MeasuredCurve snap={shownSnap} timeline={view.timeline} />}
          <Suggestions suggestions={result.suggestions} computed={view.suggested} applyFix={applyFix}
            onShown={onSuggestionsShown} />
          <DetailTable open={detail} detail={result.detail} onToggle={(open) => update({ detail: open })} />
          <CommandLine command={result.command} config={custom ? config : ''} />
        </>
      )}
    </div>
  );
}
