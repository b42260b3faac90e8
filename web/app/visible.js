// visible.js — text from outside the page (a file's name, a config's keys,
// a log's line) with every character that moves or reorders text made
// visible as \uXXXX, as the CLI writes such text (core/base/text_escape.c: the
// C0 and C1 controls, DEL, the Arabic letter mark, LRM and RLM, the line
// and paragraph separators, the bidi embeddings, overrides and isolates).
// Tab and newline stay. Outside.jsx shows such text isolated as well.

/** The characters the CLI never writes raw (text_escape.c's unsafe()), tab and newline apart. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** `text` with each unsafe character as \uXXXX: "caf\u202egnp.json". */
export function visible(text) {
  return String(text ?? '').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
