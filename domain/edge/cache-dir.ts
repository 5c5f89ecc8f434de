// EDGE_CACHE_DIR: the edge's last good state (every scope's flags, and the scope of every token it served, by the
// token's hash, never the secret), written after each change so that an edge started while its upstream is away
// serves what it served before.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { hashSecret } from '../access/tokens.js';
import type { ClientFeatures, EdgeScope } from './scope.js';
import type { KnownToken, RememberedToken } from './tokens.js';

const FILE = 'edge-state.json';
/** Writes follow changes by this much, so that a burst of changes is one write. */
const WRITE_DELAY_MS = 500;

export interface CachedScope {
  environment: string;
  projects: string[] | null;
  state: ClientFeatures & { revision: number };
}

export interface CachedState {
  savedAt: string;
  /** Token scopes by the SHA-256 of the secret. */
  tokens: Record<string, RememberedToken>;
  scopes: CachedScope[];
}

export class EdgeCacheDir {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly current: () => { scopes: EdgeScope[]; tokens: KnownToken[] },
  ) {}

  /** The state written last; undefined when there is none or it cannot be read. */
  async load(): Promise<CachedState | undefined> {
    try {
      return JSON.parse(await readFile(join(this.dir, FILE), 'utf8')) as CachedState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn({ err: error, dir: this.dir }, 'edge: the cached state cannot be read; starting without it');
      return undefined;
    }
  }

  /** Writes the current state soon. */
  changed = (): void => {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, WRITE_DELAY_MS);
  };

  /** Writes what is pending now (at shutdown). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }
    await this.writing;
  }

  private async write(): Promise<void> {
    const { scopes, tokens } = this.current();
    const state: CachedState = {
      savedAt: new Date().toISOString(),
      tokens: Object.fromEntries(tokens.map((t) => [hashSecret(t.secret), { tokenName: t.tokenName, type: t.type, projects: t.projects, environment: t.environment }])),
      scopes: scopes.flatMap((scope) => {
        const saved = scope.state();
        return saved ? [{ environment: scope.environment, projects: scope.projects, state: saved }] : [];
      }),
    };
    try {
      await mkdir(this.dir, { recursive: true });
      const temporary = join(this.dir, `${FILE}.${process.pid}.tmp`);
      await writeFile(temporary, JSON.stringify(state));
      await rename(temporary, join(this.dir, FILE));
    } catch (error) {
      this.log.warn({ err: error, dir: this.dir }, 'edge: the state cannot be written to the cache folder');
    }
  }
}
