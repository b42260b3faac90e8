import { startSession } from './support.mjs';
const s = await startSession();
const page = await s.newPage();
await page.goto(s.url);
await page.locator('[data-testid=peak]').waitFor();
await page.waitForTimeout(1500);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
await cdp.send('Profiler.start');
const times = [];
for (let i = 0; i < 16; i++) {
  const ms = await page.evaluate(async (value) => {
    const results = document.querySelector('[data-testid=results]');
    const slider = document.querySelector('[data-field=pp_size] input[type=range]');
    const seq = results.dataset.seq;
    const t0 = performance.now();
    slider.value = value;
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    let tr = 0;
    await new Promise((done) => {
      const mo = new MutationObserver(() => {
        if (results.dataset.seq !== seq && results.getAttribute('aria-busy') === 'false') { mo.disconnect(); done(); }
      });
      mo.observe(results, { attributes: true });
    });
    tr = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 0));
    return [tr, performance.now() - t0];
  }, i % 2 ? '4' : '2');
  times.push(ms);
}
const { profile } = await cdp.send('Profiler.stop');
console.log('times (result seen, after redraw):', times.map(([a, b]) => `${a.toFixed(1)}/${b.toFixed(1)}`).join(' '));
const self = new Map();
const dt = profile.timeDeltas; const byId = new Map(profile.nodes.map((n) => [n.id, n]));
profile.samples.forEach((id, i) => {
  const n = byId.get(id); const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  self.set(key, (self.get(key) || 0) + (dt[i] || 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log('total sampled ms', (total / 1000).toFixed(0));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), k);
await s.close();
