// BatchPanel.jsx — micro batch, global batch and sequence length; the
// sliders step in powers of two, the boxes take any value.

import { SliderField } from './SliderField.jsx';

/** Props: state, update(patch). */
export function BatchPanel({ state, update }) {
  return (
    <fieldset class="panel">
      <legend>Batch</legend>
      <SliderField label="Micro batch size" field="micro_batch_size" value={state.micro_batch_size} min={1} max={64}
        scale="log2" onChange={(v) => update({ micro_batch_size: v })} />
      <SliderField label="Global batch size" field="global_batch_size" value={state.global_batch_size} min={1}
        max={65536} scale="log2" onChange={(v) => update({ global_batch_size: v })} />
      <SliderField label="Sequence length" field="sequence_length" value={state.sequence_length} min={128}
        max={1048576} scale="log2" onChange={(v) => update({ sequence_length: v })} />
    </fieldset>
  );
}
