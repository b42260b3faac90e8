// embed-snippet.js — the HTML an author pastes to embed the compact view
// (#embed=1) in another page, and the message the frame sends its host.
//
// The frame posts {type: HEIGHT_MESSAGE, height} to its parent whenever its
// content changes height (frame-height.js). The snippet's script accepts
// that message only from the calculator's origin and only for the frame it
// came from, and sets that frame's height. Without the script (a host that
// strips scripts) the frame keeps FIXED_HEIGHT, which fits the compact view
// at 360 px wide (checked by tests/page/embed.test.mjs).

/** The type of the message that carries the frame's content height. */
export const HEIGHT_MESSAGE = 'memest:height';

/** The frame's height in px when no script sizes it. */
export const FIXED_HEIGHT = 1280;

/** The tallest height a host accepts from the frame, in px. */
export const MAX_HEIGHT = 10000;

/** `value` as a JavaScript string literal that is safe inside <script>. */
function scriptString(value) {
  return JSON.stringify(String(value)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/**
 * The snippet for a frame showing `src` (a link with embed=1), served from
 * `origin` (the calculator's origin, e.g. "https://calc.example").
 */
export function embedSnippet(src, origin) {
  const attr = String(src).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return [
    `<iframe src="${attr}" title="memest memory estimate" width="100%" height="${FIXED_HEIGHT}" style="border:0;max-width:760px" loading="lazy" data-memest-embed></iframe>`,
    '<script>',
    'addEventListener("message", function (e) {',
    `  if (e.origin !== ${scriptString(origin)} || !e.data || e.data.type !== ${scriptString(HEIGHT_MESSAGE)}) return;`,
    '  var h = Math.ceil(Number(e.data.height));',
    `  if (!(h > 0 && h <= ${MAX_HEIGHT})) return;`,
    '  document.querySelectorAll("iframe[data-memest-embed]").forEach(function (f) {',
    '    if (f.contentWindow === e.source) f.style.height = h + "px";',
    '  });',
    '});',
    '</script>',
  ].join('\n');
}
