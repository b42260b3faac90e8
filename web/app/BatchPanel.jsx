// BatchPanel.jsx — micro batch, global batch and sequence length; the
// sliders step in powers of two, the boxes take any value.

import { SliderField } from './SliderField.jsx';
import { inputRange } from './input-ranges.js';
import { useSetters } from './setters.js';
import { inputLabel } from './names.js';

/** Props: state, update(patch), info (parameter help by name). */
export function BatchPanel({ state, update, info }) {
  const set = useSetters(update);
  return (
    <fieldset class="panel">
      <legend>Batch</legend>
      <SliderField label={inputLabel('micro_batch_size')} field="micro_batch_size" value={state.micro_batch_size} {...inputRange('micro_batch_size')}
        onChange={set('micro_batch_size')} />
      <SliderField label={inputLabel('global_batch_size')} field="global_batch_size" help={info.global_batch_size?.choose} value={state.global_batch_size}
        {...inputRange('global_batch_size')} onChange={set('global_batch_size')} />
      <SliderField label={inputLabel('sequence_length')} field="sequence_length" help={info.sequence_length?.choose} value={state.sequence_length}
        {...inputRange('sequence_length')} onChange={set('sequence_length')} />
    </fieldset>
  );
}
