// settled.js — a value that follows another once it has stopped changing:
// what a moving slider's costly followers (the share link, the routing
// curve) wait for, so that they run once when the hand stops rather than at
// every step.

import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * `value` once it has kept the same identity for `ms` milliseconds; the
 * first value at once.
 * @template T
 * @param {T} value
 * @param {number} ms
 * @returns {T}
 */
export function useSettled(value, ms) {
  const [settled, setSettled] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    if (value === settled) return undefined;
    const timer = setTimeout(() => setSettled(latest.current), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
