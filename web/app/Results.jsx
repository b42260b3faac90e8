// Results.jsx — everything the estimate shows on the full page: the peak,
// problems without a control of their own, warnings, the three charts,
// suggestions, the per-tensor detail and the equivalent command.

import { PeakCard, shownRank } from './PeakCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { RankChart } from './RankChart.jsx';
import { Timeline } from './Timeline.jsx';
import { Warnings } from './Warnings.jsx';
import { Suggestions } from './Suggestions.jsx';
import { DetailTable } from './DetailTable.jsx';
import { CommandLine } from './CommandLine.jsx';
import { FieldProblems } from './FieldProblems.jsx';

/** Props: view (useEstimate), state, update(patch), applyFix(fix), engineError. */
export function Results({ view, state, update, applyFix, engineError }) {
  const { result, stale } = view;
  const error = engineError || view.error;
  return (
    <div class="results" data-testid="results" data-seq={view.seq} data-stale={stale ? 'true' : 'false'}
      aria-busy={view.pending ? 'true' : 'false'}>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      <FieldProblems match={(f) => !f} />
      {!result && !error && <p class="loading" role="status">Estimating…</p>}
      {result && (
        <>
          <PeakCard result={result} stale={stale} />
          <Warnings warnings={result.warnings} />
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} />
          <RankChart result={result} />
          <Timeline rank={shownRank(result)} />
          <Suggestions suggestions={result.suggestions} applyFix={applyFix} />
          <DetailTable open={state.detail} detail={result.detail} onToggle={(open) => update({ detail: open })} />
          <CommandLine command={result.command} custom={state.config !== ''} />
        </>
      )}
    </div>
  );
}
