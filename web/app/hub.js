// hub.js — a model's config.json from the Hugging Face hub, fetched only
// when the user asks (the hub field, HubField.jsx), as the CLI downloads one
// (README "Models", cli/hub_download.c): the same id rule (the core's
// memest_hub_id_check, through the engine), the presets answering to their
// ids without any fetch, the same URL, size limit and messages, but never a
// token: a gated model's message says one is needed and that the page sends
// none. The hub's origin is the page's own setting (hubSetting): the
// <meta name="memest-hub"> of index.html, allowed only when the page's
// Content-Security-Policy lets it connect there (docs/hosting.md).

/** The hub the page fetches from when index.html names none. */
export const DEFAULT_HUB = 'https://huggingface.co';

/**
 * The origins a connect-src directive of `policy` allows, or null when it
 * has none (then default-src governs: the page's is 'none').
 */
function connectSources(policy) {
  for (const part of String(policy).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name?.toLowerCase() === 'connect-src') return values;
  }
  return null;
}

/**
 * Whether a Content-Security-Policy `policy` lets the page connect to
 * `origin` ("https://huggingface.co"): the origin listed (or its scheme,
 * or *), by connect-src.
 */
export function policyAllows(policy, origin) {
  const sources = connectSources(policy);
  if (!sources) return false;
  const u = new URL(origin);
  return sources.some((s) => s === '*' || s === `${u.protocol}` || s.replace(/\/$/, '') === u.origin);
}

/**
 * The page's hub: {origin, allowed, why} from `doc` (the document): the
 * origin its <meta name="memest-hub"> names (DEFAULT_HUB without one; an
 * empty one means none), and whether the page's policy (its meta tag)
 * lets it connect there; `why` says why fetching is not allowed.
 */
export function hubSetting(doc = globalThis.document) {
  const meta = doc?.querySelector?.('meta[name="memest-hub"]');
  const named = meta ? String(meta.getAttribute('content') ?? '').trim() : DEFAULT_HUB;
  if (!named) return { origin: '', allowed: false, why: 'this page is set up without a hub to fetch from' };
  let origin;
  try {
    const u = new URL(named);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new TypeError('not http');
    origin = u.origin;
  } catch {
    return { origin: '', allowed: false, why: `this page names "${named.slice(0, 80)}" as its hub, which is not an http(s) address` };
  }
  const policy = doc?.querySelector?.('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
  if (policy && !policyAllows(policy, origin)) {
    return { origin, allowed: false, why: `this host's Content-Security-Policy does not let the page connect to ${origin}` };
  }
  return { origin, allowed: true, why: '' };
}

/** The URL of `id`'s config.json on the hub at `origin`, as the CLI builds it. */
export function configUrl(origin, id) {
  return `${origin}/${id}/resolve/main/config.json`;
}

/** What the user does instead of a token, which the page never sends. */
const NO_TOKEN = 'the page never sends one: download config.json where you have access and drop it here';

/**
 * The CLI's message for an answer other than 200 (cli/hub_download.c
 * http_failure), with the page's words for what to do about a token.
 * `said` is the hub's X-Error-Message, `code` its X-Error-Code.
 */
export function statusMessage(id, url, status, code = '', said = '') {
  const msg = said ? `: "${said}"` : '';
  if (status === 401) {
    return `the hub refused the config of '${id}' (${url}: HTTP 401${msg}): the model is gated or private, or there is no such model; a token is needed, and ${NO_TOKEN}`;
  }
  if (status === 403) {
    return `the hub forbids the config of '${id}' (${url}: HTTP 403${msg}): the model is gated; a token is needed, and ${NO_TOKEN} (after accepting the model's terms on its page)`;
  }
  if (status === 404 && code === 'EntryNotFound') return `model '${id}' has no config.json on the hub (${url}: HTTP 404${msg})`;
  if (status === 404) return `the hub has no model '${id}' (${url}: HTTP 404${msg}); check the id (org/name, as on the model's page)`;
  if (status === 429) return `the hub is limiting requests for '${id}' (${url}: HTTP 429${msg}); wait a minute and try again`;
  if (status >= 500) return `the hub failed to give the config of '${id}' (${url}: HTTP ${status}${msg}); try again later`;
  return `the hub answered HTTP ${status} for the config of '${id}' (${url}${msg})`;
}

/** A header's value as the CLI keeps it: printable ASCII, `?` for anything else, at most `max`. */
function printable(value, max = 199) {
  return String(value ?? '').trim().slice(0, max).replace(/[^\x20-\x7e]/g, '?');
}

/**
 * Reads `response`'s body as text, refusing it once it passes `limit`
 * bytes: {text} or {over: true}.
 */
async function boundedText(response, limit) {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return { over: true };
  if (!response.body?.getReader) {
    const text = await response.text();
    return new TextEncoder().encode(text).length > limit ? { over: true } : { text };
  }
  const reader = response.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return { over: true };
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { text: new TextDecoder().decode(bytes) };
}

/**
 * The hub id typed text names, as {id} or {problem} (a sentence), by the
 * core's reading (`idRead`, memest_hub_id_read: an id, or its model page's
 * address, as the CLI's --model reads it); {empty: true} for no text.
 */
export async function readHubId(text, idRead) {
  const given = String(text ?? '').trim();
  if (!given) return { empty: true, problem: 'Type a hub id, org/name, as on the model’s page.' };
  const r = await idRead(given);
  if (r?.id) return { id: r.id };
  return { problem: `'${given}' is not a hub id: ${r?.problem ?? 'the engine could not read it'}.` };
}

/** The preset whose hub id is `id` ({name, title, id}), or null. */
export function presetOfId(id, presets) {
  return presets.find((m) => m.id === id) ?? null;
}

/**
 * What hub id `text` gives (an id, or its model page's address), as
 * {preset, title, id} (a preset answers to its id: no fetch), {text, url,
 * revision, id} (the config fetched), or {problem} (a sentence). `o`:
 * {hub (hubSetting()), presets (the engine's models, with their ids),
 * idRead(text) → Promise<{id} | {problem}> (the core's id rule),
 * configProblem(text) → Promise<string> (the core's reading of a config),
 * limit (the config file's: {max_bytes, limit_name, typical}), fetch}.
 */
export async function hubConfig(text, o) {
  const read = await readHubId(text, o.idRead);
  if (!read.id) return { problem: read.problem };
  const given = read.id;
  const preset = presetOfId(given, o.presets);
  if (preset) return { preset: preset.name, title: preset.title, id: given };
  if (!o.hub.allowed) {
    return { problem: `Fetching from the hub is not allowed here: ${o.hub.why}. Download ${given}’s config.json and drop it on the page, or pick a preset.` };
  }
  const url = configUrl(o.hub.origin, given);
  const violations = [];
  const onViolation = (e) => violations.push(e.blockedURI);
  globalThis.document?.addEventListener?.('securitypolicyviolation', onViolation);
  let response;
  try {
    response = await (o.fetch ?? fetch)(url, { credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'follow', cache: 'no-cache' });
  } catch (e) {
    // The refusal's event comes in a task of its own.
    await new Promise((r) => setTimeout(r, 0));
    if (violations.length) {
      return { problem: `Fetching from the hub is not allowed here: this host's Content-Security-Policy does not let the page connect to ${new URL(url).origin}. Download ${given}’s config.json and drop it on the page, or pick a preset.` };
    }
    return { problem: `cannot download the config of '${given}' from ${url}: ${e instanceof Error ? e.message : String(e)} (the network, or the hub refusing the page's request); check the network, or download config.json and drop it here` };
  } finally {
    globalThis.document?.removeEventListener?.('securitypolicyviolation', onViolation);
  }
  if (response.status !== 200) {
    return { problem: statusMessage(given, url, response.status, printable(response.headers.get('x-error-code'), 63), printable(response.headers.get('x-error-message'))) };
  }
  const body = await boundedText(response, o.limit.max_bytes);
  if (body.over) {
    return { problem: `the config of '${given}' from ${url} is over ${o.limit.limit_name} = ${o.limit.max_bytes} bytes; ${o.limit.typical}, so this is not one` };
  }
  const bad = await o.configProblem(body.text);
  if (bad) return { problem: `the config of '${given}' downloaded from ${url} is not one memest reads: ${bad}` };
  const commit = printable(response.headers.get('x-repo-commit'), 72);
  const etag = printable(response.headers.get('etag'), 64).replace(/^W\//, '').replace(/"/g, '');
  return { text: body.text, url, id: given, revision: commit || (etag ? `etag-${etag}` : '') };
}
