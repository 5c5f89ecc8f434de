import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DataDirInUseError, lockDataDir, type LockOptions } from '../db/data-dir-lock.js';
import { buildApp } from '../app/app.js';
import { configFromEnv } from '../kernel/config.js';
import { databaseKind } from './support/app.js';

const scratch = await mkdtemp(path.join(tmpdir(), 'flag-lock-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
});

let folders = 0;
const newFolder = () => path.join(scratch, `data-${++folders}`);

/** A child process holding `dataDir`, resolved once it holds it. */
function holder(dataDir: string, strategy: LockOptions['strategy']): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/hold-data-dir.ts', dataDir, strategy ?? ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('held')) resolve(child);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}): ${output}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

// `async` so that a lock taken synchronously and one taken asynchronously are checked alike.
const lock = async (dataDir: string, options: LockOptions) => lockDataDir(dataDir, options);

describe.each(['abstract', 'socket-file'] as const)('the data folder lock (%s)', (strategy) => {
  const options = { strategy };

  it('refuses a second open of the same folder in the same process, also through another path to it', async () => {
    const dataDir = newFolder();
    const release = await lock(dataDir, options);
    await expect(lock(dataDir, options)).rejects.toThrow(DataDirInUseError);
    await expect(lock(dataDir, options)).rejects.toThrow(`is in use by process ${process.pid}`);
    const alias = `${dataDir}-alias`;
    await symlink(dataDir, alias);
    await expect(lock(alias, options)).rejects.toThrow(DataDirInUseError);
    release();
    (await lock(dataDir, options))();
  });

  it('refuses a folder a child process holds, naming that process', async () => {
    const dataDir = newFolder();
    const child = await holder(dataDir, strategy);
    await expect(lock(dataDir, options)).rejects.toThrow(`The data folder ${dataDir} is in use by process ${child.pid}`);
    await killed(child);
  });

  it('is not blocked by a .lock file naming a live process that does not hold the folder', async () => {
    for (const pid of [process.pid, 1]) {
      const dataDir = newFolder();
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, '.lock'), String(pid));
      const release = await lock(dataDir, options);
      release();
    }
  });

  it('takes the folder at once after its holder was killed with SIGKILL', async () => {
    const dataDir = newFolder();
    const child = await holder(dataDir, strategy);
    await expect(lock(dataDir, options)).rejects.toThrow(DataDirInUseError);
    await killed(child);
    const release = await lock(dataDir, options);
    release();
  });
});

// The embedded database itself: only the PGlite suite opens a data folder.
if (databaseKind === 'pglite') {
  describe('the service on a data folder with a stale .lock', () => {
    it('starts and answers when .lock names a live process that does not hold the folder (PID 1)', async () => {
      const dataDir = newFolder();
      await mkdir(dataDir);
      await writeFile(path.join(dataDir, '.lock'), '1');
      // The folder is locked as for any start; the database itself comes from the migrated snapshot, which is quicker.
      const snapshot = new Blob([await readFile(inject('pgliteSnapshot'))]);
      const config = configFromEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'error' });
      const { app } = await buildApp({ ...config, database: { kind: 'pglite', dataDir, snapshot }, port: 0, host: '127.0.0.1' });
      try {
        const url = await app.listen({ port: 0, host: '127.0.0.1' });
        expect((await fetch(`${url}/health`)).status).toBe(200);
      } finally {
        await app.close();
      }
      // A start, not a unit: loading the database into a folder takes seconds alone and several times that beside
      // the suite's other files, so it is given the time a test app's start has (hookTimeout).
    }, 60_000);
  });
}
