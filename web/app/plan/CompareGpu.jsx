// CompareGpu.jsx — B's GPU in the Compare tab: a preset, or a capacity in
// GiB; stored as a capacity (state.cmp_gpu_memory_gb), -1 when it is A's.

import { useState } from 'preact/hooks';
import { NumberField } from './NumberField.jsx';
import { capacityGib } from './requests.js';
import { gib } from '../format.js';

/** Props: a (the calculator's state), b (compareState), update(patch), gpus (engine presets). */
export function CompareGpu({ a, b, update, gpus }) {
  const capA = capacityGib(a, gpus);
  const capB = capacityGib(b, gpus);
  const match = b.gpu || gpus.find((g) => g.bytes / 2 ** 30 === capB)?.name || '';
  const [custom, setCustom] = useState(match === '');
  const selected = custom ? '' : match;
  const onSelect = (e) => {
    const name = e.currentTarget.value;
    setCustom(name === '');
    if (name === '') return;
    const cap = gpus.find((g) => g.name === name).bytes / 2 ** 30;
    update({ cmp_gpu_memory_gb: name === a.gpu || cap === capA ? -1 : cap });
  };
  return (
    <div class={`field${capA !== capB ? ' changed' : ''}`} data-field="cmp_gpu">
      <label for="cmp-gpu">GPU</label>
      <select id="cmp-gpu" value={selected} onChange={onSelect}>
        {gpus.map((g) => <option key={g.name} value={g.name}>{g.title} ({gib(g.bytes)})</option>)}
        <option value="">Custom capacity…</option>
      </select>
      {custom && (
        <NumberField label="GPU memory (GiB)" name="cmp_gpu_memory_gb" value={capB} integer={false} min={0.001}
          onChange={(v) => update({ cmp_gpu_memory_gb: v === capA ? -1 : v })} />
      )}
      {capA !== capB && <p class="help">A: {gib(capA * 2 ** 30)}</p>}
    </div>
  );
}
