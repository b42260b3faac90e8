// Numbers.jsx — a chart's numbers as a table behind a disclosure; the table
// is built only while it is open, so a closed one costs nothing per update.

import { useState } from 'preact/hooks';

/** Props: summary (text), children (a function returning the table). */
export function Numbers({ summary, children }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="numbers" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children()}
    </details>
  );
}
