// url.js — the shareable link: the page state in the URL fragment.
//
// Format (docs/page.md): #v=<version>&s=<payload>[&embed=1]
//   payload = lz-string compressToEncodedURIComponent(JSON), or, when that
//   does not save at least a fifth, encodeURIComponent(JSON) (it starts with
//   "%7B" or "{", which the lz-string alphabet never produces).
//   JSON = the fields of the state that differ from DEFAULTS.
// Old versions are upgraded one step at a time by MIGRATIONS; a link that
// cannot be read yields the default state and a message, never an exception.
// A fragment that is not a memest link at all ("#garbage") is a link that
// cannot be read too; parts of a link this page does not know are noted.

import LZString from 'lz-string';
import { DEFAULTS, normalize, changedFields } from './state.js';

/** The version this page writes. */
export const URL_VERSION = 1;

/**
 * MIGRATIONS[n] turns the JSON object of a version-n link into version n+1.
 * When the format changes: bump URL_VERSION, add the step here, and keep a
 * fixture link of the old version in tests/page/state.test.mjs.
 */
export const MIGRATIONS = Object.freeze({});

/** Longest payload read from a link (compressed or not), in characters. */
export const MAX_PAYLOAD_CHARS = 20000;
/** Longest JSON a payload may expand to. */
export const MAX_JSON_CHARS = 200000;

/** Upgrades `obj` from version `from` to URL_VERSION. Throws on a gap. */
export function migrate(obj, from) {
  let out = obj;
  for (let v = from; v < URL_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`no upgrade from link version ${v}`);
    out = step(out);
  }
  return out;
}

/** The payload for `json`: compressed only when that saves at least 20%. */
function pack(json) {
  const plain = encodeURIComponent(json);
  const packed = LZString.compressToEncodedURIComponent(json);
  return packed.length <= plain.length * 0.8 ? packed : plain;
}

function unpack(payload) {
  if (/^(%7B|\{)/i.test(payload)) {
    try {
      return decodeURIComponent(payload);
    } catch {
      throw new Error('the link is damaged (bad %-escape)');
    }
  }
  if (!/^[A-Za-z0-9+\-$]+$/.test(payload)) {
    throw new Error('the link is damaged (unexpected characters)');
  }
  const json = LZString.decompressFromEncodedURIComponent(payload);
  if (!json) throw new Error('the link is damaged or cut short (it does not decompress)');
  return json;
}

/**
 * The fragment (without "#") for `state`; `embed` adds embed=1.
 * The default state gives "v=1" (or "embed=1" when embedded).
 */
export function encodeState(state, { embed = false } = {}) {
  const changed = changedFields(state);
  const parts = [];
  if (Object.keys(changed).length) {
    parts.push(`v=${URL_VERSION}`, `s=${pack(JSON.stringify(changed))}`);
  } else if (!embed) {
    parts.push(`v=${URL_VERSION}`);
  }
  if (embed) parts.push('embed=1');
  return parts.join('&');
}

/** The payload part ("s=") of a fragment made by encodeState, or "". */
function payloadOf(fragment) {
  const m = /(?:^|&)s=([^&]*)/.exec(fragment);
  return m ? m[1] : '';
}

/**
 * Why `state` cannot be shared in a link (its payload would exceed
 * MAX_PAYLOAD_CHARS, which only a very large config can cause), or null.
 */
export function linkProblem(state) {
  const n = payloadOf(encodeState(state)).length;
  if (n <= MAX_PAYLOAD_CHARS) return null;
  return `This config is too large to share in a link (${n} characters once packed; at most ${MAX_PAYLOAD_CHARS}). Remove keys the estimate does not need, or use the command line.`;
}

/** The parts of a fragment this page reads; any other is noted. */
const KNOWN_PARTS = new Set(['v', 's', 'embed']);

/** `text` for a message: at most 40 characters, control characters and line separators dropped. */
function quoted(text) {
  const clean = String(text).replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '');
  return `"${clean.length > 40 ? `${clean.slice(0, 40)}…` : clean}"`;
}

function splitFragment(fragment) {
  const text = String(fragment ?? '').replace(/^#/, '');
  const fields = new Map();
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!fields.has(key)) fields.set(key, eq < 0 ? '' : part.slice(eq + 1));
  }
  return fields;
}

/**
 * Reads a fragment ("#v=1&s=..."). Never throws. Returns
 *   { state, embed, error, notes }
 * where `state` is complete and valid; `error` (a sentence, or null) means
 * the link could not be read and `state` is the default; `notes` list the
 * fields that were ignored.
 */
export function decodeFragment(fragment) {
  let fields;
  try {
    fields = splitFragment(fragment);
  } catch {
    fields = new Map();
  }
  const embed = fields.get('embed') === '1';
  const fail = (why) => ({ state: { ...DEFAULTS }, embed, error: `This link could not be read: ${why}. Showing the default instead.`, notes: [] });
  const unknown = [...fields.keys()].filter((k) => !KNOWN_PARTS.has(k));
  const partNotes = unknown.map((k) => `${quoted(k)} is not part of a memest link and was ignored.`);
  if (!fields.has('v') && !fields.has('s')) {
    if (unknown.length) return fail(`its fragment ${quoted(`#${String(fragment).replace(/^#/, '')}`)} is not a memest link (those start with #v=)`);
    return { state: { ...DEFAULTS }, embed, error: null, notes: [] };
  }
  const vText = fields.get('v') ?? '';
  if (!/^[0-9]{1,4}$/.test(vText)) return fail('it carries no valid version');
  const version = Number(vText);
  if (version < 1) return fail(`version ${version} does not exist`);
  if (version > URL_VERSION) return fail(`it was made by a newer version of this page (link version ${version}, this page reads up to ${URL_VERSION})`);
  if (!fields.has('s')) return { state: { ...DEFAULTS }, embed, error: null, notes: partNotes };
  const payload = fields.get('s');
  if (payload.length > MAX_PAYLOAD_CHARS) return fail(`it is too long (${payload.length} characters; at most ${MAX_PAYLOAD_CHARS})`);
  let obj;
  try {
    const json = unpack(payload);
    if (json.length > MAX_JSON_CHARS) throw new Error(`its content is too long (${json.length} characters)`);
    try {
      obj = JSON.parse(json);
    } catch {
      throw new Error('the link is damaged (its content is not JSON)');
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('the link is damaged (its content is not an object)');
    obj = migrate(obj, version);
  } catch (e) {
    return fail(e.message.replace(/^the link is /, 'it is '));
  }
  const { state, notes } = normalize(obj);
  return { state, embed, error: null, notes: [...partNotes, ...notes] };
}
