import { createHash, randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { Caller, TokenKind } from '../../shared/caller.js';
import type { AppConfig } from '../../kernel/config.js';

export const ALL = '*';
/** createdByUserId of events caused by admin tokens, as Unleash writes it. */
const ADMIN_TOKEN_USER_ID = -42;

export type TokenRow = typeof t.apiTokens.$inferSelect;

/** What a request's caller is made of: a token's name, kind and scope (a stored row, or what an edge's upstream said). */
export type TokenScope = Pick<TokenRow, 'tokenName' | 'type' | 'projects' | 'environment'>;

/** Where SDK credentials are looked up: at once when seen before, otherwise after a lookup. */
export interface TokenLookup {
  peek(secret: string): TokenScope | undefined;
  find(secret: string): Promise<TokenScope | undefined>;
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A fresh secret in Unleash's format: `<project>:<environment>.<56 hex>`, `[]` for several projects. */
export function newSecret(kind: TokenKind, projects: string[], environment: string): string {
  const random = randomBytes(28).toString('hex');
  if (kind === 'admin') return `*:*.${random}`;
  const projectPart = projects.length === 1 ? projects[0] : '[]';
  return `${projectPart}:${environment}.${random}`;
}

/** `Bearer x` and `x` both name the credential `x`. */
export function credentialFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = (header.charCodeAt(0) === 66 || header.charCodeAt(0) === 98 ? header.replace(/^bearer\s+/i, '') : header).trim();
  return value.length > 0 ? value : undefined;
}

export function callerOfToken(token: TokenScope): Caller {
  const kind = token.type;
  return {
    name: token.tokenName,
    userId: kind === 'admin' ? ADMIN_TOKEN_USER_ID : null,
    tokenKind: kind,
    projects: token.projects,
    environment: token.environment,
    grants: kind === 'admin' ? [{ permission: 'ADMIN', project: null, environment: null }] : [],
  };
}

/** The caller of every request when AUTH_TYPE is `none`: an admin reading `development` on the client API. */
export const anonymousAdmin: Caller = {
  name: 'unknown',
  userId: null,
  tokenKind: null,
  projects: [ALL],
  environment: 'development',
  grants: [{ permission: 'ADMIN', project: null, environment: null }],
};

/** Parses a configured secret `<project>:<environment>.<rest>` into its scope. */
export function scopeOfConfiguredSecret(secret: string, kind: TokenKind) {
  const match = /^([^:]+):([^.]+)\.(.+)$/.exec(secret);
  if (!match) throw new Error(`A configured ${kind} token must look like <project>:<environment>.<secret>`);
  const [, project, environment] = match as unknown as [string, string, string];
  if (kind === 'admin' && (project !== ALL || environment !== ALL)) {
    throw new Error('A configured admin token must start with *:*.');
  }
  if (kind !== 'admin' && environment === ALL) {
    throw new Error(`A configured ${kind} token must name one environment, not *`);
  }
  if (project === '[]') throw new Error(`A configured ${kind} token must name one project or *`);
  return { projects: [project], environment };
}

async function assertScopeExists(db: Db, projects: string[], environment: string) {
  if (environment !== ALL) {
    const found = await db.select().from(t.environments).where(eq(t.environments.name, environment));
    if (found.length === 0) throw new Error(`A configured token names the environment "${environment}", which does not exist`);
  }
  const named = projects.filter((p) => p !== ALL);
  if (named.length > 0) {
    const found = await db.select({ id: t.projects.id }).from(t.projects).where(inArray(t.projects.id, named));
    const missing = named.filter((p) => !found.some((f) => f.id === p));
    if (missing.length > 0) throw new Error(`A configured token names the project "${missing[0]}", which does not exist`);
  }
}

/**
 * Creates the tokens named by INIT_*_API_TOKENS that do not exist yet. When the service needs
 * credentials and no admin token exists at all, creates one and returns its secret to be shown once.
 */
export async function bootstrapTokens(db: Db, config: AppConfig): Promise<string | undefined> {
  const configured: [TokenKind, string[]][] = [
    ['admin', config.initTokens.admin],
    ['client', config.initTokens.client],
    ['frontend', config.initTokens.frontend],
  ];
  for (const [kind, secrets] of configured) {
    for (const secret of secrets) {
      const scope = scopeOfConfiguredSecret(secret, kind);
      await assertScopeExists(db, scope.projects, scope.environment);
      await db
        .insert(t.apiTokens)
        .values({ secretHash: hashSecret(secret), tokenName: kind === 'admin' ? 'admin' : `init-${kind}`, type: kind, ...scope })
        .onConflictDoNothing();
    }
  }
  if (config.authType === 'none') return undefined;
  const admins = await db.select({ id: t.apiTokens.id }).from(t.apiTokens).where(eq(t.apiTokens.type, 'admin')).limit(1);
  if (admins.length > 0) return undefined;
  const secret = newSecret('admin', [ALL], ALL);
  await db.insert(t.apiTokens).values({ secretHash: hashSecret(secret), tokenName: 'admin', type: 'admin', projects: [ALL], environment: ALL });
  return secret;
}
