import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const root = process.cwd();
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

// The package as a consumer installs it: <scratch>/node_modules/flag-service with its package.json and the
// client built by tsconfig.client.json, beside openapi-fetch. Nothing is written into this working tree's dist/.
const scratch = await mkdtemp(path.join(tmpdir(), 'flag-client-'));
const installed = path.join(scratch, 'node_modules', 'flag-service');
let app: TestApp;

beforeAll(async () => {
  await mkdir(installed, { recursive: true });
  await cp(path.join(root, 'package.json'), path.join(installed, 'package.json'));
  await symlink(path.join(root, 'node_modules', 'openapi-fetch'), path.join(scratch, 'node_modules', 'openapi-fetch'), 'dir');
  await run(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.client.json'), '--outDir', path.join(installed, 'dist')]);
  app = await startTestApp();
}, 120_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the typed client as a package ('flag-service/client')", () => {
  it('is compiled JavaScript with declarations', async () => {
    expect(await readdir(path.join(installed, 'dist', 'client'))).toEqual(expect.arrayContaining(['index.js', 'index.d.ts']));
  });

  it('imports and calls the API from plain Node', async () => {
    const consumer = path.join(scratch, 'consumer.mjs');
    await writeFile(
      consumer,
      `import { createClient } from 'flag-service/client';
const api = createClient(process.env.URL, { token: process.env.TOKEN });
const { data, response } = await api.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } });
console.log(JSON.stringify({ status: response.status, name: data.tagType.name }));
`,
    );
    const { stdout } = await run(process.execPath, [consumer], { cwd: scratch, env: { PATH: process.env.PATH, URL: app.url, TOKEN: app.adminToken } });
    expect(JSON.parse(stdout)).toEqual({ status: 200, name: 'simple' });
  });

  it('type-checks a TypeScript consumer through its declarations, refusing an unknown body field', async () => {
    await writeFile(
      path.join(scratch, 'consumer.ts'),
      `import { createClient, type components } from 'flag-service/client';
const api = createClient('http://localhost:4242', { token: 'x' });
export async function use(): Promise<string | undefined> {
  const tagType: components['schemas']['TagType'] | undefined = (await api.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'simple' } } })).data?.tagType;
  await api.POST('/api/admin/tag-types', { body: { name: 'team' } });
  // @ts-expect-error an unknown body field
  await api.POST('/api/admin/tag-types', { body: { name: 'team', colour: 'red' } });
  return tagType?.name;
}
`,
    );
    await writeFile(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] }, files: ['consumer.ts'] }),
    );
    await writeFile(path.join(scratch, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    const result = await run(process.execPath, [tsc, '-p', scratch]).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
    );
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 120_000);
});
