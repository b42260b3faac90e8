// Outside.jsx — text that came from outside the page (a file's name, a
// config's keys, a log's line, a message that quotes them) as the page
// shows it: isolated, so that its direction cannot reorder the text around
// it (<bdi>), and with every character that moves or reorders text made
// visible as \uXXXX, as the CLI writes such text (core/text_escape.c: the
// C0 and C1 controls, DEL, the Arabic letter mark, LRM and RLM, the line
// and paragraph separators, the bidi embeddings, overrides and isolates).
// Tab and newline stay (the page's layout decides how they look).

/** The characters the CLI never writes raw (text_escape.c's unsafe()), tab and newline apart. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** `text` with each unsafe character as \uXXXX: "caf\u202egnp.json". */
export function visible(text) {
  return String(text ?? '').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Props: text (from outside), class. Renders it isolated (<bdi>) with its
 * unsafe characters visible.
 * @param {{text: unknown, class?: string}} props
 */
export function Outside({ text, class: cls = '' }) {
  return <bdi class={`outside${cls ? ` ${cls}` : ''}`}>{visible(text)}</bdi>;
}
