// SchedulesChart.jsx — each schedule's worst rank over the step (uPlot),
// one line a schedule on one axis: the step's time in seconds when the
// estimates have a step time, else the event index. A line is the rank's
// total at each event (tensors, non-PyTorch memory and fragmentation), a
// step line that holds until the next event; the dashed horizontal line is
// the GPU's capacity. Colours and dashes by schedule (schedules.js).

import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { Card } from './Card.jsx';
import { pointerWord } from './Timeline.jsx';
import { CANVAS_INK, chartColor } from './scheme.js';
import { useColorScheme } from './use-color-scheme.js';
import { axisGib, gib } from './format.js';
import { enumTitle } from './enum-titles.js';
import { SCHEDULE_COLORS, SCHEDULE_DASHES, scheduleNames } from './schedules.js';

const HEIGHT = 300;

function options(width, plot, scheme, capacityGib) {
  const ink = CANVAS_INK[scheme];
  const order = scheduleNames();
  const xLabel = plot.seconds ? 'time in step (s)' : 'event (as each schedule numbers them)';
  return {
    width,
    height: HEIGHT,
    legend: { show: true },
    scales: { x: { time: false } },
    cursor: { points: { show: false } },
    axes: [
      { label: xLabel, size: 40, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid } },
      { label: 'GiB', size: 46, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid }, values: (u, vals) => vals.map((v) => axisGib(v * 2 ** 30)) },
    ],
    series: [
      { label: plot.seconds ? 'time (s)' : 'event', value: (u, v) => (v === null || v === undefined ? '—' : plot.seconds ? v.toFixed(2) : String(v)) },
      ...plot.names.map((name) => {
        const i = Math.max(0, order.indexOf(name));
        return {
          label: enumTitle('schedule', name), stroke: chartColor(SCHEDULE_COLORS[i % SCHEDULE_COLORS.length], scheme), width: 1.5,
          dash: SCHEDULE_DASHES[i % SCHEDULE_DASHES.length], spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }),
          value: (u, v) => (v === null || v === undefined ? '—' : `${v.toFixed(2)} GiB`),
        };
      }),
    ],
    hooks: capacityGib > 0 ? {
      draw: [(u) => {
        const y = u.valToPos(capacityGib, 'y', true);
        if (y < u.bbox.top || y > u.bbox.top + u.bbox.height) return;
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = ink.axis;
        ctx.setLineDash([4, 4]);
        ctx.beginPath();
        ctx.moveTo(u.bbox.left, y);
        ctx.lineTo(u.bbox.left + u.bbox.width, y);
        ctx.stroke();
        ctx.restore();
      }],
    } : {},
  };
}

/**
 * Props: plot (schedulesPlot()), capacity (the GPU's bytes), answerFor and
 * note (Card's).
 */
export function SchedulesChart({ plot, capacity = 0, answerFor, note }) {
  const box = useRef(null);
  const chart = useRef(null);
  const scheme = useColorScheme();
  const capacityGib = capacity / 2 ** 30;
  useLayoutEffect(() => {
    chart.current?.destroy();
    const top = Math.max(capacityGib, ...plot.series.map((s) => Math.max(...s.filter((v) => v !== null))));
    const opts = options(box.current.clientWidth || 600, plot, scheme, capacityGib);
    opts.scales.y = { range: /** @type {[number, number]} */ ([0, top * 1.05]) };
    chart.current = new uPlot(opts, /** @type {uPlot.AlignedData} */ ([plot.x, ...plot.series]), box.current);
  }, [plot, scheme, capacityGib]);
  useEffect(() => {
    const ro = new ResizeObserver(() => {
      const width = box.current?.clientWidth;
      if (width) chart.current?.setSize({ width, height: HEIGHT });
    });
    ro.observe(box.current);
    return () => {
      ro.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, []);
  const peaks = plot.names.map((name, i) => `${enumTitle('schedule', name)} ${gib(Math.max(...plot.series[i].filter((v) => v !== null)) * 2 ** 30)}`);
  return (
    <Card answerFor={answerFor} note={note} class="chart schedules-chart" aria-labelledby="schedules-chart-title" data-testid="schedules-chart">
      <h2 id="schedules-chart-title">Each schedule’s worst rank over the step</h2>
      <p class="help">
        One line a schedule: its worst rank’s memory after each op (tensors, non-PyTorch memory and fragmentation), on one
        {plot.seconds ? ' time axis, in seconds from the step’s start' : ' axis of events (no step time without a GPU preset)'}.
        {capacity > 0 ? ' Dashed grey: the GPU’s capacity.' : ''} {pointerWord()} the chart for each one’s value at a point.
      </p>
      <div ref={box} class="uplot-box" role="img" data-series={plot.names.join(',')} data-axis={plot.seconds ? 'seconds' : 'events'}
        aria-label={`Memory over the step of each schedule's worst rank; the highest point of each: ${peaks.join(', ')}.`} />
    </Card>
  );
}
