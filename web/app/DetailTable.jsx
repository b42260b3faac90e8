// DetailTable.jsx — the per-tensor tables at the peak (result.detail),
// behind a disclosure; opening it asks the engine for them.

import { mem, count } from './format.js';
import { Card } from './Card.jsx';

function cell(key, value) {
  if (typeof value === 'number') return /bytes/.test(key) ? mem(value) : count(value);
  if (Array.isArray(value)) return value.join(' / ');
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value ?? '');
}

function Table({ title, rows }) {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    <div class="detail-table">
      <table>
        <caption>{title}</caption>
        <thead><tr>{cols.map((c) => <th key={c} scope="col">{c.replace(/_/g, ' ')}</th>)}</tr></thead>
        <tbody>
          {rows.map((r, i) => <tr key={i}>{cols.map((c) => <td key={c} class={typeof r[c] === 'number' ? 'num' : ''}>{cell(c, r[c])}</td>)}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

/** The tables inside `detail`: every list of objects, named by its path. */
export function tablesOf(detail, path = []) {
  const out = [];
  if (Array.isArray(detail)) {
    if (detail.length && detail.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
      out.push({ title: path.join(' › ') || 'tensors', rows: detail });
    }
    return out;
  }
  if (detail && typeof detail === 'object') {
    for (const [k, v] of Object.entries(detail)) out.push(...tablesOf(v, [...path, k.replace(/_/g, ' ')]));
  }
  return out;
}

/** The scalar facts of `detail` (its numbers, texts and short lists). */
export function factsOf(detail) {
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return [];
  return Object.entries(detail).filter(([, v]) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => typeof x !== 'object')));
}

/** Props: open, onToggle(open), detail (result.detail or undefined), answerFor (Card's: the cards read their note from StaleNote). */
export function DetailTable({ open, onToggle, detail, answerFor }) {
  const tables = open && detail ? tablesOf(detail) : [];
  const facts = open && detail ? factsOf(detail) : [];
  return (
    <Card answerFor={answerFor} class="detail" aria-label="Per-tensor detail at the peak" data-testid="detail">
    <details open={open} onToggle={(e) => e.currentTarget.open !== open && onToggle(e.currentTarget.open)}>
      <summary>Per-tensor detail at the peak</summary>
      {open && !detail && <p class="help">Loading…</p>}
      {open && detail && tables.length === 0 && <p class="help">The engine gave no per-tensor tables for this run.</p>}
      {facts.length > 0 && (
        <dl class="detail-facts">
          {facts.map(([k, v]) => <div key={k}><dt>{k.replace(/_/g, ' ')}</dt><dd>{cell(k, v)}</dd></div>)}
        </dl>
      )}
      {tables.map((t) => <Table key={t.title} title={t.title} rows={t.rows} />)}
    </details>
    </Card>
  );
}
