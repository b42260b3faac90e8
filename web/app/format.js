// format.js — how numbers read on the page: bytes in GiB (the unit the
// trainer's logs print), counts with thousands separators, fractions in %.

const GIB = 2 ** 30;

/** Bytes as GiB with two decimals, e.g. "62.41 GiB". */
export function gib(bytes, digits = 2) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  return `${(bytes / GIB).toFixed(digits)} GiB`;
}

/** Bytes as a signed GiB figure, e.g. "+1.20 GiB" or "−3.50 GiB". */
export function signedGib(bytes, digits = 2) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  const text = (Math.abs(bytes) / GIB).toFixed(digits);
  return `${bytes < 0 ? '\u2212' : '+'}${text} GiB`;
}

/** A short GiB figure for chart axes, e.g. "60" or "0.5". */
export function axisGib(bytes) {
  const g = bytes / GIB;
  if (g === 0) return '0';
  if (Math.abs(g) >= 10) return g.toFixed(0);
  return g.toFixed(1);
}

/** A fraction (0.21) as a percentage ("21.0%"). */
export function percent(fraction, digits = 1) {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** An integer with thousands separators. */
export function count(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US');
}

/** A derived degree: whole numbers plainly, others with two decimals. */
export function degree(x) {
  if (x === null || !Number.isFinite(x)) return '—';
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}
