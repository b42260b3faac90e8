// HubField.jsx — a model by its hub id (org/name, or its model page's
// address, read by the core as the CLI reads --model): a preset answers to
// its id as it is typed; any other id's config.json is fetched from the page's hub
// only when the user clicks (hub.js), never with a token, and becomes the
// model as a dropped config would. Where the host does not allow the page
// to connect to the hub, the field says so and still takes the presets'
// ids.

import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { hubConfig, hubSetting, presetOfId, readHubId } from './hub.js';
import { labelFor } from './state.js';
import { inputFile } from './names.js';
import { Outside } from './Outside.jsx';

/** The page's hub, read once from its own index.html. */
let setting = null;
const hub = () => (setting ??= hubSetting());

/**
 * Props: models (the engine's presets, with their ids), client (the
 * engine), update(patch), takeConfig(text, label) (puts a config on screen;
 * returns why it cannot, or null), suggested (an id the trainer's files
 * named, put in the field for the user to fetch).
 */
export function HubField({ models, client, update, takeConfig, suggested = '' }) {
  const id = useId();
  const [value, setValue] = useState(suggested);
  const [busy, setBusy] = useState(false);
  // The text the latest answer is for: an answer for older text is dropped.
  const typed = useRef(suggested);
  const [said, setSaid] = useState(/** @type {{kind: 'status' | 'problem', text: string} | null} */ (null));
  useEffect(() => {
    if (suggested) {
      typed.current = suggested;
      setValue(suggested);
      setSaid(null);
    }
  }, [suggested]);
  const h = hub();

  /** A preset's id (or its page's address) as it is typed: the preset at once. */
  const onType = async (text) => {
    typed.current = text;
    setValue(text);
    setSaid(null);
    if (!client || !text.trim()) return;
    const r = await readHubId(text, (x) => client.hubIdRead(x));
    const preset = r.id ? presetOfId(r.id, models) : null;
    if (!preset || typed.current !== text) return;
    update({ model: preset.name, config: '' });
    setSaid({ kind: 'status', text: `${r.id} is the preset ${preset.title}: the shipped config, with no fetch.` });
  };

  const fetchIt = async () => {
    if (busy || !client) return;
    setBusy(true);
    setSaid(null);
    const asked = value;
    // What the answer says shows only while the text is still the one asked.
    const say = (x) => {
      if (typed.current === asked) setSaid(x);
    };
    try {
      const r = await hubConfig(value, {
        hub: h, presets: models, idRead: (x) => client.hubIdRead(x), configProblem: (t) => client.configProblem(t),
        limit: inputFile('config') ?? { max_bytes: 1 << 20, limit_name: 'MEMEST_MAX_CONFIG_BYTES', typical: 'a model config.json is a few kilobytes' },
      });
      if (r.problem) {
        say({ kind: 'problem', text: r.problem });
      } else if (r.preset) {
        update({ model: r.preset, config: '' });
        say({ kind: 'status', text: `${r.id} is the preset ${r.title}: the shipped config, with no fetch.` });
      } else {
        const name = r.id.split('/').pop();
        const problem = takeConfig(r.text, labelFor(r.text, `${name}.json`));
        if (problem) say({ kind: 'problem', text: problem });
        else {
          say({ kind: 'status', text: `Fetched ${r.url}${r.revision ? ` (revision ${r.revision.slice(0, 12)})` : ''}.` });
        }
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="field hub-field" data-testid="hub-field" data-allowed={h.allowed ? 'true' : 'false'}>
      <label for={`${id}-hub`}>Hub id</label>
      <div class="row">
        <input id={`${id}-hub`} type="text" value={value} placeholder="org/name" spellcheck={false} autocomplete="off"
          aria-describedby={`${id}-hub-help`} data-testid="hub-id"
          onInput={(e) => onType(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              fetchIt();
            }
          }} />
        <button type="button" onClick={fetchIt} disabled={busy} data-testid="hub-fetch">
          {busy ? 'Fetching…' : h.allowed ? 'Fetch config.json' : 'Use'}
        </button>
      </div>
      <p class="help" id={`${id}-hub-help`} data-testid="hub-help">
        {h.allowed
          ? `Fetched from ${h.origin} when you click, without a token; a preset’s id needs no fetch.`
          : `Fetching from the hub is not allowed here: ${h.why}. A preset’s id still works; for another model, drop its config.json.`}
      </p>
      {said?.kind === 'status' && <p class="help" role="status" data-testid="hub-status">{said.text}</p>}
      {said?.kind === 'problem' && <p class="local-problem" role="alert" data-testid="hub-problem"><Outside text={said.text} /></p>}
    </div>
  );
}
