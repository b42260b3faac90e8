// Header.jsx — the page title and the tab bar: Calculator, Plan, Compare,
// Schedules (on a narrow phone the tabs wrap rather than widen the page).
// The tabs follow the ARIA tabs pattern: one tab stop, arrow keys (and
// Home / End) move between tabs and show the one they reach.

/** The tab bar's wrapping (set through the DOM's style object, which the page's policy allows). */
const WRAP = { flexWrap: 'wrap' };

/** Props: version (the engine's), tabs ([{id, title}]), tab, onTab(id). */
export function Header({ version, tabs, tab, onTab }) {
  const onKeyDown = (e) => {
    const i = tabs.findIndex((t) => t.id === tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const to = tabs[(next + tabs.length) % tabs.length];
    onTab(to.id);
    e.currentTarget.querySelector(`#tab-${to.id}`)?.focus();
  };
  return (
    <header class="page-header">
      <div class="brand">
        <h1>memest</h1>
        <p class="tagline">GPU memory for DualPipeV Mixture-of-Experts training — runs in your browser, nothing is uploaded.</p>
      </div>
      <nav class="tabs" aria-label="Views">
        <div role="tablist" onKeyDown={onKeyDown} style={WRAP}>
          {tabs.map((t) => (
            <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={t.id === tab ? 'true' : 'false'}
              aria-controls={t.id === tab ? `panel-${t.id}` : undefined} tabIndex={t.id === tab ? 0 : -1}
              onClick={() => onTab(t.id)}>{t.title}</button>
          ))}
        </div>
      </nav>
      {version && <p class="version">engine {version}</p>}
    </header>
  );
}

