// ModelPanel.jsx — which model: a preset from the engine, or a config.json
// pasted into the editor, opened, or dropped anywhere on the page.

import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { FieldProblems, CONTROL_FIELDS } from './FieldProblems.jsx';
import { DEFAULTS, LABEL_RE, MAX_CONFIG_CHARS, labelFor } from './state.js';
import { linkProblem } from './url.js';
import { memo } from './memo.js';

const CUSTOM = '\u0000custom';

/** Problems for this panel: the model, the config, and any config key. */
const isModelField = (f) => f === 'model' || f === 'config' || (f !== '' && !CONTROL_FIELDS.has(f) && f !== 'dp' && f !== 'num_chunks' && f !== 'layout');

/**
 * Props: model (the state's name), config (its pasted config, '' for a
 * preset), current() (the whole state now, for the link's check),
 * update(patch), models (engine presets), loadPreset(name) →
 * Promise<string|null> (a preset's config text). It renders again only when
 * one of them changes (memo): a slider's move leaves it alone.
 */
function ModelPanelView({ model, config, current, update, models, loadPreset }) {
  const id = useId();
  const [presetText, setPresetText] = useState('');
  const [draft, setDraft] = useState(null); // editor text not (yet) applied
  const [local, setLocal] = useState(null); // why the draft was not applied
  const [dragging, setDragging] = useState(false);
  const custom = config !== '';

  useEffect(() => {
    let live = true;
    if (!custom) loadPreset(model).then((t) => live && setPresetText(t ?? ''));
    return () => {
      live = false;
    };
  }, [model, custom]);
  useEffect(() => {
    setDraft(null);
    setLocal(null);
  }, [config, model]);

  /** Applies config text; `label` names it. Refuses what cannot be shared. */
  const applyConfig = (text, label) => {
    setDraft(text);
    if (text.length > MAX_CONFIG_CHARS) {
      setLocal(`This config has ${text.length} characters; the page takes at most ${MAX_CONFIG_CHARS}.`);
      return;
    }
    const next = { ...current(), config: text, model: label };
    const why = text ? linkProblem(next) : null;
    if (why) {
      setLocal(why);
      return;
    }
    setLocal(null);
    update(text ? { config: text, model: label } : { config: '', model: DEFAULTS.model });
  };

  const readFile = async (file) => {
    if (!file) return;
    if (file.size > MAX_CONFIG_CHARS * 4) {
      setLocal(`${file.name} is ${file.size} bytes; a config.json is a few kilobytes.`);
      return;
    }
    const text = await file.text();
    applyConfig(text, labelFor(text, file.name));
  };

  // Drops anywhere on the page; the listeners are added once and call the
  // latest readFile through a ref.
  const onFile = useRef(readFile);
  onFile.current = readFile;
  useEffect(() => {
    const over = (e) => {
      if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e) => {
      if (!e.dataTransfer?.files?.length) return;
      e.preventDefault();
      setDragging(false);
      onFile.current(e.dataTransfer.files[0]);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  const onSelect = (e) => {
    const v = e.currentTarget.value;
    if (v !== CUSTOM) update({ model: v, config: '' });
  };
  const onEdit = (e) => {
    const text = e.currentTarget.value;
    const label = custom ? model : labelFor(text, null) === 'custom' ? `${model}-edited` : labelFor(text, null);
    applyConfig(text, label);
  };
  const onLabel = (e) => {
    const v = e.currentTarget.value;
    if (LABEL_RE.test(v)) update({ model: v });
    else setLocal('A name is letters, digits and . _ + - (at most 100, starting with a letter or digit).');
  };

  const known = models.some((m) => m.name === model);
  const options = models.map((m) => [m.name, m.title]);
  if (!custom && !known) options.push([model, `${model} (unknown preset)`]);
  if (custom) options.push([CUSTOM, `Pasted config: ${model}`]);
  const text = draft ?? (custom ? config : presetText);

  return (
    <fieldset class="panel model-panel">
      <legend>Model</legend>
      <div class="field" data-field="model">
        <label for={`${id}-preset`}>Model</label>
        <select id={`${id}-preset`} value={custom ? CUSTOM : model} onChange={onSelect}>
          {options.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
        </select>
      </div>
      {custom && (
        <div class="field">
          <label for={`${id}-label`}>Name of the pasted model</label>
          <input id={`${id}-label`} type="text" value={model} onChange={onLabel} spellcheck={false} />
        </div>
      )}
      <details class="config-editor" open={custom}>
        <summary>config.json — paste, open or drop a file, or edit</summary>
        <label for={`${id}-config`} class="visually-hidden">config.json text</label>
        <textarea id={`${id}-config`} rows={12} spellcheck={false} value={text} onInput={onEdit}
          data-field="config" />
        <div class="row">
          <label class="button file-button">
            Open a file…
            <input type="file" accept=".json,application/json" class="visually-hidden"
              onChange={(e) => readFile(e.currentTarget.files?.[0])} />
          </label>
          {custom && (
            <button type="button" onClick={() => update({ config: '', model: DEFAULTS.model })}>
              Back to the presets
            </button>
          )}
        </div>
        <p class="help">Or drop a config.json anywhere on the page. It stays in this browser (and in links you copy).</p>
      </details>
      {local && <p class="local-problem" role="alert">{local}</p>}
      <FieldProblems match={isModelField} />
      {dragging && <div class="drop-overlay" aria-hidden="true">Drop a config.json to estimate it</div>}
    </fieldset>
  );
}

export const ModelPanel = memo(ModelPanelView);
