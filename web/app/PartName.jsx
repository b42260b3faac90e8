// PartName.jsx — a memory component's swatch and name, as the breakdown's
// table and the timeline's key show them.

/** Props: label (the words after the swatch), color (the swatch's CSS colour). */
export function PartName({ label, color }) {
  return <><span class="swatch" style={{ background: color }} aria-hidden="true" />{label}</>;
}
