// CopyButton.jsx — a button that copies a text and says whether it worked.

import { useEffect, useState } from 'preact/hooks';
import { copyText } from './clipboard.js';

/**
 * Props: text (string or () => string), label, testid.
 * @param {{text: string | (() => string), label?: string, testid?: string}} props
 */
export function CopyButton({ text, label = 'Copy', testid }) {
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!said) return undefined;
    const t = setTimeout(() => setSaid(''), 2500);
    return () => clearTimeout(t);
  }, [said]);
  const onClick = async () => {
    const ok = await copyText(typeof text === 'function' ? text() : text);
    setSaid(ok ? 'Copied' : 'Copy refused by the browser: select the text and copy it');
  };
  return (
    <span class="copy">
      <button type="button" onClick={onClick} data-testid={testid}>{label}</button>
      <span class="copy-said" role="status">{said}</span>
    </span>
  );
}
