// NumberField.jsx — one labelled whole-number box of the Plan and Compare
// tabs. An empty box means `blank` (a pin left open, "the same as A"); a
// value that is not a whole number is refused beside the box, not rounded.

import { useEffect, useId, useState } from 'preact/hooks';

/**
 * Props: label, value, onChange(number), blank (the value an empty box
 * stands for; none: the box must be filled), placeholder, name
 * (data-field), help, integer (default true), min (default 1).
 * @param {{label: string, value: any, onChange: (v: number) => void, blank?: number, placeholder?: string,
 *   name: string, help?: string, integer?: boolean, min?: number}} props
 */
export function NumberField({ label, value, onChange, blank, placeholder, name, help, integer = true, min = 1 }) {
  const id = useId();
  const shown = blank !== undefined && value === blank ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  const [bad, setBad] = useState(null);
  useEffect(() => {
    setDraft(shown);
    setBad(null);
  }, [shown]);
  const onInput = (e) => {
    const text = e.currentTarget.value;
    setDraft(text);
    if (text.trim() === '' && blank !== undefined) {
      setBad(null);
      if (value !== blank) onChange(blank);
      return;
    }
    const n = Number(text);
    const whole = integer ? Number.isInteger(n) : Number.isFinite(n);
    if (text.trim() === '' || !whole || n < min) {
      setBad(integer ? `Enter a whole number of at least ${min}.` : `Enter a number of at least ${min}.`);
      return;
    }
    setBad(null);
    if (n !== value) onChange(n);
  };
  return (
    <div class="field number-field" data-field={name}>
      <label for={id}>{label}</label>
      <input id={id} type="number" min={min} step={integer ? 1 : 'any'} inputMode={integer ? 'numeric' : 'decimal'}
        value={draft} placeholder={placeholder} onInput={onInput} aria-invalid={bad ? 'true' : undefined}
        aria-describedby={help ? `${id}-help` : undefined} />
      {help && <p class="help" id={`${id}-help`}>{help}</p>}
      {bad && <p class="local-problem" role="alert">{bad}</p>}
    </div>
  );
}
