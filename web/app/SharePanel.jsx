// SharePanel.jsx — the link to this exact view, and the snippet that embeds
// it in another page.

import { useState } from 'preact/hooks';
import { encodeState, linkProblem } from './url.js';
import { CopyButton } from './CopyButton.jsx';

/** The page's address without its fragment. */
export function pageAddress() {
  return location.href.split('#')[0];
}

/** The link to `state` (embed adds embed=1). */
export function linkTo(state, embed = false) {
  return `${pageAddress()}#${encodeState(state, { embed })}`;
}

/** The iframe snippet for `state`. */
export function embedSnippet(state) {
  const src = linkTo(state, true).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${src}" title="memest memory estimate" width="100%" height="640" style="border:0;max-width:760px" loading="lazy"></iframe>`;
}

/** Props: state. */
export function SharePanel({ state }) {
  const [showEmbed, setShowEmbed] = useState(false);
  const problem = linkProblem(state);
  if (problem) return <p class="local-problem">{problem}</p>;
  return (
    <section class="share" aria-labelledby="share-title">
      <h2 id="share-title" class="visually-hidden">Share</h2>
      <CopyButton text={() => linkTo(state)} label="Copy link" testid="copy-link" />
      <button type="button" aria-expanded={showEmbed ? 'true' : 'false'} onClick={() => setShowEmbed(!showEmbed)}
        data-testid="embed-button">Embed</button>
      {showEmbed && (
        <div class="embed-snippet">
          <label for="embed-code">Paste this into a page to embed this estimate:</label>
          <textarea id="embed-code" readOnly rows={3} value={embedSnippet(state)} data-testid="embed-code" />
          <CopyButton text={() => embedSnippet(state)} label="Copy snippet" />
        </div>
      )}
    </section>
  );
}
