// format.js — how numbers read on the page: bytes in GiB (the unit the
// trainer's logs print), TiB from 1,024 GiB, counts with thousands
// separators, fractions in %, durations in s (ms below a second) and
// rates. A negative figure takes the minus sign
// (U+2212) everywhere, never a hyphen.

const GIB = 2 ** 30;
const TIB = 2 ** 40;

/** The minus sign for a number's text ("-3.50" as "−3.50"). */
export function minus(text) {
  return String(text).replace(/^-/, '\u2212');
}

/** Bytes as GiB with two decimals, e.g. "62.41 GiB"; from 1,024 GiB on as TiB, "1.50 TiB". */
export function gib(bytes, digits = 2) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  if (Math.abs(bytes) >= TIB) return `${minus((bytes / TIB).toFixed(digits))} TiB`;
  return `${minus((bytes / GIB).toFixed(digits))} GiB`;
}

/** Bytes in GiB (TiB), MiB below 0.1 GiB, KiB below 0.1 MiB: for tables. */
export function mem(bytes) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  const a = Math.abs(bytes);
  if (a === 0 || a >= 0.1 * GIB) return gib(bytes);
  if (a >= 0.1 * 2 ** 20) return `${minus((bytes / 2 ** 20).toFixed(1))} MiB`;
  return `${minus((bytes / 1024).toFixed(1))} KiB`;
}

/** Bytes as a signed figure, e.g. "+1.20 GiB" or "−3.50 GiB". */
export function signedGib(bytes, digits = 2) {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—';
  const text = gib(Math.abs(bytes), digits);
  return `${bytes < 0 ? '\u2212' : '+'}${text}`;
}

/**
 * The unit of a chart's axis whose largest value is `topBytes`: GiB, or
 * TiB from 1,024 GiB on. {unit, per} (bytes per unit).
 */
export function axisUnit(topBytes) {
  return Math.abs(topBytes) >= TIB ? { unit: 'TiB', per: TIB } : { unit: 'GiB', per: GIB };
}

/** A short figure for a chart's axis, in `per` bytes (GiB by default), e.g. "60", "5" or "0.5". */
export function axisGib(bytes, per = GIB) {
  const g = bytes / per;
  if (g === 0) return '0';
  if (Math.abs(g) >= 10) return minus(g.toFixed(0));
  return minus(g.toFixed(1).replace(/\.0$/, ''));
}

/** A fraction (0.21) as a percentage ("21.0%"). */
export function percent(fraction, digits = 1) {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return '—';
  return `${minus((fraction * 100).toFixed(digits))}%`;
}

/** A signed percentage, "+4.2%" or "−3.0%" (the measured comparison's error). */
export function signedPercent(fraction, digits = 1) {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return '—';
  return `${fraction < 0 ? '\u2212' : '+'}${(Math.abs(fraction) * 100).toFixed(digits)}%`;
}

/** An integer with thousands separators. */
export function count(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return minus(String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
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
  return minus(Number.isInteger(x) ? String(x) : x.toFixed(2));
}

/** Seconds as the time card reads them: "19.29 s" from a second on, "132.5 ms" below. */
export function duration(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '—';
  if (Math.abs(seconds) >= 1) return `${minus(seconds.toFixed(2))} s`;
  return `${minus((seconds * 1000).toFixed(1))} ms`;
}

/** A rate with thousands separators and one decimal below 100: "217,434", "42.5". */
export function rate(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return Math.abs(n) < 100 ? minus(n.toFixed(1)) : count(n);
}
