// setters.js — one onChange per input name that stays the same function
// from render to render, so that a field whose own props did not change
// skips its render (the fields are memo components) when another moves.

import { useMemo } from 'preact/hooks';

/**
 * set(key) is `(v) => update({[key]: v})`, the same function for a key as
 * long as `update` is the same.
 * @param {(patch: Record<string, unknown>) => void} update
 * @returns {(key: string) => (v: unknown) => void}
 */
export function useSetters(update) {
  return useMemo(() => {
    /** @type {Map<string, (v: unknown) => void>} */
    const made = new Map();
    return (key) => {
      let f = made.get(key);
      if (!f) {
        f = (v) => update({ [key]: v });
        made.set(key, f);
      }
      return f;
    };
  }, [update]);
}
