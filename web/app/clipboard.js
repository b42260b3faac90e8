// clipboard.js — copying text for the Copy buttons. The Clipboard API
// exists only in a secure context (https, or localhost); on a plain-http
// host the page falls back to copying the selected text of the element
// that shows it.

/** The text an element shows: a field's value, or its text content. */
function shownText(el) {
  return 'value' in el && typeof el.value === 'string' ? el.value : el.textContent;
}

/**
 * Copies `text`. `shown` (an input, textarea or other element showing the
 * same text, or null) is selected first whatever happens, so that the user
 * can copy it by hand when the browser refuses. Resolves true only when the
 * browser says the text reached the clipboard.
 */
export async function copyText(text, shown = null) {
  selectField(shown);
  if (window.isSecureContext && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, no focus): try the selection below.
    }
  }
  if (!shown || shownText(shown) !== text) return false;
  try {
    selectField(shown);
    return document.execCommand('copy') === true;
  } catch {
    return false;
  } finally {
    selectField(shown);
  }
}

/** Selects all the text of `el`: a field's value, or an element's content. */
export function selectField(el) {
  if (!el) return;
  if (typeof el.select === 'function') {
    el.focus({ preventScroll: true });
    el.select();
    el.setSelectionRange?.(0, el.value.length);
    return;
  }
  const sel = window.getSelection();
  sel?.removeAllRanges();
  const range = document.createRange();
  range.selectNodeContents(el);
  sel?.addRange(range);
}
