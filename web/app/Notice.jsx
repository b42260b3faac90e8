// Notice.jsx — a message about the page itself (a link that could not be
// read, fields of a link that were ignored), with a close button.

/** Props: notice ({kind: "error"|"info", text, details?: string[], after?: string}), onClose. */
export function Notice({ notice, onClose }) {
  if (!notice) return null;
  return (
    <div class={`notice notice-${notice.kind}`} role="alert" data-testid="notice">
      <p>{notice.text}</p>
      {notice.details?.length > 0 && (
        <ul>{notice.details.slice(0, 8).map((d, i) => <li key={i}>{d}</li>)}</ul>
      )}
      {notice.after && <p class="notice-after">{notice.after}</p>}
      <button type="button" onClick={onClose} aria-label="Close this message">Close</button>
    </div>
  );
}
