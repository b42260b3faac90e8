// scheme.js — light or dark, as the reader's system asks
// (prefers-color-scheme), for what CSS cannot colour: the canvas of the
// timeline and the fills the charts take from palette.js. In the dark
// scheme a component's colour is lightened until it keeps at least 3:1
// contrast against the chart's background (WCAG's ratio for graphics).
// No DOM and no Preact: the engine's worker draws the timeline with it
// (use-color-scheme.js has the hook).

/** The media query of the dark scheme. */
export const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The chart background of each scheme (style.css --card). */
export const CARD = { light: '#ffffff', dark: '#161c24' };

/** Contrast a chart's marks keep against CARD. */
export const MIN_GRAPHIC_CONTRAST = 3;

/** Axis, grid, step-line, text and peak-mark colours of the canvas charts. */
export const CANVAS_INK = {
  light: { axis: '#555555', grid: '#e6e6e6', step: 'rgba(0,0,0,0.25)', text: '#222222', peak: '#c0392b' },
  dark: { axis: '#b8c0cc', grid: '#2c3542', step: 'rgba(255,255,255,0.25)', text: '#e3e8ee', peak: '#ff8a80' },
};

/** The scheme now: 'dark' or 'light'. */
export function currentScheme() {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

function rgbOf(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [1, 2, 3].map((i) => parseInt(m[i], 16)) : null;
}

function hexOf(rgb) {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of an [r, g, b] colour (0–255). */
export function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two "#rrggbb" colours. */
export function contrast(a, b) {
  const [la, lb] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x);
  return (la + 0.05) / (lb + 0.05);
}

const lifted = new Map();

/**
 * The colour a chart draws `hex` with in `scheme`: itself in the light
 * scheme; in the dark one, mixed with white just enough for
 * MIN_GRAPHIC_CONTRAST against CARD.dark.
 */
export function chartColor(hex, scheme) {
  if (scheme !== 'dark') return hex;
  if (lifted.has(hex)) return lifted.get(hex);
  const rgb = rgbOf(hex);
  let out = hex;
  if (rgb) {
    for (let t = 0; t <= 1.0001; t += 0.05) {
      out = hexOf(rgb.map((c) => c + (255 - c) * t));
      if (contrast(out, CARD.dark) >= MIN_GRAPHIC_CONTRAST) break;
    }
  }
  lifted.set(hex, out);
  return out;
}
