// EmbedView.jsx — the compact, frameless view for an iframe (#embed=1): the
// model's name as the full page shows it, the peak, the step time, the warnings (each cut
// to its first sentence), the breakdown and the timeline, with a link to
// the full page. In a frame it posts its height to the host page
// (frame-height.js). It fits a 320 px frame.

import { PeakCard, shownRank } from './PeakCard.jsx';
import { TimeCard } from './TimeCard.jsx';
import { BreakdownChart } from './BreakdownChart.jsx';
import { Timeline } from './Timeline.jsx';
import { Warnings } from './Warnings.jsx';
import { linkTo } from './SharePanel.jsx';
import { useFrameHeight } from './frame-height.js';
import { pageWords } from './wording.js';
import { modelTitle } from './config-name.js';
import { Outside } from './Outside.jsx';

/** Props: view and pending (useEstimate), note (the cards' stale note), state, models (the engine's presets), engineError, notice. */
export function EmbedView({ view, pending, note, state, models, engineError, notice }) {
  const { answer } = view;
  const result = answer?.result;
  const invalid = view.problems.length > 0;
  // Inputs the engine refuses (a link's unknown model, a value out of
  // range) are said at once, whether or not an earlier answer is on screen:
  // an embed that never had an answer would otherwise wait for one forever.
  const problem = invalid && (note || !result) ? pageWords(view.problems[0]?.message) : null;
  const error = engineError || view.error || notice?.text || problem;
  const layout = `pp ${state.pp_size} · ep ${state.ep_size} · cp ${state.cp_size} · ${state.total_gpus} GPUs`;
  useFrameHeight(true);
  return (
    <main class="embed" data-testid="results" data-seq={view.seq} data-stale={note ? 'true' : 'false'}
      aria-busy={pending ? 'true' : 'false'}>
      <div class="embed-head">
        <h1 class="embed-title" data-testid="embed-title"><span class="visually-hidden">memest estimate: </span>{modelTitle(state, models)} <span>{layout}</span></h1>
        <a href={linkTo(state)} target="_blank" rel="noopener noreferrer" class="embed-link">Open in memest ↗</a>
      </div>
      {error && <p class="notice notice-error" role="alert"><Outside text={error} /></p>}
      {!result && !error && <p class="loading" role="status">Estimating…</p>}
      {problem && (
        <p class="help" data-testid="embed-problem-help">
          {view.problems.length > 1 ? `${view.problems.length - 1} more ${view.problems.length > 2 ? 'problems' : 'problem'}; the` : 'The'}{' '}
          <a href={linkTo(state)} target="_blank" rel="noopener noreferrer">full page</a> explains what to change
          {result ? ', and these figures are for the last valid inputs' : ''}.
        </p>
      )}
      {result && (
        <>
          <PeakCard result={result} compact />
          <TimeCard result={result} answerFor={result.command} compact />
          <Warnings warnings={result.warnings} compact answerFor={result.command} />
          <BreakdownChart rank={shownRank(result)} capacity={result.gpu_capacity_bytes} answerFor={result.command} compact />
          {answer.timeline && <Timeline rank={answer.timeline} capacity={result.gpu_capacity_bytes} height={200} compact
            answerFor={result.command} />}
        </>
      )}
    </main>
  );
}
