// use-color-scheme.js — the reader's colour scheme as a Preact hook, for
// the charts that colour themselves (scheme.js has the colours).

import { useEffect, useState } from 'preact/hooks';
import { DARK_QUERY, currentScheme } from './scheme.js';

/** The scheme, re-rendering when the reader's system switches. */
export function useColorScheme() {
  const [scheme, setScheme] = useState(currentScheme);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return undefined;
    const mq = matchMedia(DARK_QUERY);
    const on = () => setScheme(mq.matches ? 'dark' : 'light');
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return scheme;
}
