// core-tables.js — the C core's tables the page is built on: every input's
// row of the parameter table (engine.parameters(): name, kind, choices,
// default, bounds, label, the worked example's value, the slider) and the
// names the core writes once (engine.names(): enum values, components,
// reasons, the TIGHT threshold, file limits). The page's state, controls
// and charts derive their inputs, defaults, enums, ranges and component
// keys from here.
//
// In the page's bundle, scripts/build-web.mjs puts the tables themselves
// in this module's place, read from the engine when the page is built, so
// the page has them before its worker starts. Anywhere else (Node: the
// tests) this module reads them from the engine.

import { createEngine } from '../engine.js';

const engine = await createEngine();

/** The parameter table's rows, in the core's order. */
export const PARAMETERS = Object.freeze(engine.parameters());

/** The names the core writes once. */
export const NAMES = Object.freeze(engine.names());
