import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const root = process.cwd();
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

// The client as another service gets it (README, "Calling the API from another service"): `npm pack ./client`, the
// tarball installed into a project of its own from npm's cache, and a plain Node and a TypeScript program using it.
const scratch = await mkdtemp(path.join(tmpdir(), 'flag-client-'));
const consumer = path.join(scratch, 'consumer');
const installed = path.join(consumer, 'node_modules', '@flag-service', 'client');
let packed: { version: string; files: { path: string }[] };
let app: TestApp;

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd });
const node = async (file: string) => (await run(process.execPath, [file], { cwd: consumer, env: { PATH: process.env.PATH, URL: app.url, TOKEN: app.adminToken } })).stdout;

beforeAll(async () => {
  const { stdout } = await npm(['pack', './client', '--pack-destination', scratch, '--json'], root);
  packed = JSON.parse(stdout)[0];
  await mkdir(consumer);
  await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  await npm(['install', '--prefer-offline', path.join(scratch, `flag-service-client-${packed.version}.tgz`)], consumer);
  app = await startTestApp();
}, 120_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the typed client as a package of its own (@flag-service/client)', () => {
  it("is the built JavaScript with its declarations and the contract's types, nothing else", () => {
    expect(packed.files.map((file) => file.path).sort()).toEqual([
      'README.md',
      'dist/client/index.d.ts',
      'dist/client/index.js',
      'dist/generated/api.d.ts',
      'package.json',
    ]);
  });

  it("carries the contract's version and depends on the openapi-fetch the service pins, only", async () => {
    const contract = parse(await readFile(path.join(root, 'openapi.yaml'), 'utf8'));
    const service = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
    const client = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    expect(client.version).toBe(contract.info.version);
    expect(client.dependencies).toEqual({ 'openapi-fetch': service.dependencies['openapi-fetch'] });
  });

  it('imports and calls the API from plain Node', async () => {
    const script = path.join(consumer, 'consumer.mjs');
    await writeFile(
      script,
      `import { createClient } from '@flag-service/client';
const api = createClient(process.env.URL, { token: process.env.TOKEN });
const { data, response } = await api.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } });
console.log(JSON.stringify({ status: response.status, name: data.tagType.name }));
`,
    );
    expect(JSON.parse(await node(script))).toEqual({ status: 200, name: 'simple' });
  });

  it('type-checks a TypeScript program through the installed declarations, refusing an unknown body field, and runs it', async () => {
    await writeFile(
      path.join(consumer, 'consumer.ts'),
      `import { createClient, type components } from '@flag-service/client';
const api = createClient(process.env.URL!, { token: process.env.TOKEN! });
const name = \`team-\${Date.now()}\`;
// @ts-expect-error an unknown body field
void api.POST('/api/admin/tag-types', { body: { name, colour: 'red' } });
const created = await api.POST('/api/admin/tag-types', { body: { name, description: 'from a typed consumer' } });
const tagType: components['schemas']['TagType'] | undefined = created.data;
console.log(JSON.stringify({ status: created.response.status, name: tagType?.name === name, description: tagType?.description }));
`,
    );
    const compilerOptions = {
      module: 'nodenext',
      target: 'es2022',
      strict: true,
      outDir: 'out',
      // As most projects have it (and three times faster): the declarations are tsc's own output of checked sources.
      // Were the contract's types missing from the package, the expected error above would not be one.
      skipLibCheck: true,
      typeRoots: [path.join(root, 'node_modules', '@types')],
      types: ['node'],
    };
    await writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    const compiled = await run(process.execPath, [tsc, '-p', consumer]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe('');
    expect(JSON.parse(await node(path.join(consumer, 'out', 'consumer.js')))).toEqual({ status: 201, name: true, description: 'from a typed consumer' });
  }, 60_000);
});
