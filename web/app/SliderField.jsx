// SliderField.jsx — one numeric input as a slider plus a number box. The
// slider moves over a range (powers of two for the "log2" scale); the box
// takes any value, which is never clamped: the engine explains bad ones.
// An input without a slider in the core's table is the box alone.
// A box that holds no number of the field's kind ("2.5" for a whole one,
// or nothing) is an input too: its text goes into the state as it is, so
// that the engine refuses it by the field's name, the cards go stale and
// the link carries what the box holds.

import { memo } from './memo.js';
import { useContext, useId, useRef, useState } from 'preact/hooks';
import { FieldProblems, ProblemsContext } from './FieldProblems.jsx';
import { FieldSource } from './TrainerSource.jsx';

function toSlider(value, scale) {
  if (scale === 'log2') return value > 0 ? Math.round(Math.log2(value)) : 0;
  return value;
}

function fromSlider(pos, scale) {
  return scale === 'log2' ? 2 ** pos : pos;
}

/**
 * Props: label, value (a number, or the text of a box that holds none),
 * onChange(number | text), min and max (slider range, in
 * values; none: no slider), scale ("linear" | "log2"), step (box and linear slider),
 * integer (default true), field (problems shown below), help (how to
 * choose it, from the engine), name (data-field; default field).
 * @param {{label: string, value: number | string, onChange: (v: number | string) => void, min?: number, max?: number,
 *   scale?: string, step?: number, integer?: boolean, field?: string, help?: string, name?: string}} props
 */
function SliderFieldView({ label, value, onChange, min, max, scale = 'linear', step = 1, integer = true, field, help, name }) {
  const id = useId();
  // What the box shows: the text typed, until the value changes to
  // something other than the number typed (the slider, a fix, a link);
  // then the value itself, in that same render.
  const typed = useRef(/** @type {{text: string, number: number | string, bad: string | null} | null} */ (null));
  const seen = useRef(value);
  const [, retype] = useState(0);
  if (seen.current !== value) {
    seen.current = value;
    if (typed.current && typed.current.number !== value) typed.current = null;
  }
  const draft = typed.current ? typed.current.text : String(value);
  const kind = integer ? 'Enter a whole number.' : 'Enter a number.';
  const bad = typed.current ? typed.current.bad : typeof value === 'string' ? kind : null;
  const lo = toSlider(min, scale);
  const hi = toSlider(max, scale);
  const onBox = (e) => {
    const text = e.currentTarget.value;
    const n = Number(text);
    const whole = text.trim() !== '' && Number.isFinite(n) && (!integer || Number.isInteger(n));
    const next = whole ? n : text;
    typed.current = { text, number: next, bad: whole ? null : kind };
    retype((k) => k + 1);
    if (next !== value) onChange(next);
  };
  const onSlide = (e) => onChange(fromSlider(Number(e.currentTarget.value), scale));
  const problemsId = `${id}-problems`;
  // Once the engine explains the field's value beneath it, the box's own
  // word would say the same thing twice.
  const { problems } = useContext(ProblemsContext);
  const explained = field !== undefined && [].concat(field).some((f) => problems.some((p) => p.field === f));
  return (
    <div class="field slider-field" data-field={name ?? field}>
      <label for={`${id}-box`} id={`${id}-label`}>{label}</label>
      <div class="slider-row">
        {min !== undefined && max !== undefined && <input
          type="range"
          id={`${id}-range`}
          aria-labelledby={`${id}-label`}
          aria-valuetext={String(value)}
          min={lo}
          max={hi}
          step={scale === 'log2' ? 1 : step}
          value={typeof value === 'number' ? Math.min(hi, Math.max(lo, toSlider(value, scale))) : lo}
          onInput={onSlide}
        />}
        <input
          type="number"
          id={`${id}-box`}
          inputMode={integer ? 'numeric' : 'decimal'}
          step={step}
          value={draft}
          aria-invalid={bad ? 'true' : undefined}
          aria-describedby={help ? `${id}-help ${problemsId}` : problemsId}
          onInput={onBox}
        />
      </div>
      {help && <p class="help" id={`${id}-help`}>{help}</p>}
      {bad && !explained && <p class="local-problem" role="alert">{bad}</p>}
      {field && <FieldProblems fields={[].concat(field)} id={problemsId} />}
      {field && <FieldSource fields={[].concat(field)} />}
    </div>
  );
}

/** A field whose props did not change skips its render (onChange must be stable: setters.js). */
export const SliderField = memo(SliderFieldView);
