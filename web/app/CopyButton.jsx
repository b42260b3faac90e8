// CopyButton.jsx — a button that copies a text and says whether it worked:
// "Copied" in the colour of success only when the browser took it, and
// otherwise, in the colour of a warning, that the text is selected for
// copying by hand.

import { useEffect, useState } from 'preact/hooks';
import { copyText } from './clipboard.js';

const SAID_MS = 4000;

/**
 * Props: text (string or () => string), label, testid, field (a ref to the
 * input or textarea showing the text: selected after a click, and the
 * fallback when the Clipboard API is missing or refuses).
 * @param {{text: string | (() => string), label?: string, testid?: string, field?: {current: HTMLElement | null}}} props
 */
export function CopyButton({ text, label = 'Copy', testid, field }) {
  const [said, setSaid] = useState(null);
  useEffect(() => {
    if (!said) return undefined;
    const t = setTimeout(() => setSaid(null), SAID_MS);
    return () => clearTimeout(t);
  }, [said]);
  const onClick = async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text, field?.current ?? null);
    setSaid(ok
      ? { ok: true, text: 'Copied' }
      : { ok: false, text: field ? 'The browser did not copy it: the text is selected, press Ctrl+C (⌘C)' : 'The browser did not copy it: select the text and copy it' });
  };
  return (
    <span class="copy">
      <button type="button" onClick={onClick} data-testid={testid}>{label}</button>
      <span class={`copy-said${said && !said.ok ? ' copy-failed' : ''}`} role="status" data-testid={testid ? `${testid}-said` : undefined}>
        {said?.text ?? ''}
      </span>
    </span>
  );
}
