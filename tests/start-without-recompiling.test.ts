import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// scripts/build-if-stale.mjs decides whether `npm start` compiles. It is run here in a copy of a tiny project
// whose "build" only counts how often it ran, so the decision is checked by the file times, not by a clock.

const script = path.resolve('scripts/build-if-stale.mjs');
let root: string;

/** A project with one source file and a build that writes dist/app/main.js and counts its runs. */
async function makeProject(build = `node -e "const fs=require('fs');fs.mkdirSync('dist/app',{recursive:true});fs.writeFileSync('dist/app/main.js','');fs.appendFileSync('builds','x')"`) {
  root = await mkdtemp(path.join(tmpdir(), 'flag-freshness-'));
  await mkdir(path.join(root, 'scripts'));
  await mkdir(path.join(root, 'app'));
  await copyFile(script, path.join(root, 'scripts', 'build-if-stale.mjs'));
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'freshness-check', private: true, scripts: { build } }));
  await writeFile(path.join(root, 'tsconfig.json'), '{}');
  await writeFile(path.join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', include: ['app'] }));
  await writeFile(path.join(root, 'app', 'main.ts'), 'export {};\n');
  await mkdir(path.join(root, 'client'));
  await writeFile(path.join(root, 'tsconfig.client.json'), JSON.stringify({ extends: './tsconfig.json', include: ['client/index.ts'] }));
  await writeFile(path.join(root, 'client', 'index.ts'), 'export {};\n');
  await mkdir(path.join(root, 'tests'));
  await writeFile(path.join(root, 'tests', 'a.test.ts'), 'export {};\n');
  // Every input a minute in the past, so that a build made now is clearly newer.
  const past = Date.now() / 1000 - 60;
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.client.json', 'app/main.ts', 'client/index.ts', 'tests/a.test.ts']) {
    await utimes(path.join(root, file), past, past);
  }
}

function run(...args: string[]) {
  const { npm_execpath: _ignored, ...env } = process.env;
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs'), ...args], { cwd: root, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `run()` without blocking, for runs that overlap; answers the exit status. */
function runAsync(): Promise<number | null> {
  const { npm_execpath: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs')], { cwd: root, env, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', resolve));
}

/** Moves the last build 30 s back (the other inputs are a minute old) and rewrites `file` now, after it. */
async function editedAfterTheBuild(file: string) {
  const halfAMinuteAgo = Date.now() / 1000 - 30;
  await utimes(path.join(root, 'dist', '.built'), halfAMinuteAgo, halfAMinuteAgo);
  await writeFile(path.join(root, file), await readFile(path.join(root, file)));
}

const builds = async () => (await readFile(path.join(root, 'builds'), 'utf8').catch(() => '')).length;

beforeEach(async () => {
  await makeProject();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('npm start compiles only when the sources changed', () => {
  it('builds when dist/ was never built, then reports up to date and does not build again', async () => {
    expect(run('--check')).toMatchObject({ status: 1, output: expect.stringContaining('dist/ has not been built yet') });
    expect(run().status).toBe(0);
    expect(await builds()).toBe(1);

    expect(run('--check')).toEqual({ status: 0, output: 'dist/ is up to date\n' });
    expect(run()).toEqual({ status: 0, output: '' });
    expect(await builds()).toBe(1);
  });

  it('builds again when a source file is newer than the last build', async () => {
    run();
    await editedAfterTheBuild('app/main.ts');
    expect(run('--check')).toMatchObject({ status: 1, output: expect.stringContaining(`${path.join('app', 'main.ts')} changed since the last build`) });
    expect(run().status).toBe(0);
    expect(await builds()).toBe(2);
    expect(run('--check').status).toBe(0);
  });

  it('counts what every tsconfig.<part>.json compiles', async () => {
    run();
    await editedAfterTheBuild('client/index.ts');
    expect(run('--check').output).toContain(`${path.join('client', 'index.ts')} changed since the last build`);
  });

  it("counts the admin UI's page and styles, and builds again when its built page is gone", async () => {
    await rm(root, { recursive: true, force: true });
    await makeProject(
      `node -e "const fs=require('fs');for(const d of ['dist/app','dist/ui'])fs.mkdirSync(d,{recursive:true});fs.writeFileSync('dist/app/main.js','');fs.writeFileSync('dist/ui/index.html','');fs.appendFileSync('builds','x')"`,
    );
    await mkdir(path.join(root, 'ui'));
    await writeFile(path.join(root, 'tsconfig.ui.json'), JSON.stringify({ include: ['ui'] }));
    await writeFile(path.join(root, 'ui', 'index.html'), '<!doctype html>\n');
    await writeFile(path.join(root, 'ui', 'app.css'), 'body {}\n');
    run();
    for (const file of [path.join('ui', 'index.html'), path.join('ui', 'app.css')]) {
      await editedAfterTheBuild(file);
      expect(run('--check').output).toContain(`${file} changed since the last build`);
      run();
    }
    await unlink(path.join(root, 'dist', 'ui', 'index.html'));
    expect(run('--check').output).toContain(`${path.join('dist', 'ui', 'index.html')} is missing`);
  });

  it('does not count a test file, which no build compiles', async () => {
    run();
    await editedAfterTheBuild('tests/a.test.ts');
    expect(run('--check')).toEqual({ status: 0, output: 'dist/ is up to date\n' });
  });

  it('builds again when the build configuration changed or the compiled entry point is gone', async () => {
    run();
    await editedAfterTheBuild('tsconfig.build.json');
    expect(run('--check').output).toContain('tsconfig.build.json changed since the last build');
    run();
    await unlink(path.join(root, 'dist', 'app', 'main.js'));
    expect(run('--check').output).toContain('main.js is missing');
    run();
    expect(await builds()).toBe(3);
  });

  it('records no build when the build fails: start fails, while an install only warns', async () => {
    await rm(root, { recursive: true, force: true });
    await makeProject('node -e "process.exit(3)"');
    expect(run().status).toBe(3);
    const prepare = run('--prepare');
    expect(prepare.status).toBe(0);
    expect(prepare.output).toContain('The build failed');
    expect(run('--check').status).toBe(1);
  });
});

describe('builds asked for at the same time', () => {
  /** A build that takes a second, so that the runs overlap. */
  const slowBuild = `node -e "const fs=require('fs');fs.appendFileSync('builds','x');Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,1000);fs.mkdirSync('dist/app',{recursive:true});fs.writeFileSync('dist/app/main.js','')"`;

  it('build once: the runs that waited find dist/ up to date', async () => {
    await rm(root, { recursive: true, force: true });
    await makeProject(slowBuild);
    const results = await Promise.all([runAsync(), runAsync(), runAsync()]);
    expect(results).toEqual([0, 0, 0]);
    expect(await builds()).toBe(1);
    expect(run('--check').status).toBe(0);
  });

  it('take over the lock of a build whose process died', async () => {
    await mkdir(path.join(root, 'dist', '.building'), { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await writeFile(path.join(root, 'dist', '.building', 'pid'), dead.stdout);
    expect(run().status).toBe(0);
    expect(await builds()).toBe(1);
  });
});

describe('a recorded build', () => {
  it('carries the contract as JSON with the hash of the YAML it was parsed from', async () => {
    const yaml = await readFile('openapi.yaml', 'utf8');
    await writeFile(path.join(root, 'openapi.yaml'), yaml);
    await symlink(path.resolve('node_modules'), path.join(root, 'node_modules'));
    expect(run('--built').status).toBe(0);
    const built = JSON.parse(await readFile(path.join(root, 'dist', 'openapi.json'), 'utf8')) as { yamlSha256: string; contract: unknown };
    expect(built.yamlSha256).toBe(createHash('sha256').update(yaml).digest('hex'));
    expect(built.contract).toEqual(parse(yaml));
  });
});

describe('the package scripts', () => {
  it('start runs the freshness check, then exactly what serve runs; install builds through the same check', async () => {
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`node scripts/build-if-stale.mjs && ${scripts.serve}`);
    expect(scripts.serve).toMatch(/^node .*dist\/app\/main\.js$/);
    expect(scripts.prepare).toBe('node scripts/build-if-stale.mjs --prepare');
    expect(scripts.postbuild).toBe('node scripts/build-if-stale.mjs --built');
  });
});
