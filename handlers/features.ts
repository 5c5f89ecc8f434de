import { and, asc, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import { featureTypeAliases } from '../domain/flags/feature-types.js';
import * as t from '../db/schema.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';
import { authorize } from '../domain/access/auth.js';
import { userIdOf } from '../shared/caller.js';
import { assertMatchesSchema } from '../kernel/schema-check.js';
import { describeFeature, describeFeatures, featureMetadata, requireActiveFeature, requireFeature, type FeatureRow } from '../domain/flags/feature-view.js';
import { favoriteFlagsAmong } from '../domain/flags/favorites.js';
import { applyJsonPatch } from '../kernel/json-patch.js';
import { currentStages, enterStage, leaveStage } from '../domain/flags/lifecycle.js';
import { present } from '../kernel/present.js';
import { requireProject } from '../domain/lookups.js';
import { tagFeature } from '../domain/flags/tagging.js';

type UpdateFeature = components['schemas']['UpdateFeature'];


async function validFeatureType(db: Db, requested: string | undefined): Promise<string | undefined> {
  if (requested === undefined) return undefined;
  const id = featureTypeAliases[requested] ?? requested;
  const [row] = await db.select().from(t.featureTypes).where(eq(t.featureTypes.id, id));
  if (!row) throw badRequest(`type: "${requested}" is not a flag type; use one of release, experiment, operational, kill-switch, permission.`);
  return id;
}

interface EditableMetadata {
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
}

/** Writes new metadata and its events: `feature-metadata-updated` for real changes, `feature-stale-on/off` for stale. */
async function updateMetadata(tx: Db, record: RecordEvent, before: FeatureRow, next: EditableMetadata) {
  const [after] = await tx
    .update(t.features)
    .set({ type: next.type, description: next.description, stale: next.stale, impressionData: next.impressionData })
    .where(eq(t.features.name, before.name))
    .returning();
  await record({ type: 'feature-metadata-updated', featureName: before.name, project: before.project, data: featureMetadata(after!), preData: featureMetadata(before) });
  await recordStaleChange(record, before, next.stale);
  return after!;
}

async function recordStaleChange(record: RecordEvent, before: FeatureRow, stale: boolean) {
  if (before.stale === stale) return;
  await record({ type: stale ? 'feature-stale-on' : 'feature-stale-off', featureName: before.name, project: before.project });
}

/** 409 when a flag has the name: in any project, or in the archive (archived flags keep their names). */
async function refuseTakenFlagName(db: Db, name: string) {
  const [existing] = await db.select({ project: t.features.project, archivedAt: t.features.archivedAt }).from(t.features).where(eq(t.features.name, name));
  if (!existing) return;
  const where = existing.archivedAt ? 'in the archive' : `in the project "${existing.project}"`;
  throw nameExists(`A flag named "${name}" already exists ${where}; flag names are unique.`);
}

const editable = (row: FeatureRow): EditableMetadata => ({
  type: row.type,
  description: row.description,
  stale: row.stale,
  impressionData: row.impressionData,
});

/** The flag's metadata with the patch applied, held to the same contract schema as a PUT body (`UpdateFeature`). */
function patchedMetadata(row: FeatureRow, operations: unknown[]): EditableMetadata {
  const result = applyJsonPatch(editable(row), operations) as Record<string, unknown>;
  const unknown = Object.keys(result).filter((key) => !(key in editable(row)));
  if (unknown.length > 0) throw badRequest(`body: /${unknown[0]} cannot be patched; use /description, /type, /stale or /impressionData.`);
  assertMatchesSchema('UpdateFeature', result, 'body');
  const { type, description, stale, impressionData } = result as UpdateFeature;
  if (type === undefined) throw badRequest('body: /type cannot be removed; replace it with one of the flag types.');
  if (stale === undefined) throw badRequest('body: /stale cannot be removed; replace it with true or false.');
  if (impressionData === undefined) throw badRequest('body: /impressionData cannot be removed; replace it with true or false.');
  return { type, description: description ?? null, stale, impressionData };
}

/** Every named flag of the project that is in the wanted state; 404 naming the first that is not. */
async function requireFeaturesOfProject(db: Db, project: string, names: string[], archived: boolean) {
  await requireProject(db, project);
  const rows: FeatureRow[] = [];
  for (const name of [...new Set(names)]) {
    const [row] = await db.select().from(t.features).where(and(eq(t.features.name, name), eq(t.features.project, project)));
    if (!row || (row.archivedAt !== null) !== archived) {
      throw notFound(`No ${archived ? 'archived' : 'active'} flag named "${name}" exists in the project "${project}".`);
    }
    rows.push(row);
  }
  return rows;
}

async function archive(tx: Db, record: RecordEvent, row: FeatureRow) {
  const archivedAt = new Date();
  await tx.update(t.features).set({ archivedAt }).where(eq(t.features.name, row.name));
  await enterStage(tx, row.name, 'archived', archivedAt);
  await record({ type: 'feature-archived', featureName: row.name, project: row.project });
}

/** As in Unleash, a revived flag comes back off everywhere: reviving must not turn anything on. */
async function revive(tx: Db, record: RecordEvent, row: FeatureRow) {
  await tx.update(t.features).set({ archivedAt: null }).where(eq(t.features.name, row.name));
  await tx.update(t.featureEnvironments).set({ enabled: false }).where(eq(t.featureEnvironments.featureName, row.name));
  await leaveStage(tx, row.name, 'archived');
  await record({ type: 'feature-revived', featureName: row.name, project: row.project });
}

async function deleteForGood(tx: Db, record: RecordEvent, row: FeatureRow) {
  if (row.archivedAt === null) throw conflict(`The flag "${row.name}" is not archived; archive it before deleting it.`);
  await record({ type: 'feature-deleted', featureName: row.name, project: row.project, preData: featureMetadata(row) });
  await tx.delete(t.features).where(eq(t.features.name, row.name));
}

export const featureHandlers = {
  async getFeatures({ params }, { db }) {
    await requireProject(db, params.projectId);
    const rows = await db
      .select()
      .from(t.features)
      .where(and(eq(t.features.project, params.projectId), isNull(t.features.archivedAt)))
      .orderBy(asc(t.features.createdAt), asc(t.features.name));
    return { status: 200, body: { version: 1, features: await describeFeatures(db, rows) } };
  },

  async getArchivedFeatures({ params }, { db }) {
    const rows = await db
      .select()
      .from(t.features)
      .where(and(eq(t.features.project, params.projectId), isNotNull(t.features.archivedAt)))
      .orderBy(desc(t.features.archivedAt), asc(t.features.name));
    return { status: 200, body: { version: 1, features: await describeFeatures(db, rows) } };
  },

  async getFeature({ params }, { db, caller }) {
    await requireProject(db, params.projectId);
    const row = await requireActiveFeature(db, params.projectId, params.featureName);
    const [feature, stages, favorites] = await Promise.all([
      describeFeature(db, row),
      currentStages(db, [row.name]),
      favoriteFlagsAmong(db, [row.name], userIdOf(caller)),
    ]);
    return { status: 200, body: { ...feature, ...present('lifecycle', stages.get(row.name)), favorite: favorites.has(row.name) } };
  },

  async validateFeature({ body }, { db }) {
    await refuseTakenFlagName(db, body.name);
    return { status: 200, body: undefined };
  },

  async createFeature({ params, body }, { caller, change }) {
    const feature = await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      await refuseTakenFlagName(tx, body.name);
      const type = (await validFeatureType(tx, body.type)) ?? 'release';
      const [row] = await tx
        .insert(t.features)
        .values({
          name: body.name,
          project: params.projectId,
          type,
          description: body.description ?? null,
          impressionData: body.impressionData ?? false,
          createdBy: caller.name,
          createdByUserId: caller.userId,
        })
        .returning();
      await enterStage(tx, body.name, 'initial', row!.createdAt);
      const environments = await tx.select().from(t.projectEnvironments).where(eq(t.projectEnvironments.project, params.projectId));
      if (environments.length > 0) {
        await tx.insert(t.featureEnvironments).values(environments.map((e) => ({ featureName: body.name, environment: e.environment })));
      }
      await record({ type: 'feature-created', featureName: body.name, project: params.projectId, data: { ...featureMetadata(row!), stale: false, createdAt: row!.createdAt.toISOString() }, tags: [] });
      for (const tag of body.tags ?? []) await tagFeature(tx, record, row!, tag);
      return describeFeature(tx, row!);
    });
    const location = `/api/admin/projects/${encodeURIComponent(feature.project)}/features/${encodeURIComponent(feature.name)}`;
    return { status: 201, body: feature, headers: { location } };
  },

  async updateFeature({ params, body }, { change }) {
    const feature = await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const before = await requireActiveFeature(tx, params.projectId, params.featureName);
      if (body.name !== undefined && body.name !== before.name) throw badRequest('name: a flag cannot be renamed; leave name out or send its current name.');
      const next = editable(before);
      const type = await validFeatureType(tx, body.type);
      if (type !== undefined) next.type = type;
      if (body.description !== undefined) next.description = body.description;
      if (body.stale !== undefined) next.stale = body.stale;
      if (body.impressionData !== undefined) next.impressionData = body.impressionData;
      return describeFeature(tx, await updateMetadata(tx, record, before, next));
    });
    return { status: 200, body: feature };
  },

  async patchFeature({ params, body }, { change }) {
    const feature = await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const before = await requireActiveFeature(tx, params.projectId, params.featureName);
      const next = patchedMetadata(before, body);
      next.type = (await validFeatureType(tx, next.type))!;
      return describeFeature(tx, await updateMetadata(tx, record, before, next));
    });
    return { status: 200, body: feature };
  },

  async archiveFeature({ params }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      await archive(tx, record, await requireActiveFeature(tx, params.projectId, params.featureName));
    });
    return { status: 202, body: undefined };
  },

  async changeFeatureProject({ params, body }, { caller, change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const row = await requireActiveFeature(tx, params.projectId, params.featureName);
      await requireProject(tx, body.newProjectId);
      authorize(caller, ['MOVE_FEATURE_TOGGLE'], { project: body.newProjectId });
      if (body.newProjectId === row.project) return;
      const dependencies = await tx
        .select()
        .from(t.featureDependencies)
        .where(or(eq(t.featureDependencies.child, row.name), eq(t.featureDependencies.parent, row.name)));
      if (dependencies.length > 0) throw conflict(`The flag "${row.name}" has dependencies; remove them before moving it, since parents and children share a project.`);
      const targetEnvs = (await tx.select().from(t.projectEnvironments).where(eq(t.projectEnvironments.project, body.newProjectId))).map((e) => e.environment);
      const currentEnvs = (await tx.select().from(t.featureEnvironments).where(eq(t.featureEnvironments.featureName, row.name))).map((e) => e.environment);
      for (const environment of currentEnvs.filter((e) => !targetEnvs.includes(e))) {
        await tx.delete(t.featureStrategies).where(and(eq(t.featureStrategies.featureName, row.name), eq(t.featureStrategies.environment, environment)));
        await tx.delete(t.featureEnvironments).where(and(eq(t.featureEnvironments.featureName, row.name), eq(t.featureEnvironments.environment, environment)));
      }
      const missing = targetEnvs.filter((e) => !currentEnvs.includes(e));
      if (missing.length > 0) await tx.insert(t.featureEnvironments).values(missing.map((environment) => ({ featureName: row.name, environment })));
      await tx.update(t.features).set({ project: body.newProjectId }).where(eq(t.features.name, row.name));
      await record({ type: 'feature-project-change', featureName: row.name, project: body.newProjectId, data: { newProject: body.newProjectId, oldProject: row.project } });
    });
    return { status: 200, body: undefined };
  },

  async markFeaturesStale({ params, body }, { change }) {
    await change(async (tx, record) => {
      for (const row of await requireFeaturesOfProject(tx, params.projectId, body.features, false)) {
        await tx.update(t.features).set({ stale: body.stale }).where(eq(t.features.name, row.name));
        await recordStaleChange(record, row, body.stale);
      }
    });
    return { status: 202, body: undefined };
  },

  async archiveFeatures({ params, body }, { change }) {
    await change(async (tx, record) => {
      for (const row of await requireFeaturesOfProject(tx, params.projectId, body.features, false)) await archive(tx, record, row);
    });
    return { status: 202, body: undefined };
  },

  async reviveFeatures({ params, body }, { change }) {
    await change(async (tx, record) => {
      for (const row of await requireFeaturesOfProject(tx, params.projectId, body.features, true)) await revive(tx, record, row);
    });
    return { status: 200, body: undefined };
  },

  async deleteFeatures({ params, body }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      for (const name of [...new Set(body.features)]) {
        const row = await requireFeature(tx, name);
        if (row.project !== params.projectId) throw notFound(`No flag named "${name}" exists in the project "${params.projectId}".`);
        await deleteForGood(tx, record, row);
      }
    });
    return { status: 200, body: undefined };
  },

  async reviveFeature({ params }, { change }) {
    await change(async (tx, record) => {
      const row = await requireFeature(tx, params.featureName);
      if (row.archivedAt === null) throw notFound(`The flag "${row.name}" is not archived.`);
      await revive(tx, record, row);
    });
    return { status: 200, body: undefined };
  },

  async deleteArchivedFeature({ params }, { change }) {
    await change(async (tx, record) => deleteForGood(tx, record, await requireFeature(tx, params.featureName)));
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
