// The charts as drawn in Debian's Chromium (playwright-core): nothing
// overlaps (the timeline's step, capacity and peak labels, the routing
// chart's curve and labels, the rank chart's axis at 1,048,576 tokens), the
// timeline labels every step its caption promises, the routing chart uses
// its card's width with ticks at round factors, and figures of 1,024 GiB
// and more read in TiB. Needs public/ built and build/memest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PARAMS, cli, waitForResult, fileSession, stateLink } from './support.mjs';

const session = fileSession();

const link = (patch) => stateLink(session.url, patch);

/**
 * Records every text the page writes on a canvas, with its box in canvas
 * pixels. (A canvas is kept on the page's thread, where a build that could
 * hand it to a worker would.)
 */
function recordCanvasText(page) {
  return page.addInitScript(() => {
    delete HTMLCanvasElement.prototype.transferControlToOffscreen;
    window.canvasTexts = [];
    const proto = CanvasRenderingContext2D.prototype;
    const fill = proto.fillText;
    const clear = proto.clearRect;
    proto.clearRect = function (...a) {
      window.canvasTexts.push({ clear: true });
      return clear.apply(this, a);
    };
    proto.fillText = function (text, x, y, ...rest) {
      const m = this.measureText(text);
      const t = this.getTransform();
      const left = this.textAlign === 'right' || this.textAlign === 'end' ? x - m.width : this.textAlign === 'center' ? x - m.width / 2 : x;
      if (t.b === 0 && t.c === 0) {
        window.canvasTexts.push({ text: String(text), x0: left + t.e, x1: left + m.width + t.e,
          y0: y - m.actualBoundingBoxAscent + t.f, y1: y + m.actualBoundingBoxDescent + t.f, canvas: this.canvas.width });
      }
      return fill.call(this, text, x, y, ...rest);
    };
  });
}

/** Pairs of boxes among `boxes` that overlap, as "a / b". */
function overlaps(boxes) {
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) out.push(`${a.text} / ${b.text}`);
    }
  }
  return out;
}

/** The steps a label names: "1–3" is 1, 2, 3; "end" 9, "opt" 10. */
function stepsOf(text) {
  return text.split(', ').flatMap((p) => {
    const named = { end: 9, opt: 10 }[p];
    if (named) return [named];
    const [a, b] = p.split('–').map(Number);
    return b ? Array.from({ length: b - a + 1 }, (_, i) => a + i) : [a];
  });
}

for (const [name, size, patch] of [
  ['desktop', { width: 1400, height: 900 }, {}],
  ['phone', { width: 390, height: 844 }, {}],
  ['desktop, capacity at the top of the plot', { width: 1400, height: 900 }, { pp_size: 2, total_gpus: 16, gpu: 'b200' }],
]) {
  test(`the timeline's labels never overlap, and every step of the caption is labelled (${name})`, async () => {
    const page = await session.newPage(size);
    await recordCanvasText(page);
    await page.goto(link(patch));
    await waitForResult(page);
    const texts = await page.evaluate(() => window.canvasTexts);
    const plotTop = await page.evaluate(() => {
      const c = document.querySelector('.timeline canvas');
      const over = document.querySelector('.timeline-over');
      return (over.getBoundingClientRect().top - c.getBoundingClientRect().top) * (c.width / c.getBoundingClientRect().width);
    });
    // The last drawing: the texts after the last clearRect.
    const drawing = texts.slice(texts.findLastIndex((t) => t.clear) + 1);
    const labels = drawing.filter((t) => /^(capacity|peak$)/.test(t.text) || (t.y1 <= plotTop && /^(\d|end|opt)/.test(t.text)));
    assert.ok(labels.some((t) => t.text.startsWith('capacity')), JSON.stringify(labels.map((t) => t.text)));
    assert.deepEqual(overlaps(labels), [], JSON.stringify(labels));
    const caption = drawing.find((t) => /^(event|time in step)/.test(t.text)).text;
    const [, from, to] = /steps (\d)–(\d)/.exec(caption);
    const named = labels.filter((t) => t.y1 <= plotTop).flatMap((t) => stepsOf(t.text));
    for (let s = Number(from); s <= Number(to); s++) assert.ok(named.includes(s), `step ${s} of "${caption}" in ${named}`);
    await page.close();
  });
}

test('the routing chart uses its card\'s width, with ticks at round factors, its labels clear of each other and of the curve', async () => {
  const page = await session.newPage({ width: 1400, height: 900 });
  await page.goto(session.url);
  await waitForResult(page);
  const chart = page.locator('[data-testid=routing-chart][data-ready=true]');
  await chart.waitFor({ timeout: 10000 });
  const got = await chart.evaluate((card) => {
    const svg = card.querySelector('svg');
    const inner = card.clientWidth - parseFloat(getComputedStyle(card).paddingLeft) - parseFloat(getComputedStyle(card).paddingRight);
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
    };
    const texts = [...svg.querySelectorAll('text')].map(box);
    const points = [...svg.querySelectorAll('circle')].map((c) => c.getBoundingClientRect()).map((r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 }));
    return { width: svg.getBoundingClientRect().width, inner, texts, points };
  });
  assert.ok(Math.abs(got.width - got.inner) <= 1, `${got.width} px of ${got.inner}`);
  const factorTicks = got.texts.filter((t) => /×$/.test(t.text)).map((t) => Number(t.text.slice(0, -1)));
  assert.ok(factorTicks.length >= 5, factorTicks.join(' '));
  const step = factorTicks[1] - factorTicks[0];
  assert.ok([0.1, 0.2, 0.25, 0.5, 1].some((s) => Math.abs(step - s) < 1e-9), `step ${step}`);
  for (const f of factorTicks) assert.ok(Math.abs(f / step - Math.round(f / step)) < 1e-9, `${f} is a round factor`);
  assert.deepEqual(overlaps(got.texts), []);
  const onCurve = got.texts.filter((t) => got.points.some((p) => p.x > t.x0 && p.x < t.x1 && p.y > t.y0 && p.y < t.y1));
  assert.deepEqual(onCurve.map((t) => t.text), [], 'no label sits on the curve');
  await page.close();
});

test('at 1,048,576 tokens the figures read in TiB and the rank chart\'s axis labels stay apart and inside it', async () => {
  const page = await session.newPage({ width: 1400, height: 900 });
  await page.goto(link({ sequence_length: 1048576 }));
  await waitForResult(page);
  const want = cli({ ...DEFAULT_PARAMS, sequence_length: 1048576 });
  assert.ok(want.peak_bytes >= 2 ** 40);
  assert.equal(await page.getByTestId('peak').textContent(), `${(want.peak_bytes / 2 ** 40).toFixed(2)} TiB`);
  const axis = await page.locator('.ranks .rank-plot').evaluate((plot) => {
    const frame = plot.getBoundingClientRect();
    // The box of the text itself (a label's element may be wider, centred on its bar).
    const box = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return { text: el.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
    };
    return {
      frame: { x0: frame.left, x1: frame.right },
      ticks: [...plot.querySelectorAll('.rank-tick, .rank-axis-title')].map(box),
      values: [...plot.querySelectorAll('.bar-value, .rank-number, .worst-mark')].map(box),
    };
  });
  assert.deepEqual(overlaps(axis.ticks), []);
  for (const t of [...axis.ticks, ...axis.values]) assert.ok(t.x0 >= axis.frame.x0 - 0.5 && t.x1 <= axis.frame.x1 + 0.5, `${t.text} inside`);
  assert.ok(axis.ticks.some((t) => t.text === 'TiB'), 'the axis is in TiB');
  assert.ok(axis.ticks.filter((t) => /^\d/.test(t.text)).length >= 2, JSON.stringify(axis.ticks.map((t) => t.text)));
  assert.ok(!axis.values.some((t) => /^\d{4,}/.test(t.text)), 'no four-digit GiB figures');
  await page.close();
});
