// Results.jsx — everything the answer shows on the full page: the peak,
// the step time, problems without a control of their own, warnings, the model as read,
// the charts, suggestions, the per-tensor detail, the command and the
// measured run's comparison. Every card names the answer it shows and,
// while that is not the answer for the inputs on screen, says so with the
// same note (Card.jsx).

import { PeakCard, shownRank } from './PeakCard.jsx';
import { TimeCard } from './TimeCard.jsx';
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
import { ResultsFrame } from './Card.jsx';

/**
 * The cards read whether their answer is the inputs on screen's from
 * StaleNote (Card.jsx); this renders only when the answer, the detail or
 * the measured run changes.
 * Props: view (useEstimate), configKey (JSON of the config on screen), detail (the per-tensor table is open), update(patch),
 * applyFix(fix), engineError, measured (useMeasured, or null): markers on
 * the rank chart and the measured curve under the timeline,
 * onSuggestionsShown(visible), suggestionsShown (the suggestions' card is on screen),
 * curve (useRoutingCurve's, or null).
 */
export function Results({ view, configKey, detail, update, applyFix, engineError, measured = null, onSuggestionsShown, suggestionsShown = false, curve = null }) {
  const { answer } = view;
  const result = answer?.result;
  const command = result?.command ?? '';
  const snaps = measured?.snapshots ?? [];
  const marks = measured && answer ? markersFor(snaps, measured.log, answer.ranks.worst_rank) : [];
  const shownSnap = snaps.find((s) => answer?.timeline && s.ppRank === answer.timeline.pp_rank) ?? largest(snaps);
  const error = engineError || view.error;
  const invalid = view.problems.length > 0;
  // The model as read follows a config on screen whose layout is not valid.
  const alone = invalid && view.model && view.model.key === configKey ? view.model : null;
  return (
    <ResultsFrame data-seq={view.seq}>
      {error && <p class="notice notice-error" role="alert">{error}</p>}
      <FieldProblems match={(f) => !f} />
      {invalid && <ProblemSummary problems={view.problems} />}
      {!result && !error && !invalid && <p class="loading" role="status">Estimating…</p>}
      {!result && alone && <ModelSummary model={alone.model} ranks={null} answerFor={alone.command} note="" />}
      {result && (
        <>
          <PeakCard result={result} />
          <TimeCard result={result} answerFor={command} />
          <Warnings warnings={result.warnings} answerFor={command} />
          {alone
            ? <ModelSummary model={alone.model} ranks={null} answerFor={alone.command} note="" />
            : <ModelSummary model={result.model} ranks={answer.ranks.ranks} answerFor={command} />}
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} answerFor={command} />
          <RankChart result={answer.ranks} selected={answer.state.pp_rank} measured={marks} answerFor={command} />
          <RoutingChart routing={result.routing} curve={curve?.key === answer.key ? curve : null}
            capacity={result.gpu_capacity_bytes} answerFor={command} rank={answer.state.pp_rank} />
          {answer.timeline && <Timeline rank={answer.timeline} capacity={result.gpu_capacity_bytes} answerFor={command} />}
          {shownSnap && <MeasuredCurve snap={shownSnap} timeline={answer.timeline} answerFor={command} />}
          <Suggestions suggestions={result.suggestions} nearest={result.nearest_layout} computed={answer.suggested}
            shown={suggestionsShown} applyFix={applyFix} onShown={onSuggestionsShown} answerFor={command} />
          <DetailTable open={detail} detail={result.detail} onToggle={(open) => update({ detail: open })}
            answerFor={command} />
          <CommandLine command={command} config={answer.state.config} state={answer.state}
            shownRank={answer.timeline?.pp_rank ?? result.worst_rank} />
        </>
      )}
    </ResultsFrame>
  );
}
