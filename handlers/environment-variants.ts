import { and, eq } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { assertMatchesSchema } from '../kernel/schema-check.js';
import { resolveTarget, type Target } from '../domain/flags/strategy-target.js';
import { applyJsonPatch } from '../kernel/json-patch.js';
import { normalizeVariants } from '../domain/flags/strategy-rules.js';

type Variant = components['schemas']['Variant'];

const whereTarget = (target: Target) =>
  and(eq(t.featureEnvironments.featureName, target.feature.name), eq(t.featureEnvironments.environment, target.environment));

async function variantsOf(db: Db, target: Target): Promise<Variant[]> {
  const [row] = await db.select({ variants: t.featureEnvironments.variants }).from(t.featureEnvironments).where(whereTarget(target));
  return row?.variants ?? [];
}

async function storeVariants(tx: Db, record: RecordEvent, target: Target, requested: Variant[]) {
  const before = await variantsOf(tx, target);
  const variants = normalizeVariants(requested, 'variants', target.defaultStickiness);
  await tx.update(t.featureEnvironments).set({ variants }).where(whereTarget(target));
  await record({
    type: 'feature-environment-variants-updated',
    featureName: target.feature.name,
    project: target.feature.project,
    environment: target.environment,
    data: { variants },
    preData: { variants: before },
  });
  return variants;
}

export const environmentVariantHandlers = {
  async getEnvironmentVariants({ params }, { db }) {
    return { status: 200, body: { version: 1, variants: await variantsOf(db, await resolveTarget(db, params)) } };
  },

  async setEnvironmentVariants({ params, body }, { change }) {
    const variants = await change(async (tx, record) => storeVariants(tx, record, await resolveTarget(tx, params), body));
    return { status: 200, body: { version: 1, variants } };
  },

  async patchEnvironmentVariants({ params, body }, { change }) {
    const variants = await change(async (tx, record) => {
      const target = await resolveTarget(tx, params);
      const patched = applyJsonPatch(await variantsOf(tx, target), body);
      assertMatchesSchema('Variants', patched, 'variants');
      return storeVariants(tx, record, target, patched as Variant[]);
    });
    return { status: 200, body: { version: 1, variants } };
  },
} satisfies Partial<Handlers>;
