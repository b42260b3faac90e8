// App.jsx — the page: it holds the one input state, mirrors it into the
// URL fragment, hands it to the engine, and lays out the controls and the
// results (or the compact embed view).

import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useEngine, useEstimate } from './estimator.js';
import { applyFix as applyFixTo } from './state.js';
import { decodeFragment, encodeState } from './url.js';
import { ProblemsContext } from './FieldProblems.jsx';
import { Header } from './Header.jsx';
import { Notice } from './Notice.jsx';
import { ModelPanel } from './ModelPanel.jsx';
import { ParallelPanel } from './ParallelPanel.jsx';
import { BatchPanel } from './BatchPanel.jsx';
import { HardwarePanel } from './HardwarePanel.jsx';
import { TrainingPanel } from './TrainingPanel.jsx';
import { Results } from './Results.jsx';
import { SharePanel } from './SharePanel.jsx';
import { EmbedView } from './EmbedView.jsx';

const TABS = [{ id: 'calculator', title: 'Calculator' }];

/** The message for a decoded link: its error, or the fields it ignored. */
export function noticeFor(decoded) {
  if (decoded.error) return { kind: 'error', text: decoded.error };
  if (decoded.notes.length) {
    return { kind: 'info', text: 'Some settings in this link were not understood and were left at their defaults:', details: decoded.notes };
  }
  return null;
}

/** Props: initial (decodeFragment of the address the page opened with). */
export function App({ initial }) {
  const [state, setState] = useState(initial.state);
  const [embed, setEmbed] = useState(initial.embed);
  const [notice, setNotice] = useState(() => noticeFor(initial));
  const [tab, setTab] = useState('calculator');
  const written = useRef(null);
  const engine = useEngine();
  const view = useEstimate(engine.client, state);

  // The fragment mirrors the state; replaceState keeps Back for leaving.
  useEffect(() => {
    const frag = `#${encodeState(state, { embed })}`;
    written.current = frag;
    if (location.hash !== frag) history.replaceState(null, '', frag);
  }, [state, embed]);

  // A link pasted into the address bar of an open page.
  useEffect(() => {
    const onHash = () => {
      if (location.hash === written.current) return;
      const d = decodeFragment(location.hash);
      setState(d.state);
      setEmbed(d.embed);
      setNotice(noticeFor(d));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const update = useCallback((patch) => setState((s) => ({ ...s, ...patch })), []);
  const applyFix = useCallback((fix) => {
    setState((s) => {
      try {
        return applyFixTo(s, fix);
      } catch (e) {
        setNotice({ kind: 'error', text: e.message });
        return s;
      }
    });
  }, []);
  const problems = useMemo(() => ({ problems: view.stale ? view.problems : [], applyFix }), [view, applyFix]);
  const info = useMemo(() => Object.fromEntries((engine.parameters ?? []).map((p) => [p.name, p])), [engine.parameters]);
  const loadPreset = useCallback((name) => (engine.client ? engine.client.modelConfig(name) : Promise.resolve('')), [engine.client]);

  if (embed) return <EmbedView view={view} state={state} engineError={engine.error} notice={notice} />;

  return (
    <ProblemsContext.Provider value={problems}>
      <Header version={engine.version} tabs={TABS} tab={tab} onTab={setTab} />
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <main id="panel-calculator" role="tabpanel" aria-labelledby="tab-calculator" class="calculator">
        <form class="inputs" aria-label="Inputs" onSubmit={(e) => e.preventDefault()}>
          <ModelPanel state={state} update={update} models={engine.presets?.models ?? []} loadPreset={loadPreset} />
          <ParallelPanel state={state} update={update} />
          <BatchPanel state={state} update={update} />
          <HardwarePanel state={state} update={update} gpus={engine.presets?.gpus ?? []} info={info} />
          <TrainingPanel state={state} update={update} info={info} />
        </form>
        <div class="outputs">
          <SharePanel state={state} />
          <Results view={view} state={state} update={update} applyFix={applyFix} engineError={engine.error} />
        </div>
      </main>
      <footer class="page-footer">
        <p>Estimates from a simulator of the trainer’s memory; see the documentation for what it models.</p>
      </footer>
    </ProblemsContext.Provider>
  );
}
