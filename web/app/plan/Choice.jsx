// Choice.jsx — a group of radio buttons for one enumerated input.

import { useId } from 'preact/hooks';

/** Props: legend, value, options ([value, text] pairs), onChange(value), name (data-field). */
export function Choice({ legend, value, options, onChange, name }) {
  const id = useId();
  return (
    <fieldset class="choice-group" data-field={name}>
      <legend>{legend}</legend>
      {options.map(([v, text]) => (
        <label key={v} class="radio">
          <input type="radio" name={id} value={v} checked={v === value} onChange={() => onChange(v)} />
          {text}
        </label>
      ))}
    </fieldset>
  );
}
