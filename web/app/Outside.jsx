// Outside.jsx — text that came from outside the page (a file's name, a
// config's keys, a log's line, a message that quotes them) as the page
// shows it: isolated, so that its direction cannot reorder the text around
// it (<bdi>), and with every character that moves or reorders text made
// visible as \uXXXX (visible.js), as the CLI writes such text.

import { visible } from './visible.js';

export { visible };

/**
 * Props: text (from outside), class. Renders it isolated (<bdi>) with its
 * unsafe characters visible.
 * @param {{text: unknown, class?: string}} props
 */
export function Outside({ text, class: cls = '' }) {
  return <bdi class={`outside${cls ? ` ${cls}` : ''}`}>{visible(text)}</bdi>;
}
