// use-width.js — a box's width in CSS px as it changes (ResizeObserver),
// for the charts drawn at their card's width.

import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * [ref, width]: put `ref` on the box; `width` is its clientWidth, or
 * `fallback` before it is laid out.
 * @param {number} fallback
 * @returns {[any, number]}
 */
export function useWidth(fallback) {
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => {
      const w = el.clientWidth;
      if (w > 0) setWidth((old) => (old === w ? old : w));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref.current]);
  return [ref, width || fallback];
}
