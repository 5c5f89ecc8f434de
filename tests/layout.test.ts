// The floors of ARCHITECTURE.md: the dependency rule refuses what it must (checked on a small project of its own, so
// the real tree stays untouched), and handlers/ holds nothing but handlers, each file those of one contract tag.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('the dependency rule (npm run check:layout)', () => {
  const projects: string[] = [];
  afterAll(() => Promise.all(projects.map((dir) => rm(dir, { recursive: true, force: true }))));

  /** Runs the project's own rules over a tree made of `files` (path → source); answers the rule names it broke. */
  async function violations(files: Record<string, string>): Promise<string[]> {
    const dir = await mkdtemp(path.join(tmpdir(), 'layout-'));
    projects.push(dir);
    await copyFile(path.join(root, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
    for (const [file, source] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), source);
    }
    const cli = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
    const folders = [...new Set(Object.keys(files).map((file) => file.split('/')[0]!))];
    const result = await run(process.execPath, [cli, ...folders, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: dir }).catch(
      (failed: { stdout: string }) => failed,
    );
    const report = JSON.parse(result.stdout) as { summary: { violations: { rule: { name: string } }[] } };
    return [...new Set(report.summary.violations.map((violation) => violation.rule.name))].sort();
  }

  it('accepts imports that go down the floors', async () => {
    expect(
      await violations({
        'app/main.ts': "import { a } from '../handlers/a.js';\nexport const main = a;\n",
        'handlers/a.ts': "import { d } from '../domain/d.js';\nexport const a = d;\n",
        'domain/d.ts': "import { k } from '../kernel/k.js';\nexport const d = k;\n",
        'kernel/k.ts': "import { s } from '../db/s.js';\nexport const k = s;\n",
        'db/s.ts': 'export const s = 1;\n',
      }),
    ).toEqual([]);
  });

  it('refuses an import up a floor', async () => {
    expect(
      await violations({
        'domain/d.ts': "import { a } from '../handlers/a.js';\nexport const d = a;\n",
        'handlers/a.ts': 'export const a = 1;\n',
      }),
    ).toEqual(['domain-imports-below']);
  });

  it('refuses a handler file importing another', async () => {
    expect(
      await violations({
        'handlers/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
        'handlers/b.ts': 'export const b = 1;\n',
      }),
    ).toEqual(['handlers-imports-below']);
  });

  it('refuses a circle, even within one floor', async () => {
    expect(
      await violations({
        'domain/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'domain/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      }),
    ).toEqual(['no-circular']);
  });

  it('refuses the admin UI reaching past the typed client and shared/', async () => {
    expect(
      await violations({
        'ui/page.ts': "import { k } from '../kernel/k.js';\nexport const page = k;\n",
        'kernel/k.ts': 'export const k = 1;\n',
      }),
    ).toEqual(['ui-imports-below']);
  });
});

describe('handlers/', () => {
  const contract = parse(readFileSync(path.join(root, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
  const tagOf = new Map(Object.values(contract.paths).flatMap((item) => Object.values(item).map((operation) => [operation.operationId, operation.tags?.[0]] as const)));

  it('holds only handler files, each exporting one table of operations of a single contract tag', async () => {
    const files = (await readdir(path.join(root, 'handlers'))).filter((file) => file.endsWith('.ts'));
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const module = (await import(path.join(root, 'handlers', file))) as Record<string, Record<string, unknown>>;
      const exported = Object.values(module);
      expect(exported, `${file} exports one handler table and nothing else`).toHaveLength(1);
      const operationIds = Object.keys(exported[0]!);
      expect(operationIds.filter((id) => !tagOf.has(id)), `${file}: keys that are not operationIds`).toEqual([]);
      found[file] = [...new Set(operationIds.map((id) => tagOf.get(id)!))];
    }
    expect(Object.entries(found).filter(([, tags]) => tags.length !== 1)).toEqual([]);
  });
});
