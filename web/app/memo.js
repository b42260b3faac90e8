// memo.js — a component that renders again only when one of its props
// changed identity. Preact's own memo lives in preact/compat, which also
// rewires events for React code (onChange becomes onInput), so the page
// does not load it.

import { Component, createElement } from 'preact';

/**
 * `View` wrapped so that a render with the same props (each compared with
 * ===) is skipped; context changes still reach the hooks inside.
 * @template P
 * @param {(props: P) => any} View
 * @returns {any}
 */
export function memo(View) {
  class Memo extends Component {
    /** @param {Record<string, unknown>} next */
    shouldComponentUpdate(next) {
      const props = /** @type {Record<string, unknown>} */ (this.props);
      for (const k in next) if (next[k] !== props[k]) return true;
      for (const k in props) if (!(k in next)) return true;
      return false;
    }

    /** @param {any} props */
    render(props) {
      return createElement(/** @type {any} */ (View), props);
    }
  }
  /** @type {any} */ (Memo).displayName = `memo(${View.name})`;
  return Memo;
}
