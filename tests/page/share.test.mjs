// Unit tests (no browser) of what the page hands out and reads: the command
// for a pasted config, the embed snippet, the timeline's keys, the dark
// scheme's chart colours. node --test tests/page/share.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandFor, commandWithFile, CONFIG_FILE } from '../../web/app/command.js';
import { embedSnippet, FIXED_HEIGHT, HEIGHT_MESSAGE, MAX_HEIGHT } from '../../web/app/embed-snippet.js';
import { stepEvent } from '../../web/app/timeline-keys.js';
import { chartColor, contrast, CARD, MIN_GRAPHIC_CONTRAST } from '../../web/app/scheme.js';
import { ALL_PARTS, OVERHEAD_PARTS } from '../../web/app/palette.js';
import { ROOT, MODELS, CLI } from './support.mjs';

const ARGS = '--pp-size 4 --ep-size 8 --cp-size 1 --total-gpus 32 --micro-batch-size 1 --global-batch-size 1024 --sequence-length 4096 --gpu h100';

test('a pasted config\'s command names config.json, whatever the label\'s quoting', () => {
  assert.equal(commandWithFile(`memest --model deepseek_v2 ${ARGS}`), `memest --model config.json ${ARGS}`);
  assert.equal(commandWithFile(`memest --model 'it'\\''s mine' ${ARGS}`), `memest --model config.json ${ARGS}`);
  assert.equal(commandWithFile(`memest --model 'a b' --optimizer muon`), 'memest --model config.json --optimizer muon');
  const preset = commandFor(`memest --model qwen3-30b-a3b ${ARGS}`, '');
  assert.deepEqual(preset, { command: `memest --model qwen3-30b-a3b ${ARGS}`, script: null });
});

test('the snippet for a pasted config writes the file whole and runs with the CLI', { skip: !existsSync(CLI) && 'build/memest is missing' }, () => {
  // As pasted: no final newline.
  const config = readFileSync(path.join(MODELS, 'deepseek-v2-lite.json'), 'utf8').trimEnd();
  const { command, script } = commandFor(`memest --model deepseek_v2 ${ARGS}`, config);
  assert.equal(command, `memest --model ${CONFIG_FILE} ${ARGS}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'memest-cmd-'));
  try {
    const out = execFileSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${path.dirname(CLI)}:${process.env.PATH}` } });
    assert.equal(readFileSync(path.join(dir, CONFIG_FILE), 'utf8'), `${config}\n`);
    assert.match(out, /^memest --model config\.json /);
    assert.match(out, /\b(OK|TIGHT|OOM)\b/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the here-document delimiter is never a line of the config', () => {
  const config = '{\nMEMEST_CONFIG\nMEMEST_CONFIG_2\n}';
  const { script } = commandFor('memest --model x --pp-size 1', config);
  assert.match(script, /^cat > config\.json <<'MEMEST_CONFIG_3'\n/);
  assert.ok(script.endsWith('\nMEMEST_CONFIG_3\nmemest --model config.json --pp-size 1\n'));
});

test('the embed snippet carries the frame, its fixed height and an origin-checked script', () => {
  const s = embedSnippet('https://calc.example/tools/#v=1&s=a"b&embed=1', 'https://calc.example');
  assert.match(s, /^<iframe src="https:\/\/calc\.example\/tools\/#v=1&amp;s=a&quot;b&amp;embed=1" /);
  assert.ok(s.includes(`height="${FIXED_HEIGHT}"`));
  assert.ok(s.includes('if (e.origin !== "https://calc.example"'));
  assert.ok(s.includes(`"${HEIGHT_MESSAGE}"`));
  assert.ok(s.includes(`h <= ${MAX_HEIGHT}`));
  assert.ok(s.includes('f.contentWindow === e.source'));
  // An origin cannot close the script.
  assert.doesNotMatch(embedSnippet('x', 'http://a</script><b>'), /<\/script><b>/);
});

test('the timeline keys walk every event and stop at the ends', () => {
  assert.equal(stepEvent('ArrowRight', 5, 277), 6);
  assert.equal(stepEvent('ArrowLeft', 0, 277), 0);
  assert.equal(stepEvent('ArrowRight', 276, 277), 276);
  assert.equal(stepEvent('End', 5, 277), 276);
  assert.equal(stepEvent('Home', 5, 277), 0);
  assert.equal(stepEvent('PageUp', 5, 277), 33);
  assert.equal(stepEvent('PageDown', 5, 277), 0);
  assert.equal(stepEvent('p', 100, 277, 21), 21);
  assert.equal(stepEvent('ArrowRight', -1, 277, 21), 22, 'from the peak when nothing is shown');
  assert.equal(stepEvent('Tab', 5, 277), null);
  assert.equal(stepEvent('ArrowRight', 0, 0), null);
  let pos = 0;
  const seen = new Set([pos]);
  for (let i = 0; i < 300; i++) seen.add((pos = stepEvent('ArrowRight', pos, 277)));
  assert.equal(seen.size, 277);
});

test('in the dark scheme every chart colour keeps 3:1 against the chart background', () => {
  for (const part of [...ALL_PARTS, ...OVERHEAD_PARTS]) {
    const [key, color] = [part[0], part[part.length - 1]];
    const dark = chartColor(color, 'dark');
    assert.ok(contrast(dark, CARD.dark) >= MIN_GRAPHIC_CONTRAST, `${key}: ${dark}`);
    assert.equal(chartColor(color, 'light'), color);
  }
  assert.equal(chartColor('#1f4e89', 'dark'), '#41699b', 'lightened just enough');
  assert.equal(chartColor('#e0b03c', 'dark'), '#e0b03c', 'already enough: unchanged');
  assert.ok(Math.abs(contrast('#ffffff', '#000000') - 21) < 1e-9);
});

test('the Pages workflow builds with the project\'s own scripts and publishes public/', () => {
  const yml = readFileSync(path.join(ROOT, '.github', 'workflows', 'pages.yml'), 'utf8');
  for (const step of ['bash scripts/setup.sh', 'bash scripts/build.sh', 'node --test tests/js/ tests/page/', 'actions/upload-pages-artifact', 'actions/deploy-pages']) {
    assert.ok(yml.includes(step), step);
  }
  assert.match(yml, /upload-pages-artifact@v\d+\n\s+with:\n\s+path: public\n/);
  assert.match(yml, /pages: write/);
  assert.match(yml, /id-token: write/);
});

test('docs/hosting.md gives the policy of index.html, for the header and every server snippet', () => {
  const html = readFileSync(path.join(ROOT, 'public', 'index.html'), 'utf8');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)[1];
  const doc = readFileSync(path.join(ROOT, 'docs', 'hosting.md'), 'utf8');
  assert.ok(doc.includes(`Content-Security-Policy: ${policy}\n`), 'the header line');
  assert.ok(doc.includes(`add_header Content-Security-Policy "${policy}" always;`), 'nginx');
  assert.ok(doc.includes(`header Content-Security-Policy "${policy}"`), 'Caddy');
  assert.ok(doc.includes(`height="${FIXED_HEIGHT}"`), 'the fixed height of the snippet');
  assert.ok(doc.includes('application/wasm'));
});
