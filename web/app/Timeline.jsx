// Timeline.jsx — memory across the pipeline schedule (uPlot): the shown
// rank's components stacked per event on non-PyTorch memory, with
// fragmentation on top (so the top at the peak is the headline), the GPU's
// capacity as a line, the schedule's steps (1–8) marked and the peak
// marked; hovering shows the event's label, its live chunks and every
// component.

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { timelineData, sampleRows, stepLabel } from './timeline-data.js';
import { partColor, partLabel } from './palette.js';
import { gib, mem, count, axisGib } from './format.js';
import { Numbers } from './Numbers.jsx';
import { CANVAS_INK, chartColor, useColorScheme } from './scheme.js';
import { stepEvent } from './timeline-keys.js';
import { stepAreas } from './step-areas.js';

/**
 * The x axis title for a chart `width` px wide: the long one is cut off
 * on a phone, where the plot is narrower than it.
 */
function xAxisLabel(width) {
  return width < 480 ? 'event (steps 1–8 above)' : 'event in the schedule (steps 1–8 marked above)';
}

function chartOptions(width, height, keys, ref, scheme) {
  const top = keys.slice().reverse();
  const ink = CANVAS_INK[scheme];
  const areas = stepAreas();
  return {
    width,
    height,
    legend: { show: false },
    scales: {
      x: { time: false },
      // Room for the capacity line even when the run is far below it.
      y: {
        range: /** @type {(u: any, min: number, max: number) => [number, number]} */ (
          (u, min, max) => [0, Math.max(max, (ref.current.capacity ?? 0) / 2 ** 30) * 1.06]),
      },
    },
    cursor: { points: { show: false }, drag: { x: true, y: false } },
    axes: [
      { label: (u) => xAxisLabel(u.width), size: 40, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid }, ticks: { stroke: ink.grid } },
      { label: 'GiB', size: 46, labelSize: 18, stroke: ink.axis, grid: { stroke: ink.grid }, ticks: { stroke: ink.grid }, values: (u, vals) => vals.map((v) => axisGib(v * 2 ** 30)) },
    ],
    series: [
      { label: 'event' },
      ...top.map((k) => ({ label: partLabel(k), stroke: chartColor(partColor(k), scheme), fill: chartColor(partColor(k), scheme), width: 0, paths: areas })),
    ],
    hooks: {
      setCursor: [(u) => ref.current.onHover(u.cursor.idx)],
      draw: [(u) => {
        drawSteps(u, ref.current.data, ink);
        drawCapacity(u, ref.current.capacity, ink);
        drawPeak(u, ref.current.data, ink.peak);
      }],
    },
  };
}

/** A faint line where each schedule step begins, labelled at the top. */
function drawSteps(u, data, ink) {
  if (!data?.steps?.length) return;
  const { top, height, left, width } = u.bbox;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = ink.step;
  ctx.lineWidth = uPlot.pxRatio;
  ctx.fillStyle = ink.text;
  ctx.font = `${11 * uPlot.pxRatio}px sans-serif`;
  ctx.textAlign = 'left';
  let lastLabel = -Infinity;
  for (const { pos, step } of data.steps) {
    const px = u.valToPos(data.x[pos], 'x', true);
    if (px < left || px > left + width) continue;
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, top + height);
    ctx.stroke();
    if (px - lastLabel >= 22 * uPlot.pxRatio) {
      ctx.fillText(stepLabel(step), px + 2 * uPlot.pxRatio, top + 11 * uPlot.pxRatio);
      lastLabel = px;
    }
  }
  ctx.restore();
}

/** The GPU's capacity as a horizontal line, labelled at the right. */
function drawCapacity(u, capacity, ink) {
  if (!(capacity > 0)) return;
  const py = u.valToPos(capacity / 2 ** 30, 'y', true);
  const { top, height, left, width } = u.bbox;
  if (py < top || py > top + height) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = ink.text;
  ctx.lineWidth = 1.5 * uPlot.pxRatio;
  ctx.setLineDash([3 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
  ctx.beginPath();
  ctx.moveTo(left, py);
  ctx.lineTo(left + width, py);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = ink.text;
  ctx.font = `${11 * uPlot.pxRatio}px sans-serif`;
  ctx.textAlign = 'right';
  ctx.fillText(`capacity ${gib(capacity, 1)}`, left + width - 4 * uPlot.pxRatio, py - 4 * uPlot.pxRatio);
  ctx.restore();
}

function drawPeak(u, data, color) {
  if (!data || data.peakPos < 0) return;
  const px = u.valToPos(data.x[data.peakPos], 'x', true);
  const { top, height, left, width } = u.bbox;
  if (px < left || px > left + width) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2 * uPlot.pxRatio;
  ctx.setLineDash([6 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
  ctx.beginPath();
  ctx.moveTo(px, top);
  ctx.lineTo(px, top + height);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = color;
  ctx.font = `${12 * uPlot.pxRatio}px sans-serif`;
  ctx.textAlign = px > left + width / 2 ? 'right' : 'left';
  ctx.fillText('peak', px + (ctx.textAlign === 'left' ? 4 : -4) * uPlot.pxRatio, top + 14 * uPlot.pxRatio);
  ctx.restore();
}

function HoverPanel({ rank, data, pos, compact, scheme, live }) {
  const e = rank.events[pos];
  if (!e) return null;
  let parts = data.keys.map((k, i) => [k, data.raw[i][pos]]).filter(([, b]) => b > 0).reverse();
  if (compact) parts = parts.sort((a, b) => b[1] - a[1]).slice(0, 5);
  return (
    <div class="hover-panel" aria-live={live ? 'polite' : 'off'} data-testid="timeline-hover">
      <p class="hover-event">
        <strong>{pos === data.peakPos ? 'Peak, ' : ''}event {e.index}</strong>: <span class="event-label">{e.label}</span>
      </p>
      <p>live chunks {e.live_chunks.join(' / ')} · tensors after the op {gib(e.total_bytes)} · inside the op {gib(e.peak_bytes)}</p>
      <ul class="hover-parts">
        {parts.map(([k, b]) => <li key={k}><span class="swatch" style={{ background: chartColor(partColor(k), scheme) }} aria-hidden="true" />{partLabel(k)} {mem(b)}</li>)}
      </ul>
    </div>
  );
}

function NumbersTable({ rank, data }) {
  const [all, setAll] = useState(false);
  const sampled = sampleRows(data.x.length, data.peakPos);
  const rows = all ? Array.from({ length: data.x.length }, (_, i) => i) : sampled;
  return (
    <Numbers summary={`Numbers (${rows.length} of ${count(data.x.length)} events)`}>{() => (
      <>
      {sampled.length < data.x.length && (
        <button type="button" class="show-all" aria-pressed={all ? 'true' : 'false'} onClick={() => setAll(!all)} data-testid="timeline-all">
          {all ? `Show ${sampled.length} sampled events` : `Show all ${count(data.x.length)} events`}
        </button>
      )}
      <table>
        <caption class="visually-hidden">Tensor memory across the schedule, rank {rank.pp_rank}</caption>
        <thead><tr><th scope="col">Event</th><th scope="col">Op</th><th scope="col">Live chunks</th><th scope="col">Inside the op</th><th scope="col">After the op</th></tr></thead>
        <tbody>
          {rows.map((i) => {
            const e = rank.events[i];
            return (
              <tr key={i} class={i === data.peakPos ? 'worst-row' : ''}>
                <th scope="row">{e.index}{i === data.peakPos ? ' (peak)' : ''}</th>
                <td>{e.label}</td><td>{e.live_chunks.join(' / ')}</td><td>{gib(e.peak_bytes)}</td><td>{gib(e.total_bytes)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </>
    )}</Numbers>
  );
}

/**
 * Props: rank (a result rank with events), capacity (the GPU's bytes, drawn
 * as a line), height (px), compact (embed).
 */
export function Timeline({ rank, capacity = 0, height = 260, compact = false }) {
  const box = useRef(null);
  const plot = useRef(null);
  const data = useMemo(() => timelineData(rank), [rank]);
  const [hover, setHover] = useState(null);
  const [keyed, setKeyed] = useState(false);
  const scheme = useColorScheme();
  const ref = useRef({ data, height, capacity, onHover: /** @type {(idx: number | null) => void} */ (() => {}) });
  ref.current.data = data;
  ref.current.capacity = capacity;
  ref.current.height = height;
  ref.current.onHover = (idx) => setHover(idx ?? null);

  useLayoutEffect(() => {
    if (!data) return;
    const cols = [data.x, ...data.series];
    const shape = `${scheme}:${data.keys.join()}`;
    if (plot.current && plot.current.shape !== shape) {
      plot.current.destroy();
      plot.current = null;
    }
    if (!plot.current) {
      plot.current = new uPlot(chartOptions(box.current.clientWidth || 600, height, data.keys, ref, scheme), cols, box.current);
      plot.current.shape = shape;
    } else {
      plot.current.setData(cols);
    }
  }, [data, scheme]);
  useEffect(() => {
    const ro = new ResizeObserver(() => {
      const width = box.current?.clientWidth;
      if (width) plot.current?.setSize({ width, height: ref.current.height });
    });
    ro.observe(box.current);
    return () => {
      ro.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);

  const pos = hover ?? (data ? data.peakPos : -1);
  // Arrow keys, Page Up / Down, Home and End walk the events (timeline-keys.js).
  const onKeyDown = (e) => {
    const to = data ? stepEvent(e.key, pos, data.x.length, data.peakPos) : null;
    if (to === null) return;
    e.preventDefault();
    setKeyed(true);
    const u = plot.current;
    if (u) u.setCursor({ left: u.valToPos(data.x[to], 'x'), top: u.bbox.height / uPlot.pxRatio / 2 });
    setHover(to);
  };
  return (
    <section class="chart timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Memory across the schedule (rank {rank.pp_rank})</h2>
      {data?.window && (
        <p class="help" data-testid="timeline-window">
          A window of {count(data.x.length)} of the schedule’s {count(data.total)} events, centred on the peak.
        </p>
      )}
      <div ref={box} class="uplot-box" role="img" tabIndex={data ? 0 : undefined} onKeyDown={onKeyDown}
        aria-label={`Stacked memory of rank ${rank.pp_rank} over ${count(data?.x.length ?? 0)} events, non-PyTorch memory and fragmentation included; the peak, ${gib(rank.peak_bytes ?? rank.tensor_peak_bytes)} in all (${gib(rank.tensor_peak_bytes)} of tensors), is at event ${rank.peak_event_index}${capacity > 0 ? `; capacity ${gib(capacity)}` : ''}. Hover, or focus and use the arrow keys, for each event; the table below has the numbers.`} />
      {!data && <p class="help">This rank carries no timeline.</p>}
      {data && pos >= 0 && <HoverPanel rank={rank} data={data} pos={pos} compact={compact} scheme={scheme} live={keyed} />}
      {data && <NumbersTable rank={rank} data={data} />}
    </section>
  );
}
