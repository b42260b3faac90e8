// Results.jsx — everything the estimate shows on the full page: the peak,
// problems without a control of their own, warnings, the three charts,
// suggestions, the per-tensor detail and the equivalent command.

import { PeakCard, shownRank } from './PeakCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { RankChart } from './RankChart.jsx';
import { RoutingChart } from './RoutingChart.jsx';
import { Timeline } from './Timeline.jsx';
import { Warnings } from './Warnings.jsx';
import { Suggestions } from './Suggestions.jsx';
import { DetailTable } from './DetailTable.jsx';
import { CommandLine } from './CommandLine.jsx';
import { FieldProblems } from './FieldProblems.jsx';
import { ProblemSummary } from './ProblemSummary.jsx';

/**
 * Props: view (useEstimate), detail (the per-tensor table is open), custom
 * (a pasted config is in use), ppRank (the rank asked for, or -1),
 * update(patch), applyFix(fix), engineError, curve (useRoutingCurve's, or null).
 */
export function Results({ view, detail, custom, ppRank, update, applyFix, engineError, curve = null }) {
  const { result, stale } = view;
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
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} />
          {view.ranks && <RankChart result={view.ranks} selected={ppRank} />}
          <RoutingChart routing={result.routing} curve={stale ? null : curve} capacity={result.gpu_capacity_bytes} />
          {view.timeline && <Timeline rank={view.timeline} />}
          <Suggestions suggestions={result.suggestions} applyFix={applyFix} />
          <DetailTable open={detail} detail={result.detail} onToggle={(open) => update({ detail: open })} />
          <CommandLine command={result.command} custom={custom} />
        </>
      )}
    </div>
  );
}
