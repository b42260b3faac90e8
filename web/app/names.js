// names.js — the facts the page takes from the C core instead of writing
// them again: the memory components' labels, the enum names and the
// headroom percentage below which a run is TIGHT (engine.names()). Set once
// when the engine starts (estimator.js useEngine), before any result or
// plan is shown; constant after that.

/** @type {import('../engine.js').Names | null} */
let names = null;

/** Keeps the engine's names; useEngine calls it once. */
export function setNames(n) {
  names = n;
}

/** The label the core's reports give component `key`, or null if unknown. */
export function componentTitle(key) {
  return names?.components.find((c) => c.key === key)?.title ?? null;
}

/** Headroom below this percentage of the capacity makes a fitting run TIGHT. */
export function tightPercent() {
  if (!names) throw new Error('the engine names are not loaded yet');
  return names.tight_percent;
}

/** The names of one enum, in the core's order ("optimizer", "sharding", "fp8_training", "routing", "status"). */
export function enumNames(which) {
  return names?.[which] ?? [];
}
