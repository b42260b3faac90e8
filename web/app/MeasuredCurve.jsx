// MeasuredCurve.jsx — the measured allocated bytes of the recorded step
// (uPlot), under the estimate's timeline: the snapshot records wall-clock
// time and the estimate schedule events, so both go on a normalised axis
// (0 = the start of each, 1 = its end) and are not aligned in time. The
// estimate is the dashed line; the hover's values carry their unit.

import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { curveData } from './measured.js';
import { gib, axisGib } from './format.js';
import { Card } from './Card.jsx';
import { pointerWord } from './Timeline.jsx';
import { CANVAS_INK, chartColor } from './scheme.js';
import { useColorScheme } from './use-color-scheme.js';
import { Outside, visible } from './Outside.jsx';

/** A series' value in the hover's legend, with its unit. */
function gibValue(u, v) {
  return v === null || v === undefined ? '—' : `${v.toFixed(2)} GiB`;
}

function options(width, height, withEstimate, scheme) {
  const ink = CANVAS_INK[scheme];
  return {
    width,
    height,
    legend: { show: true },
    scales: { x: { time: false, range: /** @type {[number, number]} */ ([0, 1]) } },
    cursor: { points: { show: false } },
    axes: [
      { label: 'fraction of the step (normalised, not aligned in time)', size: 40, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid } },
      { label: 'GiB', size: 46, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid }, values: (u, vals) => vals.map((v) => axisGib(v * 2 ** 30)) },
    ],
    series: [
      { label: 'fraction of the step', value: (u, v) => (v === null || v === undefined ? '—' : v.toFixed(3)) },
      { label: 'measured allocated', stroke: ink.peak, width: 1.5, spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }), value: gibValue },
      ...(withEstimate ? [{ label: 'estimated tensors (dashed)', stroke: chartColor('#2c6fbb', scheme), width: 1.5, dash: [6, 4], spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }), value: gibValue }] : []),
    ],
  };
}

/**
 * Props: snap ({name, ppRank, data}), timeline (the estimate's shown rank,
 * or null), answerFor (Card's: the cards read their note from StaleNote).
 */
export function MeasuredCurve({ snap, timeline, height = 220, answerFor }) {
  const box = useRef(null);
  const plot = useRef(null);
  const same = timeline && timeline.pp_rank === snap.ppRank ? timeline : null;
  const data = useMemo(() => curveData(snap.data, same), [snap, same]);
  const scheme = useColorScheme();
  useLayoutEffect(() => {
    const cols = /** @type {uPlot.AlignedData} */ (same ? [data.x, data.measured, data.estimated] : [data.x, data.measured]);
    plot.current?.destroy();
    plot.current = new uPlot(options(box.current.clientWidth || 600, height, !!same, scheme), cols, box.current);
  }, [data, scheme]);
  useEffect(() => {
    const ro = new ResizeObserver(() => {
      const width = box.current?.clientWidth;
      if (width) plot.current?.setSize({ width, height });
    });
    ro.observe(box.current);
    return () => {
      ro.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);
  const d = snap.data;
  return (
    <Card answerFor={answerFor} class="chart measured-curve" aria-labelledby="measured-curve-title" data-testid="measured-curve">
      <h2 id="measured-curve-title">Measured across the recorded step (<Outside text={snap.name} />, pp rank {snap.ppRank >= 0 ? snap.ppRank : '?'})</h2>
      <p class="help">
        Peak {gib(d.peak_allocated_bytes)} allocated over {d.events} trace entries; {gib(d.start_allocated_bytes)} was
        allocated before the window. Solid: the measured allocated bytes.{same ? ' Dashed: the estimate’s tensors of the same rank, on the same normalised axis (the two are not aligned in time).' : ' Show the timeline of the same pipeline rank to draw the estimate beside it.'}
        {' '}{pointerWord()} the chart for the values at a point; the dotted vertical line follows the pointer.
      </p>
      <div ref={box} class="uplot-box" role="img"
        aria-label={`Measured allocated bytes of ${visible(snap.name)} over the recorded step, peaking at ${gib(d.peak_allocated_bytes)}.`} />
    </Card>
  );
}
