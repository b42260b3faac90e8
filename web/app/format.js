// format.js — how numbers read on the page: bytes in GiB (the unit the
// trainer's logs print), counts with thousands separators, fractions in %.

const GIB = 2 ** 30;

/** Bytes as GiB with two decimals, e.g. "62.41 GiB". */
export function gib(bytes, digits = 2) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  return `${(bytes / GIB).toFixed(digits)} GiB`;
}

/** Bytes in GiB, MiB below 0.1 GiB, KiB below 0.1 MiB: for tables. */
export function mem(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  const a = Math.abs(bytes);
  if (a === 0 || a >= 0.1 * GIB) return gib(bytes);
  if (a >= 0.1 * 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
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
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A parameter count: 1026408209408 as "1.03 T", 30532122624 as "30.53 B", 2661150208 as "2.66 B", 78144 as "78,144". */
export function paramCount(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  if (n >= 1e12) return `${(n / 1e12).toFixed(2)} T`;
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  return count(n);
}

/** A derived degree: whole numbers plainly, others with two decimals. */
export function degree(x) {
  if (x === null || !Number.isFinite(x)) return '—';
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}
