// ComparePanel.jsx — the Compare tab: the calculator's configuration (A)
// beside a second one (B) edited here, and what changes between them.

import { CompareForm } from './CompareForm.jsx';
import { CompareTable } from './CompareTable.jsx';
import { gpuText, numberWords, optionWords } from './FixedInputs.jsx';
import { LAYOUT_INPUTS } from '../state.js';
import { pageWords } from '../wording.js';
import { modelTitle } from '../config-name.js';
import { Warnings } from '../Warnings.jsx';
import { sideWords, useCompareWarnings } from './compare-warnings.js';

/** A's inputs in one line, the enum values titled as the controls title them. */
function summary(s, gpus) {
  return `${s.model}: ${[...numberWords(s, LAYOUT_INPUTS), gpuText(s, gpus), ...optionWords(s)].join(', ')}`;
}

/**
 * Props: a (the calculator's state), b (compareState), update(patch), gpus,
 * models (the engine's presets), compare (useCompare), requestKey ('' when
 * B equals A), onLoadB(), client (the engine, for B's warnings).
 */
export function ComparePanel({ a, b, update, gpus, models, compare, requestKey, onLoadB, client = null }) {
  const current = requestKey !== '' && compare.key === requestKey;
  const shown = requestKey !== '' ? compare.result : null;
  // B's warnings, which the compare rows do not carry (A's are the calculator's).
  const bWarnings = useCompareWarnings(client, b, requestKey !== '');
  return (
    <div class="compare-body">
      <CompareForm a={a} b={b} update={update} gpus={gpus} models={models} />
      <section class="compare-results" aria-labelledby="compare-title" data-testid="compare-results"
        aria-busy={compare.pending ? 'true' : 'false'} data-current={current ? 'true' : 'false'}>
        <h2 id="compare-title">A and B</h2>
        <p class="fixed-inputs">
          <span class="fixed-title">A, from the calculator:</span> {summary(a, gpus)}{' '}
          <button type="button" class="link" onClick={() => update({ view: 'calculator' })}>Change A in the calculator</button>
        </p>
        {requestKey === '' && gpus.length > 0 && <p class="help" role="status">B is the same as A: change an input of B to compare.</p>}
        {compare.error && current && <p class="problem" role="alert" data-testid="compare-error">{pageWords(sideWords(compare.error.message))}</p>}
        {requestKey !== '' && (
          <Warnings warnings={bWarnings.warnings} title="B’s warnings" idBase="compare-b-warnings" answerFor="" />
        )}
        {shown && (
          <div class={current ? undefined : 'stale'}>
            <CompareTable result={shown} gpuA={gpuText(a, gpus)} gpuB={gpuText(b, gpus)} modelA={modelTitle(a, models)}
              modelB={modelTitle(b, models)} />
            <button type="button" onClick={onLoadB} data-testid="compare-load-b">Load B into the calculator</button>
          </div>
        )}
      </section>
    </div>
  );
}
