// ModelPanel.jsx — which model: a preset from the engine, a hub id
// (HubField.jsx: a preset's id, or a config.json fetched on a click), or a
// config.json pasted into the editor, opened, or dropped on the page
// (page-drop.js hands dropped configs to readConfigFile). A config takes
// its own name (config-name.js).

import { useEffect, useId, useState } from 'preact/hooks';
import { FieldProblems, CONTROL_FIELDS } from './FieldProblems.jsx';
import { DEFAULTS, LABEL_RE, MAX_CONFIG_CHARS, labelFor } from './state.js';
import { configPatch, nameFor, readConfigFile } from './config-name.js';
import { memo } from './memo.js';
import { HubField } from './HubField.jsx';
import { FieldSource } from './TrainerSource.jsx';
import { Outside } from './Outside.jsx';

const CUSTOM = '\u0000custom';

/**
 * readConfigFile() of an opened or dropped file, but a config over the
 * page's size limit that the page can read is put on screen as a pasted one
 * is, to be refused by name with the cards stale: {patch} or {problem}.
 * @param {File} file  @param {any} current  the state now
 */
export async function readConfigInput(file, current) {
  const r = await readConfigFile(file, current);
  if (!r.problem || file.size > MAX_CONFIG_CHARS * 4) return r;
  const text = await file.text();
  if (text.length <= MAX_CONFIG_CHARS) return r;
  return { patch: { config: text, model: labelFor(text, file.name) } };
}

/** Problems for this panel: the model, the config, and any config key. */
const isModelField = (f) => f === 'model' || f === 'config' || (f !== '' && !CONTROL_FIELDS.has(f) && f !== 'dp' && f !== 'num_chunks' && f !== 'layout');

/**
 * Props: model (the state's name), config (its pasted config, '' for a
 * preset), current() (the whole state now, for the link's check),
 * update(patch), models (engine presets), loadPreset(name) →
 * Promise<string|null> (a preset's config text), problem (a dropped
 * file's, from the page), client (the engine, for the hub field), hubId (a
 * hub id the trainer's files named, for the hub field), onFiles(files)
 * (the trainer's files opened, taken as a drop's). It renders again only
 * when one of them changes (memo): a slider's move leaves it alone.
 */
function ModelPanelView({ model, config, current, update, models, loadPreset, problem = null, client = null, hubId = '', onFiles = null }) {
  const id = useId();
  const [presetText, setPresetText] = useState('');
  const [draft, setDraft] = useState(null); // editor text not (yet) applied
  const [local, setLocal] = useState(null); // why the draft was not applied
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

  /** Applies config text named `label`; keeps the draft and says why when it cannot. */
  const applyConfig = (text, label) => {
    setDraft(text);
    // Over the page's size limit, the text is still the input on screen:
    // the estimator refuses it by name, and the cards go stale.
    if (text.length > MAX_CONFIG_CHARS) {
      setLocal(null);
      update({ config: text, model: LABEL_RE.test(label) ? label : current().model });
      return;
    }
    const r = configPatch(text, label, current());
    setLocal(r.problem ?? null);
    if (r.patch) update(r.patch);
  };

  /** Puts a fetched config on screen: why it cannot be, or null. */
  const takeConfig = (text, label) => {
    const r = configPatch(text, label, current());
    if (r.patch) update(r.patch);
    return r.problem ?? null;
  };

  const readFile = async (file) => {
    if (!file) return;
    const r = await readConfigInput(file, current());
    setLocal(r.problem ?? null);
    if (r.patch) update(r.patch);
  };

  const onSelect = (e) => {
    const v = e.currentTarget.value;
    if (v !== CUSTOM) update({ model: v, config: '' });
  };
  const onEdit = (e) => {
    const text = e.currentTarget.value;
    const pasted = e.inputType === 'insertFromPaste' || e.inputType === 'insertFromDrop';
    applyConfig(text, nameFor({ text, before: custom ? config : presetText, model, preset: !custom, models, pasted }));
  };
  const onLabel = (e) => {
    const v = e.currentTarget.value;
    if (LABEL_RE.test(v)) update({ model: v });
    else setLocal('A name is letters, digits, spaces and . _ + - ( ) (at most 100, starting with a letter or digit).');
  };

  const known = models.some((m) => m.name === model);
  const options = models.map((m) => [m.name, m.title]);
  if (!custom && !known) options.push([model, `${model} (unknown preset)`]);
  if (custom) options.push([CUSTOM, `Pasted config: ${model}`]);
  const text = draft ?? (custom ? config : presetText);
  const shown = local ?? problem;

  return (
    <fieldset class="panel model-panel">
      <legend>Model</legend>
      <div class="field" data-field="model">
        <label for={`${id}-preset`}>Model</label>
        <select id={`${id}-preset`} value={custom ? CUSTOM : model} onChange={onSelect}>
          {options.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
        </select>
        <FieldSource fields={['model']} />
      </div>
      <HubField models={models} client={client} update={update} takeConfig={takeConfig} suggested={hubId} />
      {custom && (
        <div class="field">
          <label for={`${id}-label`}>Name of the pasted model</label>
          <input id={`${id}-label`} type="text" value={model} onChange={onLabel} spellcheck={false} data-testid="model-name" />
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
        <p class="help">Or drop a config.json anywhere on the page but the Measured run panel. It stays in this browser (and in links you copy).</p>
      </details>
      <div class="row trainer-open">
        <label class="button file-button">
          Open the trainer’s files…
          <input type="file" multiple class="visually-hidden" data-testid="trainer-open"
            onChange={(e) => {
              const files = e.currentTarget.files;
              if (files?.length && onFiles) onFiles([...files]);
              e.currentTarget.value = '';
            }} />
        </label>
      </div>
      <p class="help">A launch script with its setup.py, a log, or a W&amp;B run’s files (or its folder, dropped anywhere but the Measured run panel) fill the inputs they hold, and say where each came from.</p>
      {shown && <p class="local-problem" role="alert" data-testid="model-problem"><Outside text={shown} /></p>}
      <FieldProblems match={isModelField} />
    </fieldset>
  );
}

export const ModelPanel = memo(ModelPanelView);
