// Which scope serves a caller, and one sync per scope: the scopes are the environments and project sets of the client
// tokens the edge knows; a frontend token is served from a client token's scope that covers it.
import type { Logger } from 'pino';
import type { Caller } from '../../shared/caller.js';
import { serviceUnavailable } from '../../kernel/errors.js';
import type { EdgeSettings } from '../../kernel/edge-config.js';
import { ALL, callerOfToken } from '../access/tokens.js';
import { environmentOf } from '../client-features/request-shape.js';
import { EdgeScope } from './scope.js';
import { ScopeSync } from './sync.js';
import { redacted, type EdgeTokens, type KnownToken } from './tokens.js';
import type { Upstream } from './upstream.js';

interface Entry {
  scope: EdgeScope;
  sync: ScopeSync | undefined;
  /** The client tokens of this scope. */
  credentials: Set<string>;
}

const projectsOf = (projects: readonly string[]) => (projects.includes(ALL) ? null : [...new Set(projects)].sort());
const keyOf = (environment: string, projects: string[] | null) => `${environment}\u0000${projects?.join('\u0000') ?? ALL}`;
const covers = (scope: EdgeScope, environment: string, projects: string[] | null) =>
  scope.environment === environment && (scope.projects === null || (projects !== null && projects.every((p) => scope.projects!.includes(p))));

export class EdgeScopes {
  private readonly entries = new Map<string, Entry>();
  private readonly changeListeners: (() => void)[] = [];

  constructor(
    private readonly upstream: Upstream | undefined,
    private readonly tokens: EdgeTokens,
    private readonly settings: Pick<EdgeSettings, 'sync' | 'pollMs'>,
    private readonly log: Logger,
  ) {
    tokens.onLearned((token) => this.learned(token));
    tokens.onRevoked((token) => this.revoked(token));
  }

  /** Called after any scope changed. */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  all(): EdgeScope[] {
    return [...this.entries.values()].map((e) => e.scope);
  }

  /** The scope for an environment and projects, made when first needed (a cached state, or a client token's). */
  scope(environment: string, projects: string[] | null): EdgeScope {
    return this.entry(environment, projects).scope;
  }

  private entry(environment: string, projects: string[] | null): Entry {
    const key = keyOf(environment, projects);
    let entry = this.entries.get(key);
    if (!entry) {
      const scope = new EdgeScope(environment, projects);
      scope.onChange(() => {
        for (const listener of this.changeListeners) listener();
      });
      this.entries.set(key, (entry = { scope, sync: undefined, credentials: new Set() }));
    }
    return entry;
  }

  private entryOf(token: KnownToken): Entry {
    return this.entry(token.environment, projectsOf(token.projects));
  }

  private learned(token: KnownToken): void {
    if (token.type !== 'client') return;
    const entry = this.entryOf(token);
    entry.credentials.add(token.secret);
    if (!entry.sync && this.upstream) {
      entry.sync = new ScopeSync(entry.scope, token.secret, this.upstream, this.settings.sync, this.settings.pollMs, this.log, {
        refused: (credential) => this.tokens.revoke(credential),
        tokensChanged: () => void this.tokens.revalidate(),
      });
      entry.sync.start();
    }
  }

  private revoked(token: KnownToken): void {
    if (token.type !== 'client') return;
    const entry = this.entryOf(token);
    entry.credentials.delete(token.secret);
    if (entry.sync?.credential !== token.secret) return;
    const next = entry.credentials.values().next();
    if (!next.done) {
      entry.sync.credential = next.value;
      entry.sync.start();
      return;
    }
    this.log.warn({ token: redacted(token.secret), environment: entry.scope.environment }, 'edge: no client token of this scope is left; its flags are no longer kept in sync');
    void entry.sync.stop();
    entry.sync = undefined;
  }

  /** Where a caller's flags come from: its client token's scope, or for a frontend token a client token's scope covering it. */
  sourceFor(caller: Caller): EdgeScope {
    const environment = environmentOf(caller);
    const projects = projectsOf(caller.projects);
    const own = this.entries.get(keyOf(environment, projects));
    if (own && (own.credentials.size > 0 || own.scope.origin !== undefined)) return own.scope;
    for (const entry of this.entries.values()) if (entry.credentials.size > 0 && covers(entry.scope, environment, projects)) return entry.scope;
    throw serviceUnavailable(
      `This edge knows no client token for the environment "${environment}" covering ${projects === null ? 'every project' : `the projects ${projects.join(', ')}`}: ` +
        'a frontend token is served from the flags a client token reads, so add one to EDGE_TOKENS.',
    );
  }

  /** The scope a known token is served from; undefined when none can serve it. */
  scopeOfToken(token: KnownToken): EdgeScope | undefined {
    try {
      return this.sourceFor(callerOfToken(token));
    } catch {
      return undefined;
    }
  }

  /** Whether every scope the given tokens need holds what the upstream holds. */
  inSync(tokens: KnownToken[]): boolean {
    return tokens.every((token) => {
      const scope = this.scopeOfToken(token);
      if (!scope) return false;
      const entry = this.entries.get(keyOf(scope.environment, scope.projects))!;
      return entry.sync ? entry.sync.inSync : scope.origin === 'file';
    });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.sync?.stop()));
  }
}
