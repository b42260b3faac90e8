// CommandLine.jsx — the memest command that gives the same estimate.

import { CopyButton } from './CopyButton.jsx';

/** Props: command (result.command), custom (a pasted config is in use). */
export function CommandLine({ command, custom }) {
  return (
    <section class="command" aria-labelledby="command-title">
      <h2 id="command-title">Same estimate on the command line</h2>
      <pre><code data-testid="command">{command}</code></pre>
      {custom && <p class="help">Save the pasted config as a file and pass it with --config.</p>}
      <CopyButton text={command} label="Copy command" testid="copy-command" />
    </section>
  );
}
