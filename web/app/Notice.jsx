// Notice.jsx — a message about the page itself (a link that could not be
// read, fields of a link that were ignored), with a close button. What it
// quotes of the link is shown isolated, its controls visible (Outside.jsx).

import { Outside } from './Outside.jsx';

/** Props: notice ({kind: "error"|"info", text, details?: string[], after?: string}), onClose. */
export function Notice({ notice, onClose }) {
  if (!notice) return null;
  return (
    <div class={`notice notice-${notice.kind}`} role="alert" data-testid="notice">
      <p><Outside text={notice.text} /></p>
      {notice.details?.length > 0 && (
        <ul>{notice.details.slice(0, 8).map((d, i) => <li key={i}><Outside text={d} /></li>)}</ul>
      )}
      {notice.after && <p class="notice-after">{notice.after}</p>}
      <button type="button" onClick={onClose} aria-label="Close this message">Close</button>
    </div>
  );
}
