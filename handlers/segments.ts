import { asc, eq, inArray } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { components } from '../generated/api.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';
import { normalizeConstraints } from '../domain/flags/strategy-rules.js';

type SegmentRow = typeof t.segments.$inferSelect;
type SegmentInput = components['schemas']['UpsertSegment'];

const segmentData = (row: SegmentRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  project: row.project,
  constraints: row.constraints,
});

/** Segments with how many flags and projects use them, in a fixed number of queries. */
async function describeSegments(db: Db, rows: SegmentRow[]) {
  if (rows.length === 0) return [];
  const uses = await db
    .select({ segmentId: t.featureStrategySegments.segmentId, feature: t.features.name, project: t.features.project })
    .from(t.featureStrategySegments)
    .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, t.featureStrategySegments.strategyId))
    .innerJoin(t.features, eq(t.features.name, t.featureStrategies.featureName))
    .where(inArray(t.featureStrategySegments.segmentId, rows.map((r) => r.id)));
  return rows.map((row) => {
    const mine = uses.filter((u) => u.segmentId === row.id);
    return {
      ...segmentData(row),
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
      usedInFeatures: new Set(mine.map((u) => u.feature)).size,
      usedInProjects: new Set(mine.map((u) => u.project)).size,
    };
  });
}

async function requireSegment(db: Db, id: number) {
  const [row] = await db.select().from(t.segments).where(eq(t.segments.id, id));
  if (!row) throw notFound(`No segment with id ${id} exists.`);
  return row;
}

/** 409 when a segment other than `id` has the name. */
async function refuseTakenSegmentName(db: Db, name: string, id?: number) {
  const [sameName] = await db.select({ id: t.segments.id }).from(t.segments).where(eq(t.segments.name, name));
  if (sameName && sameName.id !== id) throw nameExists(`A segment named "${name}" already exists.`);
}

async function segmentValues(db: Db, input: SegmentInput, id?: number) {
  await refuseTakenSegmentName(db, input.name, id);
  // An empty string is a project id like any other: one that does not exist (null is "every project").
  if (input.project !== undefined && input.project !== null) {
    const [project] = await db.select().from(t.projects).where(eq(t.projects.id, input.project));
    if (!project) throw badRequest(`body.project: no project with id "${input.project}" exists; name an existing project, or send null for a segment of every project.`);
  }
  return {
    name: input.name,
    description: input.description ?? null,
    project: input.project ?? null,
    constraints: normalizeConstraints(input.constraints, 'constraints'),
  };
}

export const segmentHandlers = {
  async getSegments(_request, { db }) {
    const rows = await db.select().from(t.segments).orderBy(asc(t.segments.id));
    return { status: 200, body: { segments: await describeSegments(db, rows) } };
  },

  async getSegment({ params }, { db }) {
    const [segment] = await describeSegments(db, [await requireSegment(db, params.segmentId)]);
    return { status: 200, body: segment! };
  },

  async validateSegment({ body }, { db }) {
    await refuseTakenSegmentName(db, body.name);
    return { status: 204, body: undefined };
  },

  async createSegment({ body }, { caller, change }) {
    const segment = await change(async (tx, record) => {
      const [row] = await tx.insert(t.segments).values({ ...(await segmentValues(tx, body)), createdBy: caller.name }).returning();
      await record({ type: 'segment-created', project: row!.project, data: segmentData(row!) });
      const [described] = await describeSegments(tx, [row!]);
      return described!;
    });
    return { status: 201, body: segment, headers: { location: `/api/admin/segments/${segment.id}` } };
  },

  async updateSegment({ params, body }, { change }) {
    await change(async (tx, record) => {
      const before = await requireSegment(tx, params.segmentId);
      const values = await segmentValues(tx, body, before.id);
      if (values.project) {
        const [used] = await describeSegments(tx, [before]);
        const elsewhere = await tx
          .select({ project: t.features.project })
          .from(t.featureStrategySegments)
          .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, t.featureStrategySegments.strategyId))
          .innerJoin(t.features, eq(t.features.name, t.featureStrategies.featureName))
          .where(eq(t.featureStrategySegments.segmentId, before.id));
        if (used && elsewhere.some((u) => u.project !== values.project)) {
          throw conflict(`project: the segment is used by flags outside the project "${values.project}".`);
        }
      }
      const [after] = await tx.update(t.segments).set(values).where(eq(t.segments.id, before.id)).returning();
      await record({ type: 'segment-updated', project: after!.project, data: segmentData(after!), preData: segmentData(before) });
    });
    return { status: 204, body: undefined };
  },

  async deleteSegment({ params }, { change }) {
    await change(async (tx, record) => {
      const before = await requireSegment(tx, params.segmentId);
      const [described] = await describeSegments(tx, [before]);
      if (described && described.usedInFeatures > 0) {
        throw conflict(`The segment "${before.name}" is used by ${described.usedInFeatures} flag(s); remove it from their strategies first.`);
      }
      await tx.delete(t.segments).where(eq(t.segments.id, before.id));
      await record({ type: 'segment-deleted', project: before.project, preData: segmentData(before) });
    });
    return { status: 204, body: undefined };
  },
} satisfies Partial<Handlers>;
