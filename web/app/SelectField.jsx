// SelectField.jsx — one labelled <select> with the engine's description of
// the parameter and the problems that name it.

import { useId } from 'preact/hooks';
import { FieldProblems } from './FieldProblems.jsx';
import { FieldSource } from './TrainerSource.jsx';
import { memo } from './memo.js';

/**
 * Props: label, value, options ([value, text] pairs), onChange(value),
 * field (problems shown below), help (a sentence, optional).
 * @param {{label: string, value: string, options: string[][], onChange: (v: string) => void,
 *   field?: string, help?: string}} props
 */
function SelectFieldView({ label, value, options, onChange, field, help }) {
  const id = useId();
  return (
    <div class="field" data-field={field}>
      <label for={id}>{label}</label>
      <select id={id} value={value} aria-describedby={help ? `${id}-help` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
      {help && <p class="help" id={`${id}-help`}>{help}</p>}
      {field && <FieldProblems fields={[field]} />}
      {field && <FieldSource fields={[].concat(field)} />}
    </div>
  );
}

/** A field whose props did not change skips its render (onChange and options must keep their identity). */
export const SelectField = memo(SelectFieldView);
