// SkipLink.jsx — the page's first tab stop: it moves focus past the tab bar
// and the inputs to the results of the tab shown. It never changes the
// address, whose fragment holds the page's state.

const TARGETS = {
  calculator: '#outputs',
  plan: '#panel-plan',
  compare: '#panel-compare',
  schedules: '#panel-schedules',
};

/** Props: tab (the tab shown). */
export function SkipLink({ tab }) {
  const target = TARGETS[tab] ?? '#outputs';
  const onClick = (e) => {
    e.preventDefault();
    const el = document.querySelector(`${target} .plan-results, ${target} .compare-results, ${target} .schedules-table`) ?? document.querySelector(target);
    if (!el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus();
    el.scrollIntoView({ block: 'start' });
  };
  return <a class="skip-link" href={target} onClick={onClick} data-testid="skip-link">Skip to the results</a>;
}
