import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { conflict, nameExists } from '../kernel/errors.js';
import { builtInEnvironmentGrants } from '../db/default-permissions.js';
import { attachEnvironments } from '../domain/projects/environments.js';
import { requireEnvironment } from '../domain/lookups.js';

type EnvironmentRow = typeof t.environments.$inferSelect;

const environmentData = (row: EnvironmentRow) => ({
  name: row.name,
  type: row.type,
  enabled: row.enabled,
  protected: row.protected,
  sortOrder: row.sortOrder,
});

async function describeEnvironments(db: Db, rows: EnvironmentRow[]) {
  const [projects, tokens, enabled] = await Promise.all([
    db.select({ name: t.projectEnvironments.environment, n: count() }).from(t.projectEnvironments).groupBy(t.projectEnvironments.environment),
    db.select({ name: t.apiTokens.environment, n: count() }).from(t.apiTokens).groupBy(t.apiTokens.environment),
    db
      .select({ name: t.featureEnvironments.environment, n: count() })
      .from(t.featureEnvironments)
      .innerJoin(t.features, eq(t.features.name, t.featureEnvironments.featureName))
      .where(and(eq(t.featureEnvironments.enabled, true), sql`${t.features.archivedAt} is null`))
      .groupBy(t.featureEnvironments.environment),
  ]);
  const countOf = (list: { name: string; n: number }[], name: string) => list.find((c) => c.name === name)?.n ?? 0;
  return rows.map((row) => ({
    ...environmentData(row),
    projectCount: countOf(projects, row.name),
    apiTokenCount: countOf(tokens, row.name),
    enabledToggleCount: countOf(enabled, row.name),
  }));
}

async function describeEnvironment(db: Db, row: EnvironmentRow) {
  const [described] = await describeEnvironments(db, [row]);
  return described!;
}

/** Sets `enabled` and records the change; a request that changes nothing writes no event. */
async function setEnabled(change: Parameters<Handlers['enableEnvironment']>[1]['change'], name: string, enabled: boolean) {
  await change(async (tx, record) => {
    const before = await requireEnvironment(tx, name);
    const [after] = await tx.update(t.environments).set({ enabled }).where(eq(t.environments.name, name)).returning();
    await record({ type: 'environment-updated', environment: name, data: environmentData(after!), preData: environmentData(before) });
  });
}

export const environmentHandlers = {
  async getEnvironments(_request, { db }) {
    const rows = await db.select().from(t.environments).orderBy(asc(t.environments.sortOrder), asc(t.environments.name));
    return { status: 200, body: { version: 1, environments: await describeEnvironments(db, rows) } };
  },

  async getEnvironment({ params }, { db }) {
    return { status: 200, body: await describeEnvironment(db, await requireEnvironment(db, params.environment)) };
  },

  async createEnvironment({ body }, { change }) {
    const environment = await change(async (tx, record) => {
      const [existing] = await tx.select().from(t.environments).where(eq(t.environments.name, body.name));
      if (existing) throw nameExists(`An environment named "${body.name}" already exists.`);
      const [row] = await tx
        .insert(t.environments)
        .values({ name: body.name, type: body.type, enabled: body.enabled ?? true, ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }) })
        .returning();
      const projects = await tx.select({ id: t.projects.id }).from(t.projects);
      for (const project of projects) await attachEnvironments(tx, project.id, [body.name]);
      await tx.insert(t.rolePermissions).values(builtInEnvironmentGrants(body.name));
      await record({ type: 'environment-created', environment: body.name, data: environmentData(row!) });
      return describeEnvironment(tx, row!);
    });
    return { status: 201, body: environment };
  },

  async updateEnvironment({ params, body }, { change }) {
    const environment = await change(async (tx, record) => {
      const before = await requireEnvironment(tx, params.environment);
      const changes = { ...(body.type !== undefined && { type: body.type }), ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }) };
      if (Object.keys(changes).length === 0) return describeEnvironment(tx, before);
      const [after] = await tx.update(t.environments).set(changes).where(eq(t.environments.name, params.environment)).returning();
      await record({ type: 'environment-updated', environment: params.environment, data: environmentData(after!), preData: environmentData(before) });
      return describeEnvironment(tx, after!);
    });
    return { status: 200, body: environment };
  },

  async updateEnvironmentSortOrder({ body }, { change }) {
    await change(async (tx, record) => {
      for (const [name, sortOrder] of Object.entries(body)) {
        const before = await requireEnvironment(tx, name);
        const [after] = await tx.update(t.environments).set({ sortOrder }).where(eq(t.environments.name, name)).returning();
        await record({ type: 'environment-updated', environment: name, data: environmentData(after!), preData: environmentData(before) });
      }
    });
    return { status: 200, body: undefined };
  },

  async deleteEnvironment({ params }, { change }) {
    const name = params.environment;
    await change(async (tx, record) => {
      const before = await requireEnvironment(tx, name);
      const [tokens] = await tx.select({ n: count() }).from(t.apiTokens).where(eq(t.apiTokens.environment, name));
      const [strategies] = await tx.select({ n: count() }).from(t.featureStrategies).where(eq(t.featureStrategies.environment, name));
      const [enabled] = await tx
        .select({ n: count() })
        .from(t.featureEnvironments)
        .where(and(eq(t.featureEnvironments.environment, name), eq(t.featureEnvironments.enabled, true)));
      const uses = [
        tokens!.n > 0 && `${tokens!.n} API token(s)`,
        strategies!.n > 0 && `${strategies!.n} flag strateg(ies)`,
        enabled!.n > 0 && `${enabled!.n} enabled flag(s)`,
      ].filter(Boolean);
      if (uses.length > 0) throw conflict(`The environment "${name}" is in use by ${uses.join(', ')}; remove those first.`);
      await tx.delete(t.rolePermissions).where(eq(t.rolePermissions.environment, name));
      await tx.delete(t.environments).where(eq(t.environments.name, name));
      await record({ type: 'environment-deleted', environment: name, preData: environmentData(before) });
    });
    return { status: 200, body: undefined };
  },

  async enableEnvironment({ params }, { change }) {
    await setEnabled(change, params.environment, true);
    return { status: 204, body: undefined };
  },

  async disableEnvironment({ params }, { change }) {
    await setEnabled(change, params.environment, false);
    return { status: 204, body: undefined };
  },
} satisfies Partial<Handlers>;
