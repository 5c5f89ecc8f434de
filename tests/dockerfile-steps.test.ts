import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUiIfStale } from './support/ui-build.js';

// No container engine here: the Dockerfile's runtime stage is performed in a fresh folder instead, read from the
// Dockerfile itself. What it copies (from the build stage, whose output is this working tree once built, or from the
// build context: the working tree less what .dockerignore leaves out), its `npm ci` (from npm's cache), its
// environment, its CMD and HEALTHCHECK. Its other RUN steps (giving the data folder to the image's user) need root
// and that user, and are left out: the service creates the folder itself here.

const run = promisify(execFile);
const root = process.cwd();

interface Instruction {
  keyword: string;
  /** `--name=value` options before the arguments (COPY --from, RUN --mount, HEALTHCHECK --interval). */
  flags: Record<string, string>;
  args: string;
}

/** The Dockerfile's instructions, stage by stage (each FROM starts one): continuation lines joined, comments dropped. */
function stages(text: string): Instruction[][] {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const result: Instruction[][] = [];
  for (const line of lines.map((raw) => raw.trim()).filter((raw) => raw && !raw.startsWith('#'))) {
    const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    const flags: Record<string, string> = {};
    let args = rest!;
    for (let flag = /^--([\w-]+)=(\S+)\s+/.exec(args); flag; flag = /^--([\w-]+)=(\S+)\s+/.exec(args)) {
      flags[flag[1]!] = flag[2]!;
      args = args.slice(flag[0].length);
    }
    const instruction = { keyword: keyword!.toUpperCase(), flags, args };
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)!.push(instruction);
  }
  return result;
}

/** A JSON-form instruction's words (`["node", "…"]`, after HEALTHCHECK's `CMD`), as Docker runs them without a shell. */
const words = (instruction: Instruction): string[] => JSON.parse(instruction.args.replace(/^CMD\s+/, ''));

const dockerfile = stages(await readFile(path.join(root, 'Dockerfile'), 'utf8'));
const [build, runtime] = [dockerfile[0]!, dockerfile.at(-1)!];
const all = (keyword: string) => runtime.filter((instruction) => instruction.keyword === keyword);
const one = (keyword: string) => all(keyword).at(-1)!;
const workdir = one('WORKDIR').args;
const buildWorkdir = build.filter((instruction) => instruction.keyword === 'WORKDIR').at(-1)!.args;

/** ENV KEY=value … as the image has it. */
const imageEnv = Object.fromEntries(all('ENV').flatMap((instruction) => instruction.args.split(/\s+/).map((pair) => pair.split('=') as [string, string])));

const folder = await mkdtemp(path.join(tmpdir(), 'flag-image-'));
const port = await freePort();
// A container's environment: the image's, the port, and where npm keeps its cache here (nothing else of this process).
const npmCache = process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {};
const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...npmCache, ...imageEnv, PORT: String(port) };
let service: ReturnType<typeof spawn>;
let output = '';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Whether the build context holds a file: .dockerignore's patterns, as Docker matches them against paths from the
 * context's root (`*` within a name, `**` across folders; a folder's pattern takes everything below it).
 */
const ignored = (await readFile(path.join(root, '.dockerignore'), 'utf8'))
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((pattern) => {
    const glob = pattern.replace(/^\//, '').split('**').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*'));
    return new RegExp(`^${glob.join('.*')}(/|$)`);
  });
const inContext = (file: string) => !ignored.some((pattern) => pattern.test(path.relative(root, file)));

/** The image's `node` is this one. */
const executable = (command: string) => (command === 'node' ? process.execPath : command);

/** Where an image path lands in the fresh folder, which stands for the runtime stage's WORKDIR. */
const inFolder = (imagePath: string) => path.join(folder, path.relative(workdir, path.resolve(workdir, imagePath)));

beforeAll(async () => {
  buildUiIfStale();
  for (const copy of all('COPY')) {
    const parts = copy.args.split(/\s+/);
    const destination = parts.pop()!;
    for (const source of parts) {
      // From the build stage, a path under its WORKDIR: the same path in this (built) working tree.
      const relative = copy.flags.from ? path.relative(buildWorkdir, source) : source;
      const target = destination.endsWith('/') ? path.join(inFolder(destination), path.basename(relative)) : inFolder(destination);
      await cp(path.join(root, relative), target, { recursive: true, ...(!copy.flags.from && { filter: inContext }) });
    }
  }
  for (const step of all('RUN').filter((instruction) => instruction.args.startsWith('npm '))) {
    const [npm, ...args] = step.args.split(/\s+/);
    await run(npm!, [...args, '--prefer-offline'], { cwd: folder, env });
  }
  const [command, ...args] = words(one('CMD'));
  service = spawn(executable(command!), args, { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening at')) resolve();
    };
    service.stdout!.on('data', read);
    service.stderr!.on('data', read);
    service.once('exit', () => reject(new Error(`the service stopped:\n${output}`)));
  });
}, 300_000);

afterAll(async () => {
  if (service && service.exitCode === null) {
    service.kill('SIGTERM');
    await once(service, 'exit');
  }
  await rm(folder, { recursive: true, force: true });
});

describe("the Dockerfile's runtime stage, performed without a container engine", () => {
  it('starts with the command that runs the build as it is (`npm run serve`), never building', async () => {
    const scripts = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).scripts;
    expect(words(one('CMD')).join(' ')).toBe(scripts.serve);
  });

  it('is ready, on the embedded database in the folder the image declares as its volume', async () => {
    const ready = await request(`http://127.0.0.1:${port}/ready`);
    expect(ready.statusCode, await ready.body.text()).toBe(200);
    expect(output).toContain('No admin credential existed, so one was created');
    expect(await readdir(inFolder(words(one('VOLUME'))[0]!))).toContain('PG_VERSION');
  });

  it("answers /health, and the image's HEALTHCHECK says healthy", async () => {
    const health = await request(`http://127.0.0.1:${port}/health`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    const [command, ...args] = words(one('HEALTHCHECK'));
    await expect(run(executable(command!), args, { cwd: folder, env })).resolves.toBeDefined();
  });

  it('runs as a user of its own, not root', () => {
    expect(one('USER').args).not.toMatch(/^(root|0)(:|$)/);
  });

  it('stops cleanly at SIGTERM, as `docker stop` sends it', async () => {
    service.kill('SIGTERM');
    const [code] = await once(service, 'exit');
    expect(code, output).toBe(0);
  });
});
