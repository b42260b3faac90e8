// CommandLine.jsx — the memest command that gives the same estimate; for a
// pasted config, the command on a saved config.json and a shell snippet
// that writes the file first (command.js).

import { useRef } from 'preact/hooks';
import { CopyButton } from './CopyButton.jsx';
import { commandFor, CONFIG_FILE } from './command.js';

/** Props: command (result.command), config (the pasted config's text, '' for a preset). */
export function CommandLine({ command, config }) {
  const shown = commandFor(command, config);
  const commandEl = useRef(null);
  const scriptEl = useRef(null);
  return (
    <section class="command" aria-labelledby="command-title">
      <h2 id="command-title">Same estimate on the command line</h2>
      {shown.script && <p class="help">Save the pasted config as <code>{CONFIG_FILE}</code> in the current folder, then run:</p>}
      <pre><code data-testid="command" ref={commandEl}>{shown.command}</code></pre>
      <CopyButton text={shown.command} label="Copy command" testid="copy-command" field={commandEl} />
      {shown.script && (
        <details class="command-script">
          <summary>Or one shell snippet that writes {CONFIG_FILE} and runs the command</summary>
          <pre><code data-testid="command-script" ref={scriptEl}>{shown.script}</code></pre>
          <CopyButton text={shown.script} label="Copy the snippet" testid="copy-command-script" field={scriptEl} />
        </details>
      )}
    </section>
  );
}
