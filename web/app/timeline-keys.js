// timeline-keys.js — the keys that walk the timeline's events when the
// chart has focus, so that every event's readout is reachable without a
// mouse: arrows by one, Page Up / Down by a tenth, Home / End to the ends,
// P to the peak.

/**
 * The event position after `key` from `pos` among `n` events (peak at
 * `peakPos`), or null when the key does not move.
 */
export function stepEvent(key, pos, n, peakPos = -1) {
  if (!(n > 0)) return null;
  const page = Math.max(1, Math.round(n / 10));
  const from = pos >= 0 && pos < n ? pos : Math.max(0, peakPos);
  const to = {
    ArrowRight: from + 1, ArrowUp: from + 1, ArrowLeft: from - 1, ArrowDown: from - 1,
    PageUp: from + page, PageDown: from - page, Home: 0, End: n - 1,
    p: peakPos, P: peakPos,
  }[key];
  if (to === undefined) return null;
  return Math.min(n - 1, Math.max(0, to));
}
