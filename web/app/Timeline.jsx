// Timeline.jsx — memory across the pipeline schedule: the shown rank's
// components stacked per event (along the step's time when the estimate
// has one, else along the events) on non-PyTorch memory, with fragmentation
// on top (so the top at the peak is the headline), the GPU's capacity as a
// line, the schedule's steps (1–8) marked and the peak marked; hovering
// (or the arrow keys) shows the event's label, its live chunks and every
// component's size (at rest the readout is the peak's, its sizes left to
// the breakdown's table); dragging across the plot zooms into those
// events, a double click shows them all again. The canvas is drawn here,
// in the render's layout effect (timeline-plot.js).

import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { timelineData, eventParts, sampleRows, keptEvents, eventX, peakPosition } from './timeline-data.js';
import { paintTimeline, plotBox, xRange, eventAt, eventPx, valueAt, xAxisTitle, MARGIN } from './timeline-plot.js';
import { partColor, partLabel } from './palette.js';
import { gib, mem, count, duration } from './format.js';
import { Numbers } from './Numbers.jsx';
import { chartColor } from './scheme.js';
import { useColorScheme } from './use-color-scheme.js';
import { stepEvent } from './timeline-keys.js';
import { PartName } from './PartName.jsx';
import { Card } from './Card.jsx';

/** The least drag, in px, that zooms. */
const MIN_DRAG = 5;

/**
 * The readout under the plot: the event at `pos`, its live chunks and its
 * components, which are also the chart's colour key. At rest (no pointer,
 * no keys) it is the peak, whose sizes the breakdown's table lists: the key
 * then names every component the chart draws (`keys`), without sizes, so that a slider's move changes
 * a few lines here rather than every one (each changed line is laid out and
 * painted again).
 */
function HoverPanel({ rank, pos, peakPos, compact, scheme, live, atRest, keys, at }) {
  const e = rank.events[pos];
  if (!e) return null;
  let parts = eventParts(rank, pos).reverse();
  if (compact) parts = parts.sort((a, b) => b[1] - a[1]).slice(0, 5);
  // At rest the list is the chart's key: every component the chart draws,
  // those of no bytes at the peak (the optimizer step's, say) included.
  else if (atRest && keys) parts = keys.slice().reverse().map((k) => [k, 0]);
  return (
    <div class="hover-panel" aria-live={live ? 'polite' : 'off'} data-testid="timeline-hover">
      <p class="hover-event">
        <strong>{pos === peakPos ? 'Peak, ' : ''}event {e.index}</strong>: <span class="event-label">{e.label}</span>
      </p>
      <p>{at !== null ? `its op ends ${duration(at)} into the step · ` : ''}live chunks {e.live_chunks.join(' / ')} · tensors after the op {gib(e.total_bytes)} · inside the op {gib(e.peak_bytes)}</p>
      <ul class="hover-parts">
        {parts.map(([k, b]) => (
          <li key={k}><PartName label={atRest ? partLabel(k) : `${partLabel(k)} ${mem(b)}`} color={chartColor(partColor(k), scheme)} /></li>
        ))}
      </ul>
      {atRest && <p class="help">{pointerWord()}, or focus the chart and use the arrow keys, for the sizes at each event; the peak’s are in the breakdown above.</p>}
    </div>
  );
}

function NumbersTable({ rank, n, peakPos, times }) {
  const [all, setAll] = useState(false);
  const sampled = sampleRows(n, peakPos);
  const rows = all ? Array.from({ length: n }, (_, i) => i) : sampled;
  return (
    <Numbers summary={`Numbers (${rows.length} of ${count(n)} events)`}>{() => (
      <>
      {sampled.length < n && (
        <button type="button" class="show-all" aria-pressed={all ? 'true' : 'false'} onClick={() => setAll(!all)} data-testid="timeline-all">
          {all ? `Show ${sampled.length} sampled events` : `Show all ${count(n)} events`}
        </button>
      )}
      <table>
        <caption class="visually-hidden">Tensor memory across the schedule, rank {rank.pp_rank}</caption>
        <thead><tr><th scope="col">Event</th>{times && <th scope="col">Op ends</th>}<th scope="col">Op</th><th scope="col">Live chunks</th><th scope="col">Inside the op</th><th scope="col">After the op</th></tr></thead>
        <tbody>
          {rows.map((i) => {
            const e = rank.events[i];
            return (
              <tr key={i} class={i === peakPos ? 'worst-row' : ''}>
                <th scope="row">{e.index}{i === peakPos ? ' (peak)' : ''}</th>
                {times && <td>{duration(times[i])}</td>}
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

/** The chart's width in CSS px and the display's pixel ratio, as they change. */
function useSize(box) {
  const [size, setSize] = useState({ width: 0, dpr: 1 });
  useLayoutEffect(() => {
    const measure = () => {
      const width = box.current?.clientWidth ?? 0;
      const dpr = typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1;
      if (width > 0) setSize((s) => (s.width === width && s.dpr === dpr ? s : { width, dpr }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(box.current);
    return () => ro.disconnect();
  }, []);
  return size;
}

/** Whether the page is used with a finger (read once: a screen does not change its pointer). */
let coarse = /** @type {boolean | null} */ (null);

/** "Hover" with a mouse, "Touch" on a touch screen. */
export function pointerWord() {
  coarse ??= typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  return coarse ? 'Touch' : 'Hover';
}

/**
 * Props: rank (a result rank with events), capacity (the GPU's bytes, drawn
 * as a line), height (px), compact (embed), answerFor (Card's: the cards read their note from StaleNote).
 */
export function Timeline({ rank, capacity = 0, height = 260, compact = false, answerFor }) {
  const box = useRef(null);
  const canvas = useRef(null);
  const n = keptEvents(rank);
  // Each event's x (its time in the step, else its index), for the pointer and the keys.
  const { x, seconds } = useMemo(() => eventX(rank), [rank]);
  const peakPos = useMemo(() => peakPosition(rank), [rank]);
  const data = useMemo(() => timelineData(rank), [rank]);
  const [hover, setHover] = useState(/** @type {number | null} */ (null));
  const [keyed, setKeyed] = useState(false);
  // A zoom belongs to the rank it was made on: a new estimate shows every event.
  const [zoomed, setZoomed] = useState(/** @type {{rank: any, range: [number, number]} | null} */ (null));
  const zoom = zoomed && zoomed.rank === rank ? zoomed.range : null;
  const [drag, setDrag] = useState(/** @type {{from: number, to: number} | null} */ (null));
  const scheme = useColorScheme();
  const { width, dpr } = useSize(box);
  const look = { width: width || 600, height, dpr, scheme, zoom };
  useLayoutEffect(() => {
    if (canvas.current) paintTimeline(canvas.current, look, data, capacity);
  }, [data, capacity, look.width, height, dpr, scheme, zoom?.[0], zoom?.[1]]);

  const plot = plotBox(look.width, height);
  const range = n ? xRange(x, zoom) : /** @type {[number, number]} */ ([0, 1]);
  const pos = hover ?? peakPos;
  const atPointer = (ev) => ev.clientX - ev.currentTarget.getBoundingClientRect().left;
  const onPointerDown = (ev) => {
    if (ev.button !== 0 || !n) return;
    const at = atPointer(ev);
    ev.currentTarget.setPointerCapture?.(ev.pointerId);
    setDrag({ from: at, to: at });
  };
  const onPointerMove = (ev) => {
    if (!n) return;
    const at = atPointer(ev);
    if (drag) setDrag({ ...drag, to: at });
    // An event index snaps to the nearest; seconds take the event whose memory holds there.
    setHover(eventAt(x, range, at, plot.width, seconds ? 0 : 0.5));
  };
  const onPointerUp = (ev) => {
    if (!drag) return;
    const [a, b] = [drag.from, atPointer(ev)].sort((p, q) => p - q);
    setDrag(null);
    if (b - a < MIN_DRAG) return;
    setZoomed({ rank, range: [valueAt(range, a, plot.width), valueAt(range, b, plot.width)] });
  };
  // Arrow keys, Page Up / Down, Home and End walk the events (timeline-keys.js).
  const onKeyDown = (e) => {
    const to = stepEvent(e.key, pos, n, peakPos);
    if (to === null) return;
    e.preventDefault();
    setKeyed(true);
    setHover(to);
  };
  const cursorAt = hover !== null && n ? eventPx(x[hover], range, plot.width) : -1;
  return (
    <Card answerFor={answerFor} class="chart timeline" aria-labelledby="timeline-title" data-testid="timeline">
      <h2 id="timeline-title">Memory across the schedule (rank {rank.pp_rank})</h2>
      {n < rank.events_total && (
        <p class="help" data-testid="timeline-window">
          A window of {count(n)} of the schedule’s {count(rank.events_total)} events, centred on the peak.
        </p>
      )}
      <div ref={box} class="timeline-plot" role="img" tabIndex={n ? 0 : undefined} onKeyDown={onKeyDown}
        style={{ height: `${height}px` }} data-x-title={data ? xAxisTitle(look.width, data.steps, seconds) : undefined}
        aria-label={`Stacked memory of rank ${rank.pp_rank} over ${count(n)} events${seconds ? `, along the step's time from ${duration(x[0])} to ${duration(x[n - 1])}` : ''}, non-PyTorch memory and fragmentation included; the peak, ${gib(rank.peak_bytes ?? rank.tensor_peak_bytes)} in all (${gib(rank.tensor_peak_bytes)} of tensors), is at event ${rank.peak_event_index}${capacity > 0 ? `; capacity ${gib(capacity)}` : ''}. Hover, or focus and use the arrow keys, for each event; drag across it to zoom in, double-click to show every event; the table below has the numbers.`}>
        <canvas ref={canvas} />
        {n > 0 && (
          <div class="timeline-over" data-testid="timeline-over"
            style={{ left: `${MARGIN.left}px`, top: `${MARGIN.top}px`, width: `${plot.width}px`, height: `${plot.height}px` }}
            onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp}
            onPointerCancel={() => setDrag(null)} onPointerLeave={() => !drag && setHover(null)}
            onDblClick={() => setZoomed(null)}>
            {cursorAt >= 0 && cursorAt <= plot.width && <div class="timeline-cursor" style={{ left: `${Math.round(cursorAt)}px` }} />}
            {drag && <div class="timeline-select" style={{ left: `${Math.max(0, Math.min(drag.from, drag.to))}px`, width: `${Math.abs(drag.to - drag.from)}px` }} />}
          </div>
        )}
      </div>
      {n === 0 && <p class="help">This rank carries no timeline.</p>}
      {n > 0 && pos >= 0 && <HoverPanel rank={rank} pos={pos} peakPos={peakPos} compact={compact} scheme={scheme} live={keyed}
        atRest={hover === null} keys={data?.keys} at={seconds ? x[pos] : null} />}
      {n > 0 && <NumbersTable rank={rank} n={n} peakPos={peakPos} times={seconds ? x : null} />}
    </Card>
  );
}
