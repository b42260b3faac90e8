// settled.js — a value that follows another once it has stopped changing:
// what a moving slider's costly followers (the address bar and the share
// link) wait for, so that they run once when the hand stops rather than at
// every step.

import { useEffect, useState } from 'preact/hooks';

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
  // A new value clears the timer of the one before, so the value a timer
  // sets is still the latest.
  useEffect(() => {
    if (value === settled) return undefined;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
