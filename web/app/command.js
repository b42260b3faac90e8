// command.js — the command that gives the page's estimate on the command
// line. For a preset it is the engine's command as it is. For a pasted
// config the engine names the model by its label, which no CLI preset
// has, so the page saves the config as config.json first: the command
// passes --model config.json, and a shell snippet writes the file and runs it.
// The config's text is written with its bidi marks and controls as JSON
// escapes (\u202e): the same JSON, which cannot reorder the shown snippet.

import { visible } from './visible.js';

/** The file name the page's commands give a pasted config. */
export const CONFIG_FILE = 'config.json';

/** `--model WORD` at the start of the engine's command (a shell word, maybe quoted). */
const MODEL_ARG = /^memest --model (?:'(?:[^']|'\\'')*'|[^\s']+)/;

/** The engine's `command` with its model replaced by CONFIG_FILE. */
export function commandWithFile(command) {
  if (!MODEL_ARG.test(command)) return command;
  return command.replace(MODEL_ARG, `memest --model ${CONFIG_FILE}`);
}

/** A here-document delimiter that is not a line of `text`. */
function delimiterFor(text) {
  const lines = new Set(text.split(/\r?\n/));
  let d = 'MEMEST_CONFIG';
  for (let i = 2; lines.has(d); i++) d = `MEMEST_CONFIG_${i}`;
  return d;
}

/**
 * What to show for `command` (result.command) and `config` (the pasted
 * config's text, '' for a preset): { command, script }, where `script`
 * (null for a preset) writes config.json and then runs the command.
 */
export function commandFor(command, config) {
  if (!config) return { command, script: null };
  const run = commandWithFile(command);
  const text = visible(config.replace(/\r\n?/g, '\n'));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const end = delimiterFor(body);
  return { command: run, script: `cat > ${CONFIG_FILE} <<'${end}'\n${body}${end}\n${run}\n` };
}
