// Unit tests of the page's input state and its URL codec (no browser):
// node --test tests/page/state.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import LZString from 'lz-string';
import {
  DEFAULTS, SCHEMA, LABEL_RE, MAX_CONFIG_CHARS, coerceField, normalize, changedFields,
  applyFix, canApplyFix, suggestionFix, derive, toParams, configOf, labelFor,
} from '../../web/app/state.js';
import {
  URL_VERSION, MIGRATIONS, MAX_PAYLOAD_CHARS, encodeState, decodeFragment, migrate, linkProblem,
} from '../../web/app/url.js';

// ---------------------------------------------------------------- helpers

/** True when `s` has exactly the keys of DEFAULTS, each of its type. */
function isValidState(s) {
  if (s === null || typeof s !== 'object') return false;
  const keys = Object.keys(s).sort();
  if (keys.join() !== Object.keys(DEFAULTS).sort().join()) return false;
  return keys.every((k) => {
    try {
      return Object.is(coerceField(k, s[k]), s[k]);
    } catch {
      return false;
    }
  });
}

const intArb = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.integer({ min: 0, max: 2 ** 20 }).map((n) => n * 2 ** 20),
);
const numArb = fc
  .double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true })
  .map((x) => (x === 0 ? 0 : x));
const realConfig = fc.record({
  model_type: fc.constantFrom('qwen3_moe', 'deepseek_v3', 'gpt_oss', 'mixtral'),
  hidden_size: fc.integer({ min: 64, max: 16384 }),
  num_hidden_layers: fc.integer({ min: 1, max: 128 }),
  num_experts: fc.integer({ min: 1, max: 512 }),
  note: fc.string({ maxLength: 200 }),
}).map((o) => JSON.stringify(o, null, 2));
const smallConfig = fc.oneof(
  fc.constant(''),
  realConfig,
  fc.string({ maxLength: 1500, unit: 'binary' }), // any UTF-16, lone surrogates too
);

function stateArb(configArb) {
  const fields = {};
  for (const [key, spec] of Object.entries(SCHEMA)) {
    if (key === 'config') fields[key] = configArb;
    else if (key === 'model') fields[key] = fc.stringMatching(LABEL_RE);
    else if (key === 'cmp_model') fields[key] = fc.oneof(fc.constant(''), fc.stringMatching(LABEL_RE));
    else if (key === 'gpu') fields[key] = fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,15}$/));
    else if (spec.kind === 'int') fields[key] = intArb;
    else if (spec.kind === 'number') fields[key] = numArb;
    else if (spec.kind === 'enum') fields[key] = fc.constantFrom(...spec.values);
    else if (spec.kind === 'bool') fields[key] = fc.boolean();
    else if (spec.kind === 'text' && spec.max !== undefined) fields[key] = fc.string({ maxLength: spec.max, unit: 'binary' });
    else throw new Error(`no arbitrary for ${key}`);
  }
  // Half of the keys keep their default, as in real links.
  return fc
    .record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, fc.oneof(fc.constant(DEFAULTS[k]), a)])))
    .map((o) => ({ ...o }));
}

// ------------------------------------------------------------ the defaults

test('the default state is the documented opening view and is valid', () => {
  assert.equal(DEFAULTS.model, 'qwen3-30b-a3b');
  assert.deepEqual(
    [DEFAULTS.pp_size, DEFAULTS.ep_size, DEFAULTS.cp_size, DEFAULTS.total_gpus],
    [4, 8, 1, 32],
  );
  assert.deepEqual(
    [DEFAULTS.micro_batch_size, DEFAULTS.global_batch_size, DEFAULTS.sequence_length, DEFAULTS.gpu],
    [1, 1024, 4096, 'h100'],
  );
  assert.ok(isValidState({ ...DEFAULTS }));
  assert.deepEqual(Object.keys(SCHEMA).sort(), Object.keys(DEFAULTS).sort());
});

test('derive gives dp and num_chunks, fractional when they do not divide', () => {
  assert.deepEqual(derive(DEFAULTS), { dp: 1, num_chunks: 128, nodes: 4 });
  const d = derive({ ...DEFAULTS, total_gpus: 64, pp_size: 2 });
  assert.equal(d.dp, 4);
  assert.equal(d.num_chunks, 1024 / (1 * 4 * 8));
  assert.equal(derive({ ...DEFAULTS, total_gpus: 48 }).dp, 1.5);
  assert.equal(derive({ ...DEFAULTS, pp_size: 0 }).dp, null);
  assert.equal(derive({ ...DEFAULTS, pp_size: 0 }).num_chunks, null);
});

test('toParams maps the state to engine parameters', () => {
  const p = toParams(DEFAULTS, { timeline: true, timelineLimit: 0 });
  assert.equal(p.model, 'qwen3-30b-a3b');
  assert.equal(p.gpu, 'h100');
  assert.equal('gpu_memory_gb' in p, false);
  assert.equal(p.timeline, true);
  assert.equal(p.timeline_limit, 0);
  assert.equal('detail' in p, false);
  assert.equal('gpus_per_node' in p, false, 'a page-only field must not reach the engine');
  const c = toParams({ ...DEFAULTS, gpu: '', gpu_memory_gb: 96 }, { detail: true });
  assert.equal(c.gpu_memory_gb, 96);
  assert.equal('gpu' in c, false);
  assert.equal(c.detail, true);
  assert.equal('timeline' in c, false);
  assert.equal(configOf(DEFAULTS), null);
  assert.equal(configOf({ ...DEFAULTS, config: '{}' }), '{}');
});

test('coerceField coerces text to the type of the default and refuses the rest', () => {
  assert.equal(coerceField('pp_size', '8'), 8);
  assert.equal(coerceField('fragmentation', '0.25'), 0.25);
  assert.equal(coerceField('detail', 'true'), true);
  assert.equal(coerceField('pp_rank', -1), -1);
  assert.equal(coerceField('gpu', ''), '');
  assert.throws(() => coerceField('pp_size', '2.5'), /pp_size: .* whole number/);
  assert.throws(() => coerceField('pp_size', 'eight'), /whole number/);
  assert.throws(() => coerceField('pp_size', Infinity), /whole number/);
  assert.throws(() => coerceField('optimizer', 'sgd'), /one of adamw, muon/);
  assert.throws(() => coerceField('model', '<script>alert(1)</script>'), /model/);
  assert.throws(() => coerceField('config', 'x'.repeat(MAX_CONFIG_CHARS + 1)), /at most/);
  assert.throws(() => coerceField('__proto__', 1), /not an input/);
  assert.throws(() => coerceField('toString', 1), /not an input/);
});

test('normalize keeps good fields and names the ignored ones', () => {
  const { state, notes } = normalize({ pp_size: '2', bogus: 1, optimizer: 'sgd' });
  assert.equal(state.pp_size, 2);
  assert.equal(state.optimizer, 'adamw');
  assert.equal(notes.length, 2);
  assert.ok(isValidState(state));
});

test('applyFix applies "name=value[,name=value]" fixes and refuses unknown names', () => {
  const s = applyFix(DEFAULTS, 'global_batch_size=2048,pp_size=2');
  assert.equal(s.global_batch_size, 2048);
  assert.equal(s.pp_size, 2);
  assert.equal(DEFAULTS.pp_size, 4, 'the input is not modified');
  assert.equal(applyFix({ ...DEFAULTS }, 'gpu_memory_gb=141').gpu, '');
  assert.equal(canApplyFix('total_gpus=64'), true);
  assert.equal(canApplyFix('dp=3'), false);
  assert.equal(canApplyFix(''), false);
  assert.equal(canApplyFix('pp_size'), false);
});

test('suggestionFix takes the engine\'s fix when the page can apply it', () => {
  assert.equal(suggestionFix({ knob: 'optimizer', fix: 'optimizer=muon' }), 'optimizer=muon');
  assert.equal(suggestionFix({ knob: 'pp_size', fix: 'pp_size=8,total_gpus=64' }), 'pp_size=8,total_gpus=64');
  assert.equal(suggestionFix({ knob: 'pp_size', fix: 'pp_size=eight' }), null);
  assert.equal(suggestionFix({ knob: 'dp', fix: 'dp=2' }), null);
  assert.equal(suggestionFix({ knob: 'pp_size', to: '8 (64 GPUs)' }), null);
  assert.equal(suggestionFix(null), null);
});

test('labelFor derives a safe label from a file name or the config', () => {
  assert.equal(labelFor('{}', 'deepseek-v2-lite.json'), 'deepseek-v2-lite');
  assert.equal(labelFor('{"_name_or_path": "deepseek-ai/DeepSeek-V2-Lite"}', 'config.json'), 'DeepSeek-V2-Lite');
  assert.equal(labelFor('{"model_type": "mixtral"}'), 'mixtral');
  assert.equal(labelFor('not json'), 'custom');
  const evil = labelFor('{"_name_or_path": "<script>alert(1)</script>"}');
  assert.match(evil, LABEL_RE);
  assert.doesNotMatch(evil, /[<>]/);
});

// ------------------------------------------------------------- the format

test('the default state encodes to a bare version, embed to embed=1', () => {
  assert.equal(encodeState(DEFAULTS), `v=${URL_VERSION}`);
  assert.equal(encodeState(DEFAULTS, { embed: true }), 'embed=1');
  const e = decodeFragment('#embed=1');
  assert.equal(e.embed, true);
  assert.equal(e.error, null);
  assert.deepEqual(e.state, DEFAULTS);
  assert.deepEqual(decodeFragment('').state, DEFAULTS);
  assert.equal(decodeFragment('').error, null);
});

test('only changed fields are stored; small payloads stay readable JSON', () => {
  const f = encodeState({ ...DEFAULTS, pp_size: 8 });
  assert.equal(f, `v=1&s=${encodeURIComponent('{"pp_size":8}')}`);
  assert.deepEqual(changedFields({ ...DEFAULTS, pp_size: 8 }), { pp_size: 8 });
});

test('a config is compressed when that saves space', () => {
  const config = JSON.stringify({ model_type: 'qwen3_moe', hidden_size: 2048, num_hidden_layers: 48, num_experts: 128 }, null, 2);
  const state = { ...DEFAULTS, model: 'mine', config };
  const f = encodeState(state);
  const s = /s=([^&]*)/.exec(f)[1];
  assert.match(s, /^[A-Za-z0-9+\-$]+$/, 'lz-string alphabet');
  assert.ok(s.length < encodeURIComponent(JSON.stringify(changedFields(state))).length);
  assert.deepEqual(decodeFragment(`#${f}`).state, state);
});

// One fixture link per version ever written. A new version adds a line and a
// migration; these must keep decoding to the same state.
const FIXTURES = [
  {
    version: 1,
    url: 'https://example.test/#v=1&s=N4Igtg9gJgpgNiAXOAngWkrBAaEBjCAOwDMBLAcyRGAB1xp4B9AFxQAcY7E6BHAdxiEAzI0icQAXxC42bRgGdSALxhIAHLhhzFKpABZc5NgFcq0kEeOiYkAE4pG5AEZIAnADZcENs1JhlMLZUYMZEkkA&embed=1',
    state: {
      ...DEFAULTS, model: 'my-model', config: '{"model_type":"qwen3_moe"}', pp_size: 8, ep_size: 4,
      gpu: '', gpu_memory_gb: 96, optimizer: 'muon',
    },
    embed: true,
  },
  {
    version: 1,
    url: 'https://example.test/#v=1&s=%7B%22pp_size%22%3A2%2C%22detail%22%3Atrue%7D',
    state: { ...DEFAULTS, pp_size: 2, detail: true },
    embed: false,
  },
];

test('every version has a fixture link that still decodes to its state', () => {
  for (let v = 1; v <= URL_VERSION; v++) {
    assert.ok(FIXTURES.some((f) => f.version === v), `no fixture for link version ${v}`);
    if (v < URL_VERSION) assert.equal(typeof MIGRATIONS[v], 'function', `no migration from ${v}`);
  }
  for (const f of FIXTURES) {
    const got = decodeFragment(new URL(f.url).hash);
    assert.equal(got.error, null, f.url);
    assert.deepEqual(got.notes, []);
    assert.deepEqual(got.state, f.state);
    assert.equal(got.embed, f.embed);
  }
});

test('migrate refuses a version it has no step for', () => {
  assert.deepEqual(migrate({ pp_size: 2 }, URL_VERSION), { pp_size: 2 });
  assert.throws(() => migrate({}, 0), /no upgrade from link version 0/);
});

test('damaged, truncated, foreign and hostile links give the default and a message', () => {
  const good = encodeState({ ...DEFAULTS, model: 'mine', config: '{"model_type":"qwen3_moe","hidden_size":2048}' });
  const cases = {
    'newer version': '#v=99&s=%7B%7D',
    'no version': '#s=%7B%22pp_size%22%3A2%7D',
    'bad version': '#v=abc',
    'version zero': '#v=0&s=%7B%7D',
    'truncated lz': `#${good.slice(0, good.length - 12)}`,
    'bad escape': '#v=1&s=%7B%E0%A4%A',
    'not json': '#v=1&s=%7Bpp_size%7D',
    'an array': '#v=1&s=%5B1%2C2%5D',
    'junk chars': '#v=1&s=<script>alert(1)</script>',
    oversized: `#v=1&s=${'A'.repeat(MAX_PAYLOAD_CHARS + 1)}`,
    'decompression bomb': `#v=1&s=${LZString.compressToEncodedURIComponent('a'.repeat(3e5))}`,
  };
  for (const [name, frag] of Object.entries(cases)) {
    const got = decodeFragment(frag);
    assert.equal(typeof got.error, 'string', name);
    assert.match(got.error, /could not be read: .+\. Showing the default/, name);
    assert.deepEqual(got.state, DEFAULTS, name);
  }
});

test('hostile field values are dropped with a note, never passed on', () => {
  const payload = encodeURIComponent(JSON.stringify({
    model: '<img src=x onerror=alert(1)>', pp_size: { valueOf: 1 }, __proto__x: 1, gpu: '"><b>', ep_size: 16,
  }));
  const got = decodeFragment(`#v=1&s=${payload}`);
  assert.equal(got.error, null);
  assert.equal(got.state.model, DEFAULTS.model);
  assert.equal(got.state.gpu, DEFAULTS.gpu);
  assert.equal(got.state.pp_size, DEFAULTS.pp_size);
  assert.equal(got.state.ep_size, 16);
  assert.equal(got.notes.length, 4);
  const proto = decodeFragment(`#v=1&s=${encodeURIComponent('{"__proto__":{"pp_size":2},"constructor":1}')}`);
  assert.equal(proto.state.pp_size, DEFAULTS.pp_size);
  assert.equal(Object.getPrototypeOf(proto.state), Object.prototype);
  assert.ok(isValidState(proto.state));
});

test('linkProblem names a config too large for a link', () => {
  assert.equal(linkProblem(DEFAULTS), null);
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const noise = Array.from({ length: MAX_CONFIG_CHARS }, () => String.fromCharCode(0x4e00 + Math.floor(rnd() * 2000))).join('');
  const big = { ...DEFAULTS, config: noise };
  assert.match(linkProblem(big), /too large to share in a link/);
});

// --------------------------------------------------------------- properties

test('property: encode then decode is the identity on every valid state', () => {
  fc.assert(
    fc.property(stateArb(smallConfig), fc.boolean(), (state, embed) => {
      assert.ok(isValidState(state));
      const got = decodeFragment(`#${encodeState(state, { embed })}`);
      assert.equal(got.error, null);
      assert.deepEqual(got.notes, []);
      assert.deepEqual(got.state, state);
      assert.equal(got.embed, embed);
    }),
    { numRuns: 400 },
  );
});

test('property: a state with any config either round-trips or says it is too large', () => {
  fc.assert(
    fc.property(stateArb(fc.oneof(
      fc.string({ maxLength: 4000, unit: 'grapheme' }),
      fc.string({ minLength: 4000, maxLength: MAX_CONFIG_CHARS, unit: 'grapheme' }),
    )), (state) => {
      const problem = linkProblem(state);
      const got = decodeFragment(`#${encodeState(state)}`);
      if (problem === null) assert.deepEqual(got.state, state);
      else assert.match(got.error, /too long/);
    }),
    { numRuns: 60 },
  );
});

const fragmentArb = fc.oneof(
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.string({ maxLength: 300 }).map((s) => `#v=1&s=${s}`),
  fc.string({ maxLength: 300 }).map((s) => `#v=1&s=${encodeURIComponent(s)}`),
  fc.json().map((j) => `#v=1&s=${encodeURIComponent(j)}`),
  fc.json().map((j) => `#v=1&s=${LZString.compressToEncodedURIComponent(j)}`),
  fc.tuple(stateArb(smallConfig), fc.nat(), fc.nat()).map(([s, a, b]) => {
    // a real link, cut or with a character changed
    const f = `#${encodeState(s)}`;
    const i = a % (f.length + 1);
    return b % 2 ? f.slice(0, i) : f.slice(0, i) + String.fromCharCode(b % 128) + f.slice(i + 1);
  }),
  fc.dictionary(fc.constantFrom(...Object.keys(DEFAULTS), 'x', '__proto__'), fc.anything())
    .map((o) => `#v=1&s=${encodeURIComponent(JSON.stringify(o) ?? '')}`),
);

test('property: any fragment decodes to a valid state or a clear error, never an exception', () => {
  fc.assert(
    fc.property(fragmentArb, (frag) => {
      const got = decodeFragment(frag);
      assert.ok(isValidState(got.state));
      assert.equal(typeof got.embed, 'boolean');
      assert.ok(Array.isArray(got.notes));
      if (got.error !== null) {
        assert.match(got.error, /^This link could not be read: .+\. Showing the default instead\.$/);
        assert.deepEqual(got.state, DEFAULTS);
      }
      for (const n of got.notes) assert.equal(typeof n, 'string');
    }),
    { numRuns: 1500 },
  );
});

test('a fragment that is not a memest link is an unreadable link, and unknown parts are noted', () => {
  for (const frag of ['#garbage', '#foo=bar&baz', '#results']) {
    const got = decodeFragment(frag);
    assert.match(got.error, /^This link could not be read: its fragment ".+" is not a memest link \(those start with #v=\)\. Showing the default instead\.$/, frag);
    assert.ok(got.error.includes(frag.slice(1, 8)), got.error);
    assert.deepEqual(got.state, DEFAULTS);
  }
  assert.equal(decodeFragment('#garbage&embed=1').embed, true);
  assert.equal(decodeFragment('#').error, null);
  assert.equal(decodeFragment('#embed=1').error, null);
  const withExtra = decodeFragment(`#v=1&s=${encodeURIComponent('{"pp_size":2}')}&zzz=1`);
  assert.equal(withExtra.error, null);
  assert.equal(withExtra.state.pp_size, 2);
  assert.deepEqual(withExtra.notes, ['"zzz" is not part of a memest link and was ignored.']);
  assert.deepEqual(decodeFragment('#v=1&utm_source=x').notes, ['"utm_source" is not part of a memest link and was ignored.']);
  // A long or control-laden part is quoted short and clean.
  const long = decodeFragment(`#${'x'.repeat(500)}%0A`);
  assert.ok(long.error.length < 200, long.error);
});
