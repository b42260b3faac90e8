// slider-move.mjs — one move of the calculator's pp slider, timed inside
// the page from the input event to every chart updated: the DOM shows a
// new estimate and the timeline's canvas, drawn by the engine's worker,
// shows what the DOM does (data-drawn = data-shows). The move ends with
// the first task after that, or, with `toFrame`, with the task after the
// next frame. The page tests and bench-page.mjs time their moves with it,
// so that they measure the same thing; performance marks move-start and
// move-end bound it for a trace.

/**
 * Moves the pp slider of `page` (a Playwright page or frame) to `value`;
 * resolves to the move's wall time in ms.
 * @param {any} page
 * @param {string} value
 * @param {{toFrame?: boolean}} [options]
 * @returns {Promise<number>}
 */
export function sliderMove(page, value, { toFrame = false } = {}) {
  return page.evaluate(async ([v, frame]) => {
    const results = document.querySelector('[data-testid=results]');
    const slider = /** @type {HTMLInputElement} */ (document.querySelector('[data-field=pp_size] input[type=range]'));
    const seq = results.getAttribute('data-seq');
    performance.mark('move-start');
    const t0 = performance.now();
    slider.value = v;
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    const drawn = () => {
      const plot = results.querySelector('.timeline-plot');
      return !plot || plot.getAttribute('data-drawn') === plot.getAttribute('data-shows');
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
    performance.mark('move-end');
    return performance.now() - t0;
  }, [value, toFrame]);
}
