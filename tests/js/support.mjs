// support.mjs — what the engine tests share: paths, one engine per test
// file, and running the native CLI (build/memest) a bounded number of
// processes at a time. Not a test file itself.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

import { createEngine } from '../../web/engine.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(ROOT, 'build', 'memest');
export const WASM = path.join(ROOT, 'public', 'memest.wasm');
export const MODELS_DIR = path.join(ROOT, 'presets');
/** Where more configs may lie beside the repository; only adds cases. */
export const EXTRA_MODELS_DIR = path.join(ROOT, '..', 'shared', 'models');

/**
 * The real model configs, as {file, text}: the presets (published
 * config.json files), then any config under ../shared/models, when that
 * exists, whose name the presets lack.
 * @returns {{file: string, text: string}[]}
 */
export function sharedModels() {
  const names = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : []);
  const own = names(MODELS_DIR);
  const extra = names(EXTRA_MODELS_DIR).filter((f) => !own.includes(f));
  return [...own.map((f) => path.join(MODELS_DIR, f)), ...extra.map((f) => path.join(EXTRA_MODELS_DIR, f))]
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

/** Fails with a clear message when a build output is missing. */
export function requireBuilds() {
  assert.ok(existsSync(CLI), `${CLI} is missing: build it with cmake -S . -B build && cmake --build build`);
  assert.ok(existsSync(WASM), `${WASM} is missing: build it with scripts/build-wasm.sh`);
}

/** @type {Promise<import('../../web/engine.js').Engine> | null} */
let shared = null;
/** One engine per test process. */
export function engine() {
  shared ??= createEngine();
  return shared;
}

/**
 * CLI arguments for params: each name as its flag, `--flag=value`, with the
 * value as the text JavaScript gives it (String(v)), which is also the text
 * the engine hands the core.
 * @param {Record<string, unknown>} params
 * @returns {string[]}
 */
export function cliArgs(params) {
  const args = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    args.push(`${name.startsWith('--') ? name : `--${name.replace(/_/g, '-')}`}=${String(value)}`);
  }
  return args;
}

const slots = Math.max(1, Math.min(2, cpus().length));
let running = 0;
/** @type {(() => void)[]} */
const queue = [];

/**
 * Runs build/memest with args, at most two at a time.
 * @param {string[]} args
 * @returns {Promise<{status: number, stdout: string, stderr: string}>}
 */
export async function runCli(args) {
  if (running >= slots) await new Promise((resolve) => queue.push(() => resolve(undefined)));
  running++;
  try {
    return await new Promise((resolve) => {
      execFile(CLI, args, { maxBuffer: 256 << 20, encoding: 'utf8' }, (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ status, stdout, stderr });
      });
    });
  } finally {
    running--;
    queue.shift()?.();
  }
}

// "memest: error: ...", or "memest plan: error: ..." from a subcommand.
const ERROR_LINE = /^memest(?: [a-z]+)?: error: (.*)$/;
const FIX_LINE = /^memest(?: [a-z]+)?: a valid choice: (.*)$/;

/**
 * The message and fix of a failed CLI run, from its stderr lines.
 * @param {{stderr: string}} run
 * @returns {{message: string, fix: string}}
 */
export function cliError(run) {
  const json = cliJsonError(run);
  if (json) return { message: json.message, fix: json.fix };
  const lines = run.stderr.split('\n');
  const line = lines.map((l) => ERROR_LINE.exec(l)).find(Boolean);
  assert.ok(line, `no error line on stderr: ${JSON.stringify(run.stderr)}`);
  const fix = lines.map((l) => FIX_LINE.exec(l)).find(Boolean);
  return { message: line[1], fix: fix ? fix[1] : '' };
}

/**
 * The error object a failed `--json` run printed on stdout, or null.
 * @param {{stdout: string}} run
 * @returns {any}
 */
export function cliJsonError(run) {
  try {
    const obj = JSON.parse(run.stdout);
    return obj && typeof obj === 'object' && obj.error ? obj.error : null;
  } catch {
    return null;
  }
}

/**
 * The flags the CLI marks [missing] when it exits with status 2 (it lists
 * the required parameters instead of printing one message).
 * @param {{stderr: string}} run
 * @returns {string[]}
 */
export function cliMissingFlags(run) {
  return run.stderr.split('\n').filter((l) => l.endsWith('[missing]'))
    .map((l) => l.trim().split(/\s+/)[0]);
}

/**
 * Asserts that the engine's outcome equals the CLI's for the same inputs:
 * the same object on success; on failure the same message and fix, or, for
 * missing parameters (exit status 2), the same parameters missing.
 * @param {{status: number, stdout: string, stderr: string}} run
 * @param {any} result  what engine.estimate returned
 * @param {string} what  names the case in failure messages
 * @param {(() => {field: string, code: string}[]) | undefined} [validate]  the
 *   engine's validate() for the same inputs, to compare missing parameters
 */
/**
 * The CLI's JSON object (an estimate or a plan) as the engine gives it: the CLI names the
 * config file it read in model_source.path, the engine, handed the text, has none.
 * @param {{stdout: string}} run
 */
export function cliObject(run) {
  const cli = JSON.parse(run.stdout);
  if (cli.model_source?.kind === 'file') {
    assert.equal(cli.model_source.path, cli.inputs.model, "the CLI's model_source.path is the file it read");
    cli.model_source.path = null;
  }
  return cli;
}

export function assertSameOutcome(run, result, what, validate) {
  if (run.status === 0) {
    assert.ok(!result.error, `${what}: the CLI succeeded, the engine said ${JSON.stringify(result.error)}`);
    assert.deepStrictEqual(result, cliObject(run), `${what}: results differ`);
    return;
  }
  assert.ok(result.error, `${what}: the CLI failed (${run.stderr.trim()}), the engine did not`);
  const json = cliJsonError(run);
  if (json) {
    // With --json the CLI prints the very object the engine returns.
    assert.deepStrictEqual(result.error, json, `${what}: the errors differ`);
    assert.equal(run.status, json.code === 'missing' ? 2 : 1, `${what}: exit status ${run.status}`);
    return;
  }
  if (run.status === 2) {
    assert.equal(result.error.code, 'missing', `${what}: exit status 2 but ${JSON.stringify(result.error)}`);
    const flags = cliMissingFlags(run);
    assert.ok(flags.includes(`--${result.error.field.replace(/_/g, '-')}`),
      `${what}: the CLI marks ${flags} missing, the engine ${result.error.field}`);
    if (validate) {
      const missing = validate().filter((p) => p.code === 'missing').map((p) => `--${p.field.replace(/_/g, '-')}`);
      assert.deepStrictEqual(missing.sort(), flags.sort(), `${what}: missing parameters differ`);
    }
    return;
  }
  assert.equal(run.status, 1, `${what}: exit status ${run.status}`);
  assert.notEqual(result.error.code, 'missing', `${what}: exit status 1 for a missing parameter`);
  const { message, fix } = cliError(run);
  assert.equal(result.error.message, message, `${what}: messages differ`);
  assert.equal(result.error.fix, fix, `${what}: fixes differ`);
}
