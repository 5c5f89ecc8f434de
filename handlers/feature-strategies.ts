import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { notFound } from '../kernel/errors.js';
import { assertMatchesSchema } from '../kernel/schema-check.js';
import { describeFeature, describeStrategy, segmentsOfStrategies } from '../domain/flags/feature-view.js';
import { strategyOrder } from '../db/strategy-order.js';
import { applyJsonPatch } from '../kernel/json-patch.js';
import { enterEnabledStage } from '../domain/flags/lifecycle.js';
import { linkSegments, strategyValues } from '../domain/flags/strategy-values.js';
import { resolveTarget, type Target } from '../domain/flags/strategy-target.js';

type StrategyInput = components['schemas']['CreateFeatureStrategy'];

async function strategiesOf(db: Db, target: Target) {
  const rows = await db
    .select()
    .from(t.featureStrategies)
    .where(and(eq(t.featureStrategies.featureName, target.feature.name), eq(t.featureStrategies.environment, target.environment)));
  rows.sort(strategyOrder);
  const segments = await segmentsOfStrategies(db, rows.map((r) => r.id));
  return rows.map((row) => describeStrategy(row, segments.get(row.id) ?? []));
}

async function requireStrategy(db: Db, target: Target, id: string) {
  const strategy = (await strategiesOf(db, target)).find((s) => s.id === id);
  if (!strategy) throw notFound(`No strategy with id "${id}" exists on the flag "${target.feature.name}" in the environment "${target.environment}".`);
  return strategy;
}

const scopeOf = (target: Target) => ({ featureName: target.feature.name, project: target.feature.project, defaultStickiness: target.defaultStickiness });

const eventScope = (target: Target) => ({ featureName: target.feature.name, project: target.feature.project, environment: target.environment });

/** Adds a strategy and records `feature-strategy-add`; returns it as read back. */
async function addStrategy(tx: Db, record: RecordEvent, target: Target, input: StrategyInput) {
  const { columns, segmentIds } = await strategyValues(tx, scopeOf(target), input);
  const [existing] = await tx
    .select({ n: count() })
    .from(t.featureStrategies)
    .where(and(eq(t.featureStrategies.featureName, target.feature.name), eq(t.featureStrategies.environment, target.environment)));
  const id = randomUUID();
  await tx.insert(t.featureStrategies).values({
    id,
    featureName: target.feature.name,
    environment: target.environment,
    sortOrder: input.sortOrder ?? existing?.n ?? 0,
    ...columns,
  });
  await linkSegments(tx, id, segmentIds);
  const strategy = await requireStrategy(tx, target, id);
  await record({ type: 'feature-strategy-add', ...eventScope(target), data: strategy });
  return strategy;
}

async function replaceStrategy(tx: Db, record: RecordEvent, target: Target, id: string, input: StrategyInput) {
  const before = await requireStrategy(tx, target, id);
  const { columns, segmentIds } = await strategyValues(tx, scopeOf(target), input);
  await tx
    .update(t.featureStrategies)
    .set({ ...columns, ...(input.sortOrder !== undefined && { sortOrder: input.sortOrder }) })
    .where(eq(t.featureStrategies.id, id));
  await linkSegments(tx, id, segmentIds);
  const after = await requireStrategy(tx, target, id);
  await record({ type: 'feature-strategy-update', ...eventScope(target), data: after, preData: before });
  return after;
}

async function setEnvironmentEnabled(tx: Db, record: RecordEvent, target: Target, enabled: boolean) {
  const changed = await tx
    .update(t.featureEnvironments)
    .set({ enabled })
    .where(
      and(
        eq(t.featureEnvironments.featureName, target.feature.name),
        eq(t.featureEnvironments.environment, target.environment),
        eq(t.featureEnvironments.enabled, !enabled),
      ),
    )
    .returning();
  if (changed.length === 0) return;
  await record({ type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled', ...eventScope(target) });
  if (enabled) await enterEnabledStage(tx, target.feature.name, target.environment);
}

export const featureStrategyHandlers = {
  async getFeatureEnvironment({ params }, { db }) {
    const target = await resolveTarget(db, params);
    const feature = await describeFeature(db, target.feature);
    const environment = feature.environments.find((e) => e.name === params.environment);
    if (!environment) throw notFound(`The flag "${params.featureName}" has no configuration in the environment "${params.environment}".`);
    return { status: 200, body: environment };
  },

  async enableFeatureEnvironment({ params }, { change }) {
    await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const strategies = await strategiesOf(tx, target);
      if (!strategies.some((s) => !s.disabled)) await addStrategy(tx, record, target, { name: 'flexibleRollout', parameters: { rollout: '100' } });
      await setEnvironmentEnabled(tx, record, target, true);
    });
    return { status: 200, body: undefined };
  },

  async disableFeatureEnvironment({ params }, { change }) {
    await change(async (tx, record) => setEnvironmentEnabled(tx, record, await resolveTarget(tx, params), false));
    return { status: 200, body: undefined };
  },

  async getFeatureStrategies({ params }, { db }) {
    return { status: 200, body: await strategiesOf(db, await resolveTarget(db, params)) };
  },

  async getFeatureStrategy({ params }, { db }) {
    return { status: 200, body: await requireStrategy(db, await resolveTarget(db, params), params.strategyId) };
  },

  async addFeatureStrategy({ params, body }, { change }) {
    const strategy = await change(async (tx, record) => addStrategy(tx, record, await resolveTarget(tx, params), body));
    return { status: 200, body: strategy };
  },

  async updateFeatureStrategy({ params, body }, { change }) {
    const strategy = await change(async (tx, record) => replaceStrategy(tx, record, await resolveTarget(tx, params), params.strategyId, body));
    return { status: 200, body: strategy };
  },

  async patchFeatureStrategy({ params, body }, { change }) {
    const strategy = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const current = await requireStrategy(tx, target, params.strategyId);
      const editable: StrategyInput = {
        name: current.name,
        // The patched document is a PUT body, where no title is null: `replace /title` works on an untitled strategy.
        title: current.title ?? null,
        disabled: current.disabled,
        sortOrder: current.sortOrder,
        parameters: current.parameters,
        constraints: current.constraints,
        variants: current.variants,
        segments: current.segments,
      };
      const patched = applyJsonPatch(editable, body);
      assertMatchesSchema('CreateFeatureStrategy', patched, 'strategy');
      return replaceStrategy(tx, record, target, params.strategyId, patched as StrategyInput);
    });
    return { status: 200, body: strategy };
  },

  async deleteFeatureStrategy({ params }, { change }) {
    await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const strategy = await requireStrategy(tx, target, params.strategyId);
      await tx.delete(t.featureStrategies).where(eq(t.featureStrategies.id, strategy.id));
      await record({ type: 'feature-strategy-remove', ...eventScope(target), preData: strategy });
      if ((await strategiesOf(tx, target)).length === 0) await setEnvironmentEnabled(tx, record, target, false);
    });
    return { status: 200, body: undefined };
  },

  async setStrategySortOrder({ params, body }, { change }) {
    await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const before = await strategiesOf(tx, target);
      for (const { id } of body) {
        if (!before.some((s) => s.id === id)) throw notFound(`No strategy with id "${id}" exists on the flag "${target.feature.name}" in the environment "${target.environment}".`);
      }
      for (const { id, sortOrder } of body) await tx.update(t.featureStrategies).set({ sortOrder }).where(eq(t.featureStrategies.id, id));
      const after = await strategiesOf(tx, target);
      const order = (list: { id: string; sortOrder: number }[]) => list.map(({ id, sortOrder }) => ({ id, sortOrder }));
      await record({ type: 'strategy-order-changed', ...eventScope(target), data: { strategies: order(after) }, preData: { strategies: order(before) } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;


