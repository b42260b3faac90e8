// frame-height.js — in an iframe, the compact view tells its host page how
// tall its content is, so that the host's snippet (embed-snippet.js) can
// size the frame to fit: no scroll bar inside the frame, nothing cut off.

import { useEffect } from 'preact/hooks';
import { HEIGHT_MESSAGE } from './embed-snippet.js';

/** The content height of the document in px (not the frame's viewport). */
export function contentHeight(doc = document) {
  return Math.ceil(doc.documentElement.getBoundingClientRect().height);
}

/**
 * While `enabled` and the page is in a frame, posts the content height to
 * the parent at start and whenever it changes. The message carries only a
 * number, so any parent may read it; the host checks where it came from.
 */
export function useFrameHeight(enabled) {
  useEffect(() => {
    if (!enabled || window.parent === window) return undefined;
    let last = -1;
    const post = () => {
      const height = contentHeight();
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    };
    const ro = new ResizeObserver(post);
    ro.observe(document.documentElement);
    post();
    return () => ro.disconnect();
  }, [enabled]);
}
