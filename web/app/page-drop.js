// page-drop.js — files dropped anywhere on the page outside a drop zone of
// its own (an element with data-drop-zone, such as the Measured run
// panel's, which keeps its files: they never reach the model). Each file
// is matched against FILE_KINDS, the table of what the page-wide drop
// takes, first match first, and the files of each kind go to that kind's
// handler together. A new kind (a launch script with its setup.py, a log,
// a W&B run's files) is one more row here, placed before the rows it is
// more specific than, and one more handler where usePageDrop is called.

import { useEffect, useRef, useState } from 'preact/hooks';

/** The most bytes of a file read to tell its kind. */
const HEAD_BYTES = 4096;

/**
 * What the page-wide drop takes: {kind, noun, matches(name, head)}, `head`
 * the file's first bytes as text (its name may be anything).
 * @type {readonly {kind: string, noun: string, matches: (name: string, head: string) => boolean}[]}
 */
export const FILE_KINDS = Object.freeze([
  {
    kind: 'config',
    noun: 'a model’s config.json',
    matches: (name, head) => head.trimStart().startsWith('{') || (/\.json$/i.test(name) && head.trim() === ''),
  },
]);

/** What the page-wide drop takes, in words: "a model’s config.json". */
export function takenText() {
  const nouns = FILE_KINDS.map((k) => k.noun);
  return nouns.length > 1 ? `${nouns.slice(0, -1).join(', ')} or ${nouns.at(-1)}` : nouns[0];
}

/**
 * The kind of a file called `name` whose first bytes are `head` (text;
 * a pickle's first byte is 0x80, which is no kind's): a FILE_KINDS kind,
 * or null.
 */
export function kindOf(name, head) {
  return FILE_KINDS.find((k) => k.matches(name, head))?.kind ?? null;
}

/** Whether a drag event carries files. */
const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');

/**
 * Listens for files dropped on the page outside a drop zone of its own.
 * `handlers` maps a kind to (files: File[]) => void; `onRefused(text)`
 * hears what was dropped that no kind takes. Returns whether files are
 * being dragged over the page (for the overlay).
 * @param {Record<string, (files: File[]) => void>} handlers
 * @param {(text: string) => void} onRefused
 */
export function usePageDrop(handlers, onRefused) {
  const [dragging, setDragging] = useState(false);
  const latest = useRef({ handlers, onRefused });
  latest.current = { handlers, onRefused };
  useEffect(() => {
    const inZone = (e) => e.target instanceof Element && e.target.closest('[data-drop-zone]') !== null;
    const over = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(!inZone(e));
    };
    const leave = (e) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = async (e) => {
      setDragging(false);
      if (!e.dataTransfer?.files?.length) return;
      e.preventDefault();
      // A drop zone of its own took these files.
      if (inZone(e)) return;
      const files = [...e.dataTransfer.files];
      /** @type {Map<string, File[]>} */
      const byKind = new Map();
      const refused = [];
      for (const file of files) {
        const head = new TextDecoder().decode(new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer()));
        const kind = kindOf(file.name, head);
        if (kind && latest.current.handlers[kind]) byKind.set(kind, [...(byKind.get(kind) ?? []), file]);
        else refused.push(file.name);
      }
      for (const [kind, list] of byKind) latest.current.handlers[kind](list);
      if (refused.length) {
        latest.current.onRefused(`${refused.join(', ')}: the page takes ${takenText()} when dropped here. ` +
          'Drop snapshots and logs on the Measured run panel to compare them with the estimate.');
      }
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return dragging;
}
