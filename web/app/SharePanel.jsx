// SharePanel.jsx — the link to this exact view, always shown in a read-only
// field beside its Copy button, and the snippet that embeds it in another
// page.

import { useRef, useState } from 'preact/hooks';
import { encodeState, linkProblem } from './url.js';
import { CopyButton } from './CopyButton.jsx';
import { embedSnippet, FIXED_HEIGHT } from './embed-snippet.js';
import { selectField } from './clipboard.js';

/** The page's address without its fragment. */
export function pageAddress() {
  return location.href.split('#')[0];
}

/** The link to `state` (embed adds embed=1). */
export function linkTo(state, embed = false) {
  return `${pageAddress()}#${encodeState(state, { embed })}`;
}

/**
 * Props: state (the settled state: the link follows the inputs once they
 * stop moving), pending (the inputs have moved since; data-pending says
 * so), current() (the state now, which Copy link copies; default state).
 */
export function SharePanel({ state, pending = false, current = null }) {
  const [showEmbed, setShowEmbed] = useState(false);
  const linkField = useRef(null);
  const snippetField = useRef(null);
  const problem = linkProblem(state);
  if (problem) return <p class="local-problem">{problem}</p>;
  const link = linkTo(state);
  const snippet = showEmbed ? embedSnippet(linkTo(state, true), location.origin) : '';
  return (
    <section class="share" aria-labelledby="share-title">
      <h2 id="share-title" class="visually-hidden">Share</h2>
      <label for="share-link" class="visually-hidden">Link to this view</label>
      <input id="share-link" class="share-link" type="text" readOnly value={link} ref={linkField}
        spellcheck={false} onFocus={(e) => selectField(e.currentTarget)} data-testid="share-link"
        data-pending={pending ? 'true' : 'false'} />
      <CopyButton text={() => linkTo(current ? current() : state)} label="Copy link" testid="copy-link" field={linkField} />
      <button type="button" aria-expanded={showEmbed ? 'true' : 'false'} onClick={() => setShowEmbed(!showEmbed)}
        data-testid="embed-button">Embed</button>
      {showEmbed && (
        <div class="embed-snippet">
          <label for="embed-code">Paste this into a page to embed this estimate:</label>
          <textarea id="embed-code" readOnly rows={6} value={snippet} ref={snippetField} data-testid="embed-code" spellcheck={false} />
          <CopyButton text={snippet} label="Copy snippet" testid="copy-snippet" field={snippetField} />
          <p class="help">
            The frame sets its own height through the small script. Where a page strips scripts, the frame keeps
            its {`height="${FIXED_HEIGHT}"`}, which fits the compact view at 360 px wide.
          </p>
        </div>
      )}
    </section>
  );
}
