// page-drop.js — files dropped anywhere on the page outside a drop zone of
// its own (an element with data-drop-zone, such as the Measured run
// panel's, which keeps its files: they never reach the inputs). Each file
// is matched against FILE_KINDS, the table of what the page-wide drop
// takes, first match first, and the files of each kind go to that kind's
// handler together; a kind that `takes` another (the trainer's files take
// the model's config.json dropped with them) gets those files too. A new
// kind is one more row here, placed before the rows it is more specific
// than, and one more handler where usePageDrop is called. A dropped folder
// is walked (within MAX_FOLDER_FILES files and MAX_FOLDER_DEPTH levels),
// each file named by its path inside the drop ("h100-4n8g/run.py"); what
// no kind takes there is left aside, not refused.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** The most bytes of a file read to tell its kind. */
const HEAD_BYTES = 4096;
/** The most files a dropped folder gives, and how deep it is walked. */
export const MAX_FOLDER_FILES = 400;
export const MAX_FOLDER_DEPTH = 6;

/** A file's name without its folders. */
export const baseName = (path) => String(path).split('/').pop() ?? '';

/** The files W&B keeps of a run, in its files/ folder. */
const WANDB_FILES = new Set(['config.yaml', 'wandb-metadata.json', 'wandb-summary.json', 'output.log']);

/**
 * What the page-wide drop takes: {kind, noun, matches(path, head,
 * inFolder), takes?}: `head` is the file's first bytes as text (its name
 * may be anything), `inFolder` whether it came inside a dropped folder,
 * `takes` the kinds whose files dropped with it go to its handler.
 * @type {readonly {kind: string, noun: string, matches: (path: string, head: string, inFolder: boolean) => boolean, takes?: string[]}[]}
 */
export const FILE_KINDS = Object.freeze([
  {
    kind: 'wandb',
    noun: 'a W&B run’s files (config.yaml, wandb-metadata.json, wandb-summary.json, output.log, or its folder)',
    matches: (path, head) => WANDB_FILES.has(baseName(path)) || /^(wandb_version:|_wandb:)/m.test(head.slice(0, 200)),
    takes: ['config'],
  },
  {
    kind: 'script',
    noun: 'a launch script (with its setup.py)',
    matches: (path, head) => /\.py$/i.test(path) || /^#!.*\bpython/.test(head),
    takes: ['config'],
  },
  {
    kind: 'log',
    noun: 'the trainer’s log (its launch line)',
    matches: (path, head, inFolder) => head.includes('launch(cfg=') || (!inFolder && (/\.(log|out|err)$/i.test(path) || head.includes('peak-gpu-memory'))),
    takes: ['config'],
  },
  {
    kind: 'config',
    noun: 'a model’s config.json',
    matches: (path, head) => head.trimStart().startsWith('{') || (/\.json$/i.test(path) && head.trim() === ''),
  },
]);

/** What the page-wide drop takes, in words: "a W&B run’s files, … or a model’s config.json". */
export function takenText() {
  const nouns = FILE_KINDS.map((k) => k.noun);
  return nouns.length > 1 ? `${nouns.slice(0, -1).join(', ')} or ${nouns.at(-1)}` : nouns[0];
}

/**
 * The kind of a file at `path` whose first bytes are `head` (text; a
 * pickle's first byte is 0x80, which is no kind's): a FILE_KINDS kind, or
 * null.
 */
export function kindOf(path, head, inFolder = false) {
  return FILE_KINDS.find((k) => k.matches(path, head, inFolder))?.kind ?? null;
}

/**
 * Sorts dropped `entries` ({path, head, inFolder, ...}) by kind: a Map of
 * kind → entries (the files a kind takes moved to it), and the paths no
 * kind takes, apart from those inside a folder (`refused`, `aside`).
 */
export function sortByKind(entries) {
  /** @type {Map<string, any[]>} */
  const byKind = new Map();
  const refused = [];
  const aside = [];
  for (const e of entries) {
    const kind = kindOf(e.path, e.head, e.inFolder);
    if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), e]);
    else (e.inFolder ? aside : refused).push(e.path);
  }
  for (const row of FILE_KINDS) {
    if (!byKind.has(row.kind)) continue;
    for (const taken of row.takes ?? []) {
      if (!byKind.has(taken)) continue;
      byKind.set(row.kind, [...byKind.get(row.kind), ...byKind.get(taken)]);
      byKind.delete(taken);
    }
  }
  return { byKind, refused, aside };
}

/** Whether a drag event carries files. */
const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');

/**
 * The files of a drop, folders walked: [{file, path, inFolder}] (path:
 * the file's path inside the drop), and how many a folder held beyond
 * MAX_FOLDER_FILES.
 * @param {DataTransfer} dt
 */
export async function droppedFiles(dt) {
  const out = [];
  let over = 0;
  const entries = [...(dt.items ?? [])].map((it) => (it.kind === 'file' ? it.webkitGetAsEntry?.() : null));
  if (!entries.length || entries.some((e) => !e)) {
    return { files: [...dt.files].map((file) => ({ file, path: file.name, inFolder: false })), over };
  }
  const fileOf = (entry) => new Promise((ok, fail) => entry.file(ok, fail));
  const children = async (dir) => {
    const reader = dir.createReader();
    const all = [];
    for (;;) {
      const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
      if (!batch.length || all.length > MAX_FOLDER_FILES) break;
      all.push(...batch);
    }
    return all;
  };
  const walk = async (entry, depth, inFolder) => {
    if (entry.isFile) {
      if (out.length >= MAX_FOLDER_FILES) over++;
      else out.push({ file: await fileOf(entry), path: entry.fullPath.replace(/^\//, ''), inFolder });
    } else if (entry.isDirectory && depth < MAX_FOLDER_DEPTH) {
      for (const child of await children(entry)) await walk(child, depth + 1, true);
    }
  };
  for (const entry of entries) await walk(entry, 0, false);
  return { files: out, over };
}

/**
 * Listens for files dropped on the page outside a drop zone of its own.
 * `handlers` maps a kind to (entries: {file, path, inFolder}[], all) =>
 * void, `all` being every kind's entries of the drop (a Map); `onRefused(text)`
 * hears what was dropped that no kind takes. Returns [dragging, open]:
 * whether files are being dragged over the page (for the overlay), and
 * open(files), which takes files from a file picker as a drop's.
 * @param {Record<string, (entries: {file: File, path: string, inFolder: boolean}[], all: Map<string, any[]>) => void>} handlers
 * @param {(text: string) => void} onRefused
 */
export function usePageDrop(handlers, onRefused) {
  const [dragging, setDragging] = useState(false);
  const latest = useRef({ handlers, onRefused });
  latest.current = { handlers, onRefused };
  const take = (files, beyond) => takeFiles(files, beyond, latest);
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
      if (!e.dataTransfer?.files?.length && !e.dataTransfer?.items?.length) return;
      e.preventDefault();
      // A drop zone of its own took these files.
      if (inZone(e)) return;
      const { files, over: beyond } = await droppedFiles(e.dataTransfer);
      await take(files, beyond);
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
  /** Files opened rather than dropped (a file picker's), taken as a drop's. */
  const open = useCallback((/** @type {FileList | File[]} */ list) => {
    take([...list].map((file) => ({ file, path: file.name, inFolder: false })), 0);
  }, []);
  return [dragging, open];
}

/**
 * Sorts dropped or opened `files` ({file, path, inFolder}) by kind and
 * hands each kind its files; says what no kind takes, and how many files
 * of a folder were `beyond` its limit.
 */
async function takeFiles(files, beyond, latest) {
  const heads = await Promise.all(files.map(async (f) => new TextDecoder().decode(new Uint8Array(await f.file.slice(0, HEAD_BYTES).arrayBuffer()))));
  const { byKind, refused } = sortByKind(files.map((f, i) => ({ ...f, head: heads[i] })));
  const taken = new Map([...byKind].filter(([kind]) => latest.current.handlers[kind]));
  for (const [kind, list] of byKind) if (!taken.has(kind)) refused.push(...list.map((f) => f.path));
  for (const [kind, list] of taken) latest.current.handlers[kind](list, taken);
  const words = [];
  if (refused.length) {
    words.push(`${refused.join(', ')}: the page takes ${takenText()} when dropped here. ` +
      'Drop snapshots and logs on the Measured run panel to compare them with the estimate.');
  }
  if (beyond) words.push(`The folder held more than ${MAX_FOLDER_FILES} files; ${beyond} were not looked at.`);
  if (words.length) latest.current.onRefused(words.join(' '));
}
