#!/usr/bin/env node
// function-lengths.mjs — how long the C functions are: the median and the
// 90th percentile of lines per function body (the lines between the
// opening and the closing brace) over core/*/*.c and cli/*.c, plus the
// longest few. A figure for keeping functions short, not a test.
//
// Usage: node scripts/function-lengths.mjs [repository root] [--list N]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const listAt = args.indexOf('--list');
const shown = listAt >= 0 ? Number(args.splice(listAt, 2)[1]) : 5;
const root = path.resolve(args[0] ?? fileURLToPath(new URL('..', import.meta.url)));

/** text with comments, string and character literals and preprocessor lines blanked, newlines kept. */
function code(text) {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i];
    const two = text.slice(i, i + 2);
    let j = i + 1;
    if (two === '/*') j = (text.indexOf('*/', i + 2) + 1 || text.length - 1) + 1;
    else if (two === '//') j = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '"' || c === "'") {
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      j++;
    } else if (c === '#' && (i === 0 || text[i - 1] === '\n')) {
      // A directive, with its continuation lines.
      while (j < text.length && !(text[j] === '\n' && text[j - 1] !== '\\')) j++;
    } else {
      out += c;
      i = j;
      continue;
    }
    out += text.slice(i, j).replace(/[^\n]/g, ' ');
    i = j;
  }
  return out;
}

/**
 * The function definitions of one C file, as {name, lines}.
 * @param {string} text
 * @returns {{name: string, lines: number}[]}
 */
export function functions(text) {
  const src = code(text);
  const found = [];
  let depth = 0, head = '', line = 1, open = null;
  for (const c of src) {
    if (c === '\n') line++;
    if (c === '{') {
      if (depth === 0) {
        const m = /([A-Za-z_]\w*)\s*\([^;{}]*\)\s*$/.exec(head);
        const isType = /\b(struct|union|enum)\s+\w*\s*$|=\s*$/.test(head);
        open = m && !isType ? { name: m[1], line } : null;
      }
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        if (open) found.push({ name: open.name, lines: Math.max(0, line - open.line - 1) });
        open = null;
        head = '';
      }
    } else if (depth === 0) {
      head = c === ';' ? '' : head + c;
    }
  }
  return found;
}

/** The p-quantile of sorted xs (nearest rank). */
function quantile(xs, p) {
  return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];
}

const all = [];
// The core's folders (core/*/) and the CLI's.
const dirs = existsSync(path.join(root, 'core'))
  ? readdirSync(path.join(root, 'core'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `core/${e.name}`).sort()
  : [];
for (const dir of [...dirs, 'cli']) {
  const d = path.join(root, dir);
  if (!existsSync(d)) continue;
  for (const f of readdirSync(d).filter((x) => x.endsWith('.c')).sort()) {
    for (const fn of functions(readFileSync(path.join(d, f), 'utf8'))) all.push({ ...fn, file: `${dir}/${f}` });
  }
}
if (all.length === 0) {
  console.error(`function-lengths: no C functions under ${root}/core or ${root}/cli`);
  process.exit(1);
}
const lengths = all.map((f) => f.lines).sort((a, b) => a - b);
const files = new Set(all.map((f) => f.file)).size;
console.log(`${all.length} functions in ${files} files: median ${quantile(lengths, 0.5)} lines, ` +
  `p90 ${quantile(lengths, 0.9)}, longest ${lengths[lengths.length - 1]}`);
for (const f of [...all].sort((a, b) => b.lines - a.lines).slice(0, shown)) {
  console.log(`  ${String(f.lines).padStart(4)}  ${f.file}: ${f.name}`);
}
