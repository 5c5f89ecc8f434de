// One process per embedded database folder, with a lock the operating system releases when the process dies.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Thrown when another live process holds the embedded database folder. */
export class DataDirInUseError extends Error {}

export interface LockOptions {
  /**
   * `abstract`: a Linux abstract-namespace socket, freed by the kernel with its process (even after kill -9).
   * `socket-file`: a socket file, for other systems: a file left by a dead process refuses connections, so it is
   * taken over. Default: `abstract` on Linux.
   */
  strategy?: 'abstract' | 'socket-file';
}

/** Unix socket paths are limited to about 104 bytes (macOS) or 108 (Linux). */
const MAX_SOCKET_PATH = 100;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Whether something accepts connections at `address`: a live holder. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error) => {
      const code = errorCode(error);
      if (code === 'ECONNREFUSED' || code === 'ENOENT') resolve(false);
      else reject(error);
    });
  });
}

function socketFile(folder: string, hash: string): string {
  const inFolder = path.join(folder, '.lock.sock');
  return Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH ? inFolder : path.join(tmpdir(), `flag-service-${hash.slice(0, 32)}.sock`);
}

async function listenOnSocketFile(server: net.Server, file: string): Promise<boolean> {
  try {
    await listen(server, file);
    return true;
  } catch (error) {
    if (errorCode(error) !== 'EADDRINUSE') throw error;
  }
  if (await answers(file)) return false;
  // Left by a process that died: nobody listens behind it any more.
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  try {
    await listen(server, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EADDRINUSE') return false; // another process took it over first
    throw error;
  }
}

/** The pid the human-readable `.lock` names, for the error message only: it is never trusted. */
function namedHolder(lockFile: string): string {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? `process ${pid}` : 'another process';
  } catch {
    return 'another process';
  }
}

/**
 * Takes the embedded database folder for this process: it must never be opened by two processes at once.
 * The lock is a listening socket whose name derives from the folder's real path, so the operating system
 * frees it when the process ends, however it ends; `<dataDir>/.lock` only tells humans which process holds it.
 * Returns the release.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const folder = realpathSync(path.resolve(dataDir));
  const hash = createHash('sha256').update(folder).digest('hex');
  const strategy = options.strategy ?? (process.platform === 'linux' ? 'abstract' : 'socket-file');
  const lockFile = path.join(folder, '.lock');
  const server = net.createServer((socket) => socket.destroy());
  let taken: boolean;
  let file: string | undefined;
  if (strategy === 'abstract') {
    try {
      await listen(server, `\0flag-service-data-dir-${hash.slice(0, 48)}`);
      taken = true;
    } catch (error) {
      if (errorCode(error) !== 'EADDRINUSE') throw error;
      taken = false;
    }
  } else {
    file = socketFile(folder, hash);
    taken = await listenOnSocketFile(server, file);
  }
  if (!taken) {
    throw new DataDirInUseError(
      `The data folder ${folder} is in use by ${namedHolder(lockFile)}. ` +
        'Stop that process, or set DATA_DIR to another folder or DATABASE_URL to a PostgreSQL database.',
    );
  }
  // The lock must not keep the process alive on its own.
  server.unref();
  writeFileSync(lockFile, `${process.pid}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(lockFile, { force: true });
    // The file first: once closed, another process may already have made its own in its place.
    if (file) rmSync(file, { force: true });
    server.close();
  };
}
