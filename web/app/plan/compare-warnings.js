// compare-warnings.js — the warnings of the Compare tab's B (the model's,
// CP's, FP8's), which the planner's compare rows do not carry: B
// estimated alone, once its inputs are still, with the least view.

import { useEffect, useState } from 'preact/hooks';
import { configOf, toParams } from '../state.js';

/** The least view of an estimate: its warnings are all that is read. */
const VIEW = { suggestions: false, timeline_window: 1, every_rank: false, timeline_columns: true };

/** Names "configuration 1" and "configuration 2" of the planner's compare messages as the page names them: A and B. */
export function sideWords(message) {
  return String(message ?? '').replace(/\bconfiguration ([12])\b/g, (_, n) => (n === '1' ? 'A' : 'B'));
}

/**
 * B's warnings for state `b` while `active`: {key, warnings}, key the
 * inputs they are for ('' before the first answer). An input that is not
 * valid gives no warnings (its problem is the compare's).
 */
export function useCompareWarnings(client, b, active) {
  const config = configOf(b);
  const params = toParams(b);
  const key = JSON.stringify([config, params]);
  const [shown, setShown] = useState({ key: '', warnings: /** @type {string[]} */ ([]) });
  useEffect(() => {
    if (!client || !active || shown.key === key) return;
    let live = true;
    client.estimate(config, params, { view: VIEW }).then((r) => {
      if (live && r && !r.superseded) setShown({ key, warnings: r.error ? [] : (r.result ?? r).warnings ?? [] });
    }, () => {});
    return () => {
      live = false;
    };
  }, [client, active, key]);
  return shown;
}
