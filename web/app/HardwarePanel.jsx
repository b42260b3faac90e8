// HardwarePanel.jsx — the GPU (a preset from the engine, or a custom
// capacity in GiB) and the allocator's fragmentation overhead.

import { useCallback, useId, useMemo, useState, useEffect } from 'preact/hooks';
import { SelectField } from './SelectField.jsx';
import { SliderField } from './SliderField.jsx';
import { inputRange } from './input-ranges.js';
import { FieldProblems } from './FieldProblems.jsx';
import { gib } from './format.js';
import { useSetters } from './setters.js';
import { inputLabel } from './names.js';

const CUSTOM = '';

function CustomCapacity({ value, onChange }) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  const [bad, setBad] = useState(false);
  useEffect(() => setDraft(String(value)), [value]);
  const onInput = (e) => {
    const text = e.currentTarget.value;
    setDraft(text);
    const n = Number(text);
    setBad(text.trim() === '' || !Number.isFinite(n));
    if (text.trim() !== '' && Number.isFinite(n) && n !== value) onChange(n);
  };
  return (
    <div class="field" data-field="gpu_memory_gb">
      <label for={id}>{inputLabel('gpu_memory_gb')}</label>
      <input id={id} type="number" step="any" inputMode="decimal" value={draft} onInput={onInput}
        aria-invalid={bad ? 'true' : undefined} />
      {bad && <p class="local-problem" role="alert">Enter a number of GiB.</p>}
      <FieldProblems fields={['gpu_memory_gb']} />
    </div>
  );
}

/** Props: state, update(patch), gpus (engine presets), info (parameter help). */
export function HardwarePanel({ state, update, gpus, info }) {
  const set = useSetters(update);
  const options = useMemo(() => {
    const list = gpus.map((g) => [g.name, `${g.title} (${gib(g.bytes)})`]);
    if (state.gpu && !gpus.some((g) => g.name === state.gpu)) list.push([state.gpu, `${state.gpu} (unknown)`]);
    list.push([CUSTOM, 'Custom capacity…']);
    return list;
  }, [gpus, state.gpu]);
  const onGpu = useCallback((name) => {
    if (name !== CUSTOM) {
      update({ gpu: name });
      return;
    }
    const cur = gpus.find((g) => g.name === state.gpu);
    const capacity = cur ? Math.round((cur.bytes / 2 ** 30) * 100) / 100 : state.gpu_memory_gb;
    update({ gpu: CUSTOM, gpu_memory_gb: capacity });
  }, [update, gpus, state.gpu, state.gpu_memory_gb]);
  return (
    <fieldset class="panel">
      <legend>Hardware</legend>
      <SelectField label={inputLabel('gpu')} field="gpu" value={state.gpu} options={options} onChange={onGpu}
        help={info.gpu?.choose} />
      {state.gpu === CUSTOM && <CustomCapacity value={state.gpu_memory_gb} onChange={set('gpu_memory_gb')} />}
      <SliderField label={inputLabel('fragmentation')} field="fragmentation" help={info.fragmentation?.meaning} value={state.fragmentation}
        {...inputRange('fragmentation')} onChange={set('fragmentation')} />
    </fieldset>
  );
}
