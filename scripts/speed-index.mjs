// speed-index.mjs — how fast a page's thread runs on this machine now, as
// the benchmark index Lighthouse reports (its BenchmarkIndex: building
// strings, then copying arrays, for 500 ms each in the page; higher is
// faster). A slider timing depends on the machine as much as on the page, so
// the page tests and bench-page.mjs print it beside their timings: a
// figure read with the index it was taken at can be compared with one taken
// on another machine, or in a slower hour of the same one. Under CPU
// throttling the index falls with the rate (about a quarter at 4x).

/**
 * The benchmark index of `page` (a Playwright page or frame) now: about one
 * second of work on its thread.
 * @param {any} page
 * @returns {Promise<number>}
 */
export function speedIndex(page) {
  return page.evaluate(() => {
    const strings = () => {
      const start = Date.now();
      let rounds = 0;
      while (Date.now() - start < 500) {
        let s = '';
        for (let j = 0; j < 10000; j++) s += 'a';
        if (s.length === 1) throw new Error('unreachable: keeps the loop from being optimised away');
        rounds++;
      }
      return Math.round(rounds / 10 / ((Date.now() - start) / 1000));
    };
    const arrays = () => {
      const a = [];
      const b = [];
      for (let i = 0; i < 100000; i++) a[i] = b[i] = i;
      const start = Date.now();
      let rounds = 0;
      while (rounds % 10 !== 0 || Date.now() - start < 500) {
        const from = rounds % 2 === 0 ? a : b;
        const to = rounds % 2 === 0 ? b : a;
        for (let j = 0; j < from.length; j++) to[j] = from[j];
        rounds++;
      }
      return Math.round(rounds / 10 / ((Date.now() - start) / 1000));
    };
    return Math.round((strings() + arrays()) / 2);
  });
}
