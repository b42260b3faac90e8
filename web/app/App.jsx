// App.jsx — the page: it holds the one input state, mirrors it into the
// URL fragment, hands it to the engine, and lays out the tabs: the
// calculator's controls and results, the Plan tab, the Compare tab, the
// Schedules tab (or the compact embed view).

import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { NO_PROBLEMS, inputsKey, useCompare, useEngine, useEstimate, usePlan, useRoutingCurve, useSchedules, useTimelineEvents } from './estimator.js';
import { DEFAULTS, applyFix as applyFixTo, configOf } from './state.js';
import { sizedName } from './config-name.js';
import { NOTE_DELAY_MS, StaleNote, staleNote } from './Card.jsx';
import { usePageDrop } from './page-drop.js';
import { readRun } from './trainer-files.js';
import { SourceContext, TrainerSource } from './TrainerSource.jsx';
import { compareRequest, compareState, loadB, planRequest, rowPatch } from './plan/requests.js';
import { PlanPanel } from './plan/PlanPanel.jsx';
import { ComparePanel } from './plan/ComparePanel.jsx';
import { SchedulesPanel } from './SchedulesPanel.jsx';
import { decodeFragment, encodeState } from './url.js';
import { ProblemsContext } from './FieldProblems.jsx';
import { Header } from './Header.jsx';
import { Notice } from './Notice.jsx';
import { ModelPanel, readConfigInput } from './ModelPanel.jsx';
import { ParallelPanel } from './ParallelPanel.jsx';
import { BatchPanel } from './BatchPanel.jsx';
import { HardwarePanel } from './HardwarePanel.jsx';
import { TrainingPanel } from './TrainingPanel.jsx';
import { TimePanel } from './TimePanel.jsx';
import { Results } from './Results.jsx';
import { InputsSummary } from './InputsSummary.jsx';
import { SharePanel } from './SharePanel.jsx';
import { EmbedView } from './EmbedView.jsx';
import { SkipLink } from './SkipLink.jsx';
import { PhoneSummary } from './PhoneSummary.jsx';
import { MeasuredPanel } from './MeasuredPanel.jsx';
import { useMeasured } from './measured.js';
import { useSettled } from './settled.js';
import { pageWords } from './wording.js';

/** How long the inputs stay still before the address bar and the link follow them. */
export const FRAGMENT_DELAY_MS = 250;

const TABS = [
  { id: 'calculator', title: 'Calculator' },
  { id: 'plan', title: 'Plan' },
  { id: 'compare', title: 'Compare' },
  { id: 'schedules', title: 'Schedules' },
];

/** The model list before the presets arrive (one array, so that it compares equal). */
const NO_MODELS = Object.freeze([]);

/** Said under a notice about a link: the address bar keeps it as it came. */
export const KEPT_NOTE = 'The address bar keeps the link as it came until you change something.';

/** The message for a decoded link: its error, or the fields it ignored. */
export function noticeFor(decoded) {
  if (decoded.error) return { kind: 'error', text: decoded.error, after: KEPT_NOTE };
  if (decoded.notes.length) {
    return { kind: 'info', text: 'Some settings in this link were not understood and were left at their defaults:', details: decoded.notes, after: KEPT_NOTE };
  }
  return null;
}

/** Props: initial (decodeFragment of the address the page opened with). */
export function App({ initial }) {
  const [state, setState] = useState(initial.state);
  const [embed, setEmbed] = useState(initial.embed);
  const [notice, setNotice] = useState(() => noticeFor(initial));
  const [dropProblem, setDropProblem] = useState(/** @type {string | null} */ (null));
  const written = useRef(null);
  // A link that could not be read whole stays in the address bar, as it
  // came, until the state changes: `kept` is the state it was decoded to.
  const kept = useRef(noticeFor(initial) ? initial.state : null);
  const focusPanel = useRef(false);
  const engine = useEngine();
  const tab = embed ? 'calculator' : state.view;
  // Suggestions are estimated only while their section is on screen.
  const [suggestionsShown, setSuggestionsShown] = useState(false);
  const events = useTimelineEvents();
  const [view, pending, ask] = useEstimate(engine.client, state, { suggestions: !embed && tab === 'calculator' && suggestionsShown, events });
  const { answer } = view;
  // The answer on screen is for these inputs, or the cards say so.
  const note = answer && answer.key !== inputsKey(state) ? staleNote(answer.state, state) : '';
  const lasting = useSettled(note, NOTE_DELAY_MS);
  const stale = useMemo(() => ({ note, shown: note !== '' && lasting === note, pending }), [note, lasting, pending]);
  const measured = useMeasured(engine.client, state.pp_size, state.total_gpus);
  const curve = useRoutingCurve(engine.client, answer, pending);
  const config = configOf(state);
  const gpuList = engine.presets?.gpus ?? [];

  // The Plan tab's sweep and the Compare tab's plan run only while shown.
  const planAsk = planRequest(state);
  const plan = usePlan(engine.client, config, planAsk.request ?? null, tab === 'plan');
  const bState = compareState(state);
  const cmpAsk = tab === 'compare' && engine.presets ? compareRequest(state, bState, gpuList) : null;
  const compare = useCompare(engine.client, config, cmpAsk, tab === 'compare');
  // The Schedules tab's five estimates run only while it is shown.
  const schedules = useSchedules(engine.client, state, tab === 'schedules');

  // A pasted config named only by its model_type takes its size too.
  useEffect(() => {
    if (!answer) return;
    const name = sizedName(answer.state, answer.result.model);
    if (name) setState((s) => (s.config === answer.state.config && s.model === answer.state.model ? { ...s, model: name } : s));
  }, [answer]);

  // The fragment and the share link follow the state once it has been
  // still for FRAGMENT_DELAY_MS, and the fragment at once when the page is
  // left or hidden: an address-bar update costs the browser more than an
  // estimate, so a moving slider writes it once, not at every step.
  // replaceState keeps Back for leaving.
  const settled = useSettled(state, FRAGMENT_DELAY_MS);
  const latest = useRef(state);
  latest.current = state;
  const writeFragment = useCallback((s) => {
    if (kept.current === s) return;
    kept.current = null;
    const frag = `#${encodeState(s, { embed })}`;
    written.current = frag;
    if (location.hash !== frag) history.replaceState(null, '', frag);
  }, [embed]);
  useEffect(() => writeFragment(settled), [settled, writeFragment]);
  useEffect(() => {
    const flush = () => writeFragment(latest.current);
    const onHidden = () => document.visibilityState === 'hidden' && flush();
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
    };
  }, [writeFragment]);

  useEffect(() => {
    document.documentElement.classList.toggle('embedded', embed);
  }, [embed]);

  // A link pasted into the address bar of an open page. Its fragment is
  // the event's, not location.hash: a fragment write (writeFragment) that
  // runs between the navigation and its event has already replaced
  // location.hash with the earlier state's.
  useEffect(() => {
    const onHash = (/** @type {HashChangeEvent} */ e) => {
      const hash = new URL(e.newURL).hash;
      if (hash === written.current) return;
      const d = decodeFragment(hash);
      kept.current = noticeFor(d) ? d.state : null;
      written.current = hash;
      setState(d.state);
      setEmbed(d.embed);
      setNotice(noticeFor(d));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // The one way the inputs change: the patch applies to the state as it
  // is, and the new state's estimate starts in the input's own event, while
  // the change renders (should the state have moved meanwhile, its render
  // asks for what it is).
  const update = useCallback((patch) => {
    latest.current = { ...latest.current, ...patch };
    setState((s) => ({ ...s, ...patch }));
    ask(latest.current);
  }, [ask]);
  const setTab = useCallback((id) => update({ view: id }), [update]);
  const currentState = useCallback(() => latest.current, []);
  // The trainer's files read into the inputs (trainer-files.js): the
  // record of where each input came from, a script waiting for a module it
  // imports (or for the choice among several scripts), and a hub id
  // training.model named, for the hub field.
  const [trainer, setTrainer] = useState(/** @type {any} */ (null));
  const [waiting, setWaiting] = useState(/** @type {any} */ (null));
  const [hubId, setHubId] = useState('');
  const waitingRef = useRef(waiting);
  waitingRef.current = waiting;
  const readTrainer = useCallback(async (kind, entries, all, script = null) => {
    // One run at a time: the first of its kinds in the drop reads it.
    const runs = ['wandb', 'script', 'log'].filter((k) => all?.has(k));
    if (runs.length > 1) {
      if (kind === runs[0]) setDropProblem('Drop one run’s files at a time: a launch script (with its setup.py), a log, or a W&B run’s files.');
      return;
    }
    if (!engine.client) {
      setDropProblem('The calculator is still starting; drop the files again in a moment.');
      return;
    }
    setDropProblem(null);
    const before = waitingRef.current;
    const earlier = kind === 'script' && before?.texts ? before.texts : {};
    const r = await readRun(engine.client, kind, entries, latest.current, { earlier, script: script ?? (kind === 'script' ? before?.script ?? null : null) });
    if (r.choices) {
      setWaiting({ choices: r.choices, texts: r.texts, kind });
      return;
    }
    if (r.missing) {
      setWaiting({ missing: r.missing, script: r.script, texts: r.texts, kind });
      return;
    }
    setWaiting(null);
    if (r.problem) {
      setDropProblem(r.problem);
      return;
    }
    setTrainer(r.record);
    setHubId(r.hubId);
    update({ ...r.patch, view: 'calculator' });
  }, [engine.client, update]);
  const chooseScript = useCallback((script) => {
    const w = waitingRef.current;
    if (w?.texts) readTrainer('script', [], null, script);
  }, [readTrainer]);
  const forgetTrainer = useCallback(() => {
    setTrainer(null);
    setWaiting(null);
  }, []);
  // The fields' sources follow the inputs only while there is a record.
  const sourceState = trainer ? state : null;
  const sources = useMemo(() => ({ record: trainer, state: sourceState }), [trainer, sourceState]);
  // Files dropped on the page, outside a drop zone of their own.
  const [dragging, openFiles] = usePageDrop({
    config: async (entries) => {
      const files = entries.map((e) => e.file);
      const r = await readConfigInput(files[0], latest.current);
      setDropProblem(r.problem ?? (files.length > 1 ? `${files.length} configs were dropped; the page took ${files[0].name}.` : null));
      if (r.patch) update({ ...r.patch, view: 'calculator' });
    },
    script: (entries, all) => readTrainer('script', entries, all),
    log: (entries, all) => readTrainer('log', entries, all),
    wandb: (entries, all) => readTrainer('wandb', entries, all),
  }, setDropProblem);
  // Loading a plan row or B switches to the calculator and moves focus there.
  const toCalculator = useCallback((patch) => {
    focusPanel.current = true;
    update({ ...patch, view: 'calculator' });
  }, [update]);
  const loadRow = useCallback((row) => toCalculator(rowPatch(row)), [toCalculator]);
  useEffect(() => {
    if (!focusPanel.current) return;
    focusPanel.current = false;
    document.getElementById(`panel-${tab}`)?.focus();
  }, [tab]);
  // Fix buttons are only offered for fixes canApplyFix() accepts.
  const applyFix = useCallback((fix) => setState((s) => applyFixTo(s, fix)), []);
  const reset = useCallback(() => setState((s) => ({ ...DEFAULTS, view: s.view })), []);
  // The same value while the problems stay, so that a result arriving
  // re-renders none of the fields that show them.
  const shownProblems = view.problems.length ? view.problems : NO_PROBLEMS;
  const problems = useMemo(() => ({ problems: shownProblems, applyFix }), [shownProblems, applyFix]);
  // The engine's help for each input, in the page's words once.
  const info = useMemo(() => Object.fromEntries((engine.parameters ?? [])
    .map((p) => [p.name, { ...p, meaning: pageWords(p.meaning), choose: pageWords(p.choose) }])), [engine.parameters]);
  const loadPreset = useCallback((name) => (engine.client ? engine.client.modelConfig(name) : Promise.resolve('')), [engine.client]);

  // What the layout help needs of the model, kept while it stays the same.
  const m = answer?.result.model;
  const shapeKey = m ? `${m.experts}|${m.layers}|${m.ep_sizes}|${m.max_pp_size}` : '';
  const modelShape = useMemo(() => (m ? { experts: m.experts, layers: m.layers, ep_sizes: m.ep_sizes, max_pp_size: m.max_pp_size } : null), [shapeKey]);
  const models = engine.presets?.models ?? NO_MODELS;
  const gpus = engine.presets?.gpus ?? NO_MODELS;

  // The form renders again only when the inputs or what it lists change,
  // not when an answer arrives; its fields are memo components besides.
  const ready = engine.parameters !== null;
  const inputs = useMemo(() => (ready ? (
    <form class="inputs" aria-label="Inputs" onSubmit={(e) => e.preventDefault()}>
      <div class="form-tools">
        <button type="button" onClick={reset} data-testid="reset">Reset to defaults</button>
      </div>
      <TrainerSource record={trainer} waiting={waiting} onChoose={chooseScript} onForget={forgetTrainer} />
      <ModelPanel model={state.model} config={state.config} current={currentState} update={update} models={models}
        loadPreset={loadPreset} problem={dropProblem} client={engine.client} hubId={hubId} onFiles={openFiles} />
      <ParallelPanel state={state} update={update} info={info} model={modelShape} />
      <BatchPanel state={state} update={update} info={info} />
      <HardwarePanel state={state} update={update} gpus={gpus} info={info} />
      <TimePanel state={state} update={update} info={info} />
      <TrainingPanel state={state} update={update} info={info} />
    </form>
  ) : (
    <p class="loading inputs" role="status">{engine.error ?? 'Loading the calculator…'}</p>
  )), [ready, state, models, gpus, info, loadPreset, update, modelShape, currentState, reset, dropProblem, engine.error,
    trainer, waiting, chooseScript, forgetTrainer, hubId, engine.client, openFiles]);
  // An input's render changes the cards' note alone (StaleNote): the
  // results are rendered again only when what they show changes.
  const configKey = JSON.stringify(config);
  const results = useMemo(() => (
    <Results view={view} configKey={configKey} detail={state.detail} update={update} applyFix={applyFix}
      engineError={engine.error} measured={measured} onSuggestionsShown={setSuggestionsShown} suggestionsShown={suggestionsShown} curve={curve} />
  ), [view, configKey, state.detail, update, applyFix, engine.error, measured, curve, suggestionsShown]);

  // The link is packed once the inputs are still, not at every render.
  const linkPending = settled !== state;
  const share = useMemo(() => <SharePanel state={settled} pending={linkPending} current={currentState} />,
    [settled, linkPending, currentState]);

  if (embed) {
    return (
      <StaleNote.Provider value={stale}>
        <EmbedView view={view} pending={pending} note={note} state={state} models={models} engineError={engine.error} notice={notice} />
      </StaleNote.Provider>
    );
  }


  return (
    <ProblemsContext.Provider value={problems}>
      <SkipLink tab={tab} />
      <Header version={engine.version} tabs={TABS} tab={tab} onTab={setTab} />
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <main>
      {tab === 'calculator' && (
        <div id="panel-calculator" role="tabpanel" aria-labelledby="tab-calculator" class="calculator" tabIndex={-1}>
          <PhoneSummary view={view} note={note} />
          <SourceContext.Provider value={sources}>{inputs}</SourceContext.Provider>
          <div class="outputs" id="outputs" tabIndex={-1} aria-label="Results">
            {share}
            <InputsSummary state={state} problems={view.problems} />
            <StaleNote.Provider value={stale}>
              {results}
              <MeasuredPanel measured={measured} ranks={answer?.ranks.ranks ?? null} tensorPeak={answer?.ranks.tensor_peak_bytes}
                fragmentation={state.fragmentation} update={update} answerFor={answer?.result.command ?? ''} state={state}
                time={answer?.result.time ?? null} timeNote={answer?.result.time_note ?? ''} />
            </StaleNote.Provider>
          </div>
        </div>
      )}
      {tab === 'plan' && (
        <div id="panel-plan" role="tabpanel" aria-labelledby="tab-plan" class="planner" tabIndex={-1}>
          {share}
          {engine.error && <p class="notice notice-error" role="alert">{engine.error}</p>}
          <PlanPanel state={state} update={update} gpus={gpuList} plan={plan} requestKey={plan.want}
            problem={planAsk.problem} onLoad={loadRow} />
        </div>
      )}
      {tab === 'compare' && (
        <div id="panel-compare" role="tabpanel" aria-labelledby="tab-compare" class="planner" tabIndex={-1}>
          {share}
          {engine.error && <p class="notice notice-error" role="alert">{engine.error}</p>}
          <ComparePanel a={state} b={bState} update={update} gpus={gpuList} models={models} compare={compare}
            requestKey={compare.want} onLoadB={() => toCalculator(loadB(bState, gpuList))} client={engine.client} />
        </div>
      )}
      {tab === 'schedules' && (
        <div id="panel-schedules" role="tabpanel" aria-labelledby="tab-schedules" class="planner" tabIndex={-1}>
          {share}
          {engine.error && <p class="notice notice-error" role="alert">{engine.error}</p>}
          <SchedulesPanel state={state} gpus={gpuList} schedules={schedules} update={update} />
        </div>
      )}
      </main>
      {dragging && <div class="drop-overlay" aria-hidden="true">Drop a config.json, or the trainer’s launch script, log or W&amp;B run, to fill the inputs</div>}
      <footer class="page-footer">
        <p>
          memest {engine.version} estimates the PyTorch-allocated peak by replaying the pipeline schedule (the trainer’s DualPipeV, or one beside it), plus
          non-PyTorch memory and fragmentation. It runs entirely in this browser; links carry the inputs in their fragment.
        </p>
      </footer>
    </ProblemsContext.Provider>
  );
}
