import { asc, count, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';

type StrategyRow = typeof t.strategies.$inferSelect;

const describeStrategyDefinition = (row: StrategyRow) => ({
  name: row.name,
  displayName: row.title,
  title: row.title,
  description: row.description,
  editable: !row.builtIn,
  deprecated: row.deprecated,
  parameters: row.parameters.map((p) => ({ name: p.name, type: p.type, description: p.description ?? '', required: p.required ?? false })),
});

async function requireStrategyDefinition(db: Db, name: string) {
  const [row] = await db.select().from(t.strategies).where(eq(t.strategies.name, name));
  if (!row) throw notFound(`No strategy named "${name}" exists.`);
  return row;
}

function checkParameterNames(parameters: t.StrategyParameterDefinition[]) {
  const seen = new Set<string>();
  for (const [i, p] of parameters.entries()) {
    if (seen.has(p.name)) throw badRequest(`parameters[${i}].name: the parameter "${p.name}" is defined twice.`);
    seen.add(p.name);
  }
}

async function setDeprecated(tx: Db, record: RecordEvent, name: string, deprecated: boolean) {
  const row = await requireStrategyDefinition(tx, name);
  if (row.deprecated === deprecated) return;
  const [after] = await tx.update(t.strategies).set({ deprecated }).where(eq(t.strategies.name, name)).returning();
  await record({ type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: describeStrategyDefinition(after!) });
}

export const strategyHandlers = {
  async getStrategies(_request, { db }) {
    const rows = await db.select().from(t.strategies).orderBy(asc(t.strategies.sortOrder), asc(t.strategies.name));
    return { status: 200, body: { version: 1, strategies: rows.map(describeStrategyDefinition) } };
  },

  async getStrategy({ params }, { db }) {
    return { status: 200, body: describeStrategyDefinition(await requireStrategyDefinition(db, params.strategyName)) };
  },

  async createStrategy({ body }, { change }) {
    const strategy = await change(async (tx, record) => {
      const [existing] = await tx.select().from(t.strategies).where(eq(t.strategies.name, body.name));
      if (existing) throw nameExists(`A strategy named "${body.name}" already exists.`);
      checkParameterNames(body.parameters ?? []);
      const [row] = await tx
        .insert(t.strategies)
        .values({ name: body.name, title: body.title ?? null, description: body.description ?? '', parameters: body.parameters ?? [] })
        .returning();
      const described = describeStrategyDefinition(row!);
      await record({ type: 'strategy-created', data: described });
      return described;
    });
    return { status: 201, body: strategy, headers: { location: `/api/admin/strategies/${encodeURIComponent(strategy.name)}` } };
  },

  async updateStrategy({ params, body }, { change }) {
    await change(async (tx, record) => {
      const before = await requireStrategyDefinition(tx, params.strategyName);
      if (before.builtIn) throw conflict(`The strategy "${before.name}" is built in and cannot be changed.`);
      if (body.name !== before.name) throw badRequest(`name: a strategy cannot be renamed; send "${before.name}".`);
      checkParameterNames(body.parameters ?? []);
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description ?? '' }),
        ...(body.parameters !== undefined && { parameters: body.parameters }),
      };
      if (Object.keys(changes).length === 0) return;
      const [after] = await tx.update(t.strategies).set(changes).where(eq(t.strategies.name, before.name)).returning();
      await record({ type: 'strategy-updated', data: describeStrategyDefinition(after!), preData: describeStrategyDefinition(before) });
    });
    return { status: 200, body: undefined };
  },

  async deleteStrategy({ params }, { change }) {
    await change(async (tx, record) => {
      const before = await requireStrategyDefinition(tx, params.strategyName);
      if (before.builtIn) throw conflict(`The strategy "${before.name}" is built in and cannot be deleted.`);
      const [uses] = await tx.select({ n: count() }).from(t.featureStrategies).where(eq(t.featureStrategies.strategyName, before.name));
      if (uses && uses.n > 0) throw conflict(`The strategy "${before.name}" is used by ${uses.n} flag strateg(ies); remove them first.`);
      await tx.delete(t.strategies).where(eq(t.strategies.name, before.name));
      await record({ type: 'strategy-deleted', preData: describeStrategyDefinition(before), data: { name: before.name } });
    });
    return { status: 200, body: undefined };
  },

  async deprecateStrategy({ params }, { change }) {
    await change((tx, record) => setDeprecated(tx, record, params.strategyName, true));
    return { status: 200, body: undefined };
  },

  async reactivateStrategy({ params }, { change }) {
    await change((tx, record) => setDeprecated(tx, record, params.strategyName, false));
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
