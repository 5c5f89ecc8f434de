import { asc, eq, inArray } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { holds, type Caller, type PermissionName, type TokenKind } from '../shared/caller.js';
import { badRequest, forbidden, notFound } from '../kernel/errors.js';
import { ALL, hashSecret, newSecret, type TokenRow } from '../domain/access/tokens.js';

/** The permission each kind of token needs to be read, created or deleted. ADMIN satisfies all. */
const permissionFor: Record<'read' | 'create' | 'delete', Record<TokenKind, PermissionName>> = {
  read: { admin: 'ADMIN', client: 'READ_CLIENT_API_TOKEN', frontend: 'READ_FRONTEND_API_TOKEN' },
  create: { admin: 'ADMIN', client: 'CREATE_CLIENT_API_TOKEN', frontend: 'CREATE_FRONTEND_API_TOKEN' },
  delete: { admin: 'ADMIN', client: 'DELETE_CLIENT_API_TOKEN', frontend: 'DELETE_FRONTEND_API_TOKEN' },
};

function assertMay(caller: Caller, action: keyof typeof permissionFor, kind: TokenKind) {
  const permission = permissionFor[action][kind];
  if (!holds(caller, permission)) throw forbidden(`You need the "${permission}" permission to ${action} ${kind} tokens.`);
}

/** A token as listed and as written on events: never its secret. */
const describeToken = (row: TokenRow) => ({
  id: row.id,
  tokenName: row.tokenName,
  type: row.type,
  environment: row.environment,
  project: row.projects.join(','),
  projects: row.projects,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  seenAt: row.seenAt?.toISOString() ?? null,
});

const eventScope = (row: TokenRow) => ({
  environment: row.environment === ALL ? null : row.environment,
  project: row.projects.length === 1 && row.projects[0] !== ALL ? row.projects[0] : null,
});

async function assertEnvironmentExists(db: Db, environment: string) {
  const [found] = await db.select({ name: t.environments.name }).from(t.environments).where(eq(t.environments.name, environment));
  if (!found) throw badRequest(`environment: the environment "${environment}" does not exist.`);
}

async function assertProjectsExist(db: Db, projects: string[]) {
  const named = projects.filter((p) => p !== ALL);
  if (named.length === 0) return;
  const found = await db.select({ id: t.projects.id }).from(t.projects).where(inArray(t.projects.id, named));
  const missing = named.find((p) => !found.some((f) => f.id === p));
  if (missing) throw badRequest(`projects: the project "${missing}" does not exist.`);
}

function kindOf(type: string): TokenKind {
  const lower = type.toLowerCase();
  return lower === 'backend' ? 'client' : (lower as TokenKind);
}

export const apiTokenHandlers = {
  async getApiTokens(_request, { db, caller }) {
    const readable = (['admin', 'client', 'frontend'] as const).filter((kind) => holds(caller, permissionFor.read[kind]));
    const rows = await db.select().from(t.apiTokens).where(inArray(t.apiTokens.type, readable)).orderBy(asc(t.apiTokens.id));
    return { status: 200, body: { tokens: rows.map(describeToken) } };
  },

  async createApiToken({ body }, { caller, change }) {
    const kind = kindOf(body.type);
    assertMay(caller, 'create', kind);
    const requestedProjects = body.projects ?? (body.project ? [body.project] : [ALL]);
    const projects = requestedProjects.includes(ALL) ? [ALL] : [...new Set(requestedProjects)];
    const environment = kind === 'admin' ? ALL : (body.environment ?? 'development');
    if (kind === 'admin' && ((body.environment && body.environment !== ALL) || projects[0] !== ALL)) {
      throw badRequest('environment, projects: admin tokens cover every project and environment; leave both out or use "*".');
    }
    if (kind !== 'admin' && environment === ALL) {
      throw badRequest(`environment: a ${kind} token reads one environment; name it instead of "*".`);
    }
    const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt: the expiry must be in the future.');

    const secret = newSecret(kind, projects, environment);
    const row = await change(async (tx, record) => {
      if (kind !== 'admin') await assertEnvironmentExists(tx, environment);
      await assertProjectsExist(tx, projects);
      const [created] = await tx
        .insert(t.apiTokens)
        .values({ secretHash: hashSecret(secret), tokenName: body.tokenName, type: kind, environment, projects, expiresAt })
        .returning();
      await record({ type: 'api-token-created', ...eventScope(created!), data: describeToken(created!) });
      return created!;
    });
    return { status: 201, body: { ...describeToken(row), secret }, headers: { location: '/api/admin/api-tokens' } };
  },

  async deleteApiToken({ params }, { caller, change }) {
    const byId = /^\d{1,9}$/.test(params.token);
    await change(async (tx, record) => {
      const [row] = await tx
        .select()
        .from(t.apiTokens)
        .where(byId ? eq(t.apiTokens.id, Number(params.token)) : eq(t.apiTokens.secretHash, hashSecret(params.token)));
      if (!row) throw notFound('No API token matches that secret or id.');
      assertMay(caller, 'delete', row.type);
      await tx.delete(t.apiTokens).where(eq(t.apiTokens.id, row.id));
      await record({ type: 'api-token-deleted', ...eventScope(row), preData: describeToken(row) });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
