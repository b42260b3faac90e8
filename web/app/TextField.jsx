// TextField.jsx — one labelled text input of the core's (kind text, other
// than the model): what the box holds is the input, as typed, and the
// engine explains a text it refuses beneath it, by the field's name.

import { useId } from 'preact/hooks';
import { FieldProblems } from './FieldProblems.jsx';
import { FieldSource } from './TrainerSource.jsx';
import { memo } from './memo.js';

/**
 * Props: label, value, onChange(text), field (problems shown below), help
 * (a sentence), placeholder.
 * @param {{label: string, value: string, onChange: (v: string) => void, field: string, help?: string, placeholder?: string}} props
 */
function TextFieldView({ label, value, onChange, field, help, placeholder }) {
  const id = useId();
  const problemsId = `${id}-problems`;
  return (
    <div class="field text-field" data-field={field}>
      <label for={id}>{label}</label>
      <input type="text" id={id} value={value} placeholder={placeholder} spellcheck={false} autocomplete="off"
        style={{ width: '100%', boxSizing: 'border-box' }}
        aria-describedby={help ? `${id}-help ${problemsId}` : problemsId}
        onInput={(e) => onChange(e.currentTarget.value)} />
      {help && <p class="help" id={`${id}-help`}>{help}</p>}
      <FieldProblems fields={[field]} id={problemsId} />
      <FieldSource fields={[field]} />
    </div>
  );
}

/** A field whose props did not change skips its render (onChange must be stable: setters.js). */
export const TextField = memo(TextFieldView);
