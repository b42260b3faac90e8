// Header.jsx — the page title and the tab bar (the calculator today; the
// planner's views join it as further tabs).

/** Props: version (the engine's), tabs ([{id, title}]), tab, onTab(id). */
export function Header({ version, tabs, tab, onTab }) {
  return (
    <header class="page-header">
      <div class="brand">
        <h1>memest</h1>
        <p class="tagline">GPU memory for DualPipeV Mixture-of-Experts training — runs in your browser, nothing is uploaded.</p>
      </div>
      <nav class="tabs" aria-label="Views">
        <div role="tablist">
          {tabs.map((t) => (
            <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={t.id === tab ? 'true' : 'false'}
              aria-controls={`panel-${t.id}`} onClick={() => onTab(t.id)}>{t.title}</button>
          ))}
        </div>
      </nav>
      {version && <p class="version">engine {version}</p>}
    </header>
  );
}
