// CommandLine.jsx — the answer leaving the page: the memest command that
// gives the same estimate (for a pasted config, the command on a saved
// config.json and a shell snippet that writes the file first: command.js),
// and the answer as files (downloads.js).

import { useRef, useState } from 'preact/hooks';
import { CopyButton } from './CopyButton.jsx';
import { commandFor, CONFIG_FILE } from './command.js';
import { download } from './downloads.js';
import { engineClient } from './estimator.js';
import { pageWords } from './wording.js';
import { Card } from './Card.jsx';

/**
 * Props: command (result.command), config (the pasted config's text, ''
 * for a preset), state (the inputs of the answer shown), shownRank (the
 * rank its timeline shows).
 */
export function CommandLine({ command, config, state, shownRank }) {
  const shown = commandFor(command, config);
  const commandEl = useRef(null);
  const scriptEl = useRef(null);
  const [problem, setProblem] = useState('');
  const save = (kind) => async () => {
    const failed = await download(await engineClient(), state, kind, shownRank);
    setProblem(failed ? pageWords(failed.message) : '');
  };
  return (
    <Card answerFor={command} class="command" aria-labelledby="command-title" data-testid="command-card">
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
      <div class="downloads" role="group" aria-label="Download this answer">
        <button type="button" onClick={save('json')} data-testid="download-json">Download JSON</button>
        <button type="button" onClick={save('ranks')} data-testid="download-ranks">Download CSV (components per rank)</button>
        <button type="button" onClick={save('timeline')} data-testid="download-timeline">Download CSV (timeline of rank {shownRank})</button>
      </div>
      <p class="help">The JSON is what <code>memest --json</code> prints for these inputs; the CSV files give bytes.</p>
      {problem && <p class="local-problem" role="alert">{problem}</p>}
    </Card>
  );
}
