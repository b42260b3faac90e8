// clipboard.js — copying text for the Copy buttons.

/**
 * Copies `text` to the clipboard. Resolves true on success; false when the
 * browser refuses (the caller then shows the text to copy by hand).
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
