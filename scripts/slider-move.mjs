// slider-move.mjs — one move of the calculator's pp slider, timed inside
// the page from the input event to every chart updated: the DOM shows a
// new estimate (the page draws the timeline's canvas in the same render).
// The move ends with the first task after that, or, with `toFrame`, with
// the task after the next frame. The page tests and bench-page.mjs time
// their moves with it, so that they measure the same thing; performance
// marks move-start and move-end bound it for a trace. A page built before
// the timeline was drawn on the page's thread (its canvas drawn by the
// engine's worker, which bench-page.mjs may run beside this tree) also
// waits for the canvas: data-drawn = data-shows on the plot.
//
// coldSliderMove() first types a global batch size never used before into
// its box (untimed, waiting for that answer), so that the move it then
// times asks the engine for a state it has not estimated (a tree that kept
// its last answers answered a slider moved to and fro from them).

/**
 * Sets the input `selector` of `page` to `value` as a user's input event
 * does, and resolves, once the page shows a new estimate for it and the
 * timeline's canvas shows what the DOM does, to the wall time in ms: up to
 * the first task after that, or with `frame` the task after the next
 * frame. With `marks` the change is bounded by the performance marks
 * move-start and move-end.
 * @param {any} page
 * @param {{selector: string, value: string, frame: boolean, marks: boolean}} change
 * @returns {Promise<number>}
 */
function changeAndSettle(page, change) {
  return page.evaluate(async ({ selector, value, frame, marks }) => {
    const results = document.querySelector('[data-testid=results]');
    const input = /** @type {HTMLInputElement} */ (document.querySelector(selector));
    const seq = results.getAttribute('data-seq');
    if (marks) performance.mark('move-start');
    const t0 = performance.now();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const drawn = () => {
      const plot = results.querySelector('.timeline-plot');
      return !plot || !plot.hasAttribute('data-shows') || plot.getAttribute('data-drawn') === plot.getAttribute('data-shows');
    };
    await new Promise((done) => {
      const mo = new MutationObserver(() => {
        if (results.getAttribute('data-seq') !== seq && results.getAttribute('aria-busy') === 'false' && drawn()) {
          mo.disconnect();
          done(undefined);
        }
      });
      mo.observe(results, { attributes: true, subtree: true, attributeFilter: ['data-seq', 'aria-busy', 'data-drawn', 'data-shows'] });
    });
    if (frame) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    else await new Promise((r) => setTimeout(r, 0));
    if (marks) performance.mark('move-end');
    return performance.now() - t0;
  }, change);
}

/**
 * Moves the pp slider of `page` (a Playwright page or frame) to `value`;
 * resolves to the move's wall time in ms.
 * @param {any} page
 * @param {string} value
 * @param {{toFrame?: boolean}} [options]
 * @returns {Promise<number>}
 */
export function sliderMove(page, value, { toFrame = false } = {}) {
  return changeAndSettle(page, { selector: '[data-field=pp_size] input[type=range]', value, frame: toFrame, marks: true });
}

/**
 * Types `batch` into the global batch size box of `page` and waits, untimed,
 * until the page shows its estimate and the frame after it.
 * @param {any} page
 * @param {number} batch
 * @returns {Promise<void>}
 */
export async function typeBatch(page, batch) {
  const box = '[data-field=global_batch_size] input[type=number]';
  if ((await page.locator(box).inputValue()) === String(batch)) return;
  await changeAndSettle(page, { selector: box, value: String(batch), frame: true, marks: false });
}

/**
 * typeBatch(page, batch), then sliderMove(page, value): a move to a state
 * the page has not estimated, unless `batch` was used before. Resolves to
 * the move's wall time in ms.
 * @param {any} page
 * @param {string} value
 * @param {number} batch
 * @param {{toFrame?: boolean}} [options]
 * @returns {Promise<number>}
 */
export async function coldSliderMove(page, value, batch, options = {}) {
  await typeBatch(page, batch);
  return sliderMove(page, value, options);
}
