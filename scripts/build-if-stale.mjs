#!/usr/bin/env node
// Compiles the service into dist/ only when it has to: when dist/ was never built, or when a file the build reads
// is newer than the last build. `npm start` runs this instead of tsc at every start (tsc takes seconds; this
// check takes milliseconds), and `prepare` runs it after `npm install` / `npm ci`.
//
// Plain JavaScript on purpose: it runs before anything is compiled, with no loader.
//
//   node scripts/build-if-stale.mjs            builds when stale; fails when the build fails
//   node scripts/build-if-stale.mjs --prepare  the same, but a failed build only warns (an install never fails
//                                              for it; `npm start` builds again and shows the error)
//   node scripts/build-if-stale.mjs --check    only says "up to date" (exit 0) or why it is stale (exit 1)
//   node scripts/build-if-stale.mjs --built    records a finished build (the `postbuild` script)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Written after every successful build; its modification time is the time the build started. */
const STAMP = path.join('dist', '.built');
/** What the service starts from: without it there is nothing to run, whatever the stamp says. */
const ENTRY = path.join('dist', 'app', 'main.js');
/** Held while one build runs: builds asked for together (test files, two starts) run one after the other. */
const LOCK = path.join('dist', '.building');
/** A lock without its owner's pid this long is one whose owner died before writing it. */
const ORPHANED_LOCK_MS = 10_000;
/** What the admin UI is served from, when the project has one (tsconfig.ui.json). */
const UI_ENTRY = path.join('dist', 'ui', 'index.html');
/**
 * The build's configurations: tsconfig.json (which the others extend) and each tsconfig.<part>.json it compiles
 * (tsconfig.ui.json: the admin UI, which Vite bundles).
 */
const CONFIG = /^tsconfig(\.[\w-]+)?\.json$/;
// The admin UI's page, styles and images are built too.
const COMPILED = /\.(ts|mts|cts|tsx|js|mjs|cjs|json|html|css|svg)$/;

const mtimeOf = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The newest modification time among the files tsc compiles under `entry` (a file or a folder). */
function newestUnder(entry, found) {
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return found;
  }
  if (!stat.isDirectory()) return COMPILED.test(entry) && stat.mtimeMs > found.mtimeMs ? { mtimeMs: stat.mtimeMs, file: entry } : found;
  for (const name of readdirSync(entry)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    found = newestUnder(path.join(entry, name), found);
  }
  return found;
}

/**
 * What the build reads: package.json, every tsconfig, and the folders and files that each tsconfig.<part>.json
 * includes (tsconfig.json itself also includes the tests, which are not built). Undefined when one cannot be read.
 */
function buildInputs(root) {
  const configs = readdirSync(root).filter((name) => CONFIG.test(name));
  const inputs = ['package.json', ...configs];
  for (const name of configs.filter((config) => config !== 'tsconfig.json')) {
    try {
      const { include } = JSON.parse(readFileSync(path.join(root, name), 'utf8'));
      if (!Array.isArray(include)) return undefined;
      inputs.push(...include);
    } catch {
      return undefined;
    }
  }
  return inputs;
}

/**
 * Whether dist/ under `root` must be built again, and why: `{ stale: false }` when the last build is newer than
 * every input. Only file modification times are read, never a file's content.
 */
export function buildState(root) {
  const built = mtimeOf(path.join(root, STAMP));
  if (built === undefined) return { stale: true, reason: 'dist/ has not been built yet' };
  if (mtimeOf(path.join(root, ENTRY)) === undefined) return { stale: true, reason: `${ENTRY} is missing` };
  if (mtimeOf(path.join(root, 'tsconfig.ui.json')) !== undefined && mtimeOf(path.join(root, UI_ENTRY)) === undefined) {
    return { stale: true, reason: `${UI_ENTRY} is missing` };
  }
  const inputs = buildInputs(root);
  if (!inputs) return { stale: true, reason: 'a tsconfig.*.json could not be read' };
  let newest = { mtimeMs: -Infinity, file: '' };
  for (const entry of inputs) newest = newestUnder(path.join(root, entry), newest);
  if (newest.mtimeMs > built) return { stale: true, reason: `${path.relative(root, newest.file)} changed since the last build` };
  return { stale: false, reason: 'dist/ is up to date' };
}

/**
 * The contract as JSON beside the build, with the hash of the YAML it came from: kernel/contract.ts reads it
 * instead of parsing the YAML at every start, as long as the hash matches.
 */
async function writeContractJson(root) {
  let yaml;
  try {
    yaml = readFileSync(path.join(root, 'openapi.yaml'), 'utf8');
  } catch {
    return;
  }
  const { parse } = await import('yaml');
  const yamlSha256 = createHash('sha256').update(yaml).digest('hex');
  const target = path.join(root, 'dist', 'openapi.json');
  writeFileSync(`${target}.${process.pid}`, JSON.stringify({ yamlSha256, contract: parse(yaml) }));
  renameSync(`${target}.${process.pid}`, target);
}

/** Records a build that started at `startedMs` (a file changed while tsc ran is then still seen as newer). */
export async function recordBuild(root, startedMs = Date.now()) {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  await writeContractJson(root);
  const stamp = path.join(root, STAMP);
  writeFileSync(stamp, `${new Date(startedMs).toISOString()}\n`);
  utimesSync(stamp, startedMs / 1000, startedMs / 1000);
}

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const mode = process.argv[2];
  if (mode === '--built') return recordBuild(root);
  const state = buildState(root);
  if (mode === '--check') {
    console.log(state.reason);
    process.exitCode = state.stale ? 1 : 0;
    return;
  }
  if (!state.stale) return;
  await whileLocked(root, () => build(root, mode));
}

const isRunning = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Runs `work` holding the build lock, waiting while another process holds it; a dead owner's lock is taken over. */
async function whileLocked(root, work) {
  const lock = path.join(root, LOCK);
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    try {
      owner = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      owner = undefined;
    }
    const orphaned = owner ? !isRunning(owner) : Date.now() - (mtimeOf(lock) ?? Date.now()) > ORPHANED_LOCK_MS;
    if (orphaned) rmSync(lock, { recursive: true, force: true });
    else await sleep(200);
  }
  writeFileSync(path.join(lock, 'pid'), String(process.pid));
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function build(root, mode) {
  // Another process may have built while this one waited for the lock.
  const state = buildState(root);
  if (!state.stale) return;
  console.log(`Building the service: ${state.reason}.`);
  const started = Date.now();
  // Through npm so that whatever "build" is (and its hooks) runs: the npm that started us when it is npm itself
  // (npx and other package managers set npm_execpath too).
  const npm = /npm-cli\.[cm]?js$/.test(process.env.npm_execpath ?? '') ? process.env.npm_execpath : undefined;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status === 0) {
    // The `postbuild` script has usually recorded it already; the stamp then only takes the start time.
    const stamp = path.join(root, STAMP);
    if ((mtimeOf(stamp) ?? -Infinity) >= started) utimesSync(stamp, started / 1000, started / 1000);
    else await recordBuild(root, started);
    return;
  }
  if (mode === '--prepare') {
    console.warn('The build failed; `npm start` will try again and show why.');
    return;
  }
  process.exitCode = result.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
