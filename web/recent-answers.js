// recent-answers.js — the last few estimates' answers, by the request that
// asked for them. An estimate is a pure function of its inputs, so an
// answer kept is the answer a new call would give: the page keeps the
// answers it showed (web/app/estimator.js) and the engine's worker the
// texts it posted (web/engine-worker.js), and a slider moved back to a
// value it just had is answered from them. The oldest answer goes first
// once there are more than `entries` or their sizes add up to more than
// `bytes`.

/**
 * @template T
 * @typedef {object} RecentAnswers
 * @property {(key: string) => T | undefined} get  the answer kept for `key`, now the newest
 * @property {(key: string, answer: T, size: number) => void} put  keeps `answer`, `size` bytes
 * @property {() => number} count  answers kept
 * @property {() => void} clear
 */

/**
 * @template T
 * @param {{entries: number, bytes: number}} limits
 * @returns {RecentAnswers<T>}
 */
export function recentAnswers({ entries, bytes }) {
  /** @type {Map<string, {answer: T, size: number}>} in order of use, oldest first */
  const kept = new Map();
  let total = 0;
  return {
    get(key) {
      const hit = kept.get(key);
      if (!hit) return undefined;
      kept.delete(key);
      kept.set(key, hit);
      return hit.answer;
    },
    put(key, answer, size) {
      const old = kept.get(key);
      if (old) {
        total -= old.size;
        kept.delete(key);
      }
      // An answer larger than the whole allowance is not kept at all.
      if (size > bytes) return;
      kept.set(key, { answer, size });
      total += size;
      for (const [k, v] of kept) {
        if (kept.size <= entries && total <= bytes) break;
        kept.delete(k);
        total -= v.size;
      }
    },
    count: () => kept.size,
    clear() {
      kept.clear();
      total = 0;
    },
  };
}
