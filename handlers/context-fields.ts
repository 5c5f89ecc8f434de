import { asc, eq, inArray, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Handlers } from '../domain/handler-context.js';
import type { components } from '../generated/api.js';
import type { Db } from '../db/connect.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import * as t from '../db/schema.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';

type FieldRow = typeof t.contextFields.$inferSelect;
type LegalValue = components['schemas']['LegalValue'];

const fieldData = (row: FieldRow) => ({
  name: row.name,
  description: row.description,
  stickiness: row.stickiness,
  sortOrder: row.sortOrder,
  legalValues: row.legalValues,
});

const noSuchField = (name: string) => notFound(`No context field named "${name}" exists.`);

async function findField(db: Db, name: string, lock = false) {
  const query = db.select().from(t.contextFields).where(eq(t.contextFields.name, name));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

async function requireField(db: Db, name: string, lock = false) {
  const row = await findField(db, name, lock);
  if (!row) throw noSuchField(name);
  return row;
}

/** One row per constraint element, naming the context field it constrains on. */
const constraintElement = (constraints: typeof t.featureStrategies.constraints | typeof t.segments.constraints) =>
  sql<string>`jsonb_array_elements(${constraints}) ->> 'contextName'`.as('context_name');

/**
 * The strategies constraining on the fields named (on every field when `names` is absent), directly or
 * through one of their segments; archived flags' strategies included. One query, whatever the number of fields;
 * `union` keeps a strategy once per field even when it uses the field several times.
 */
async function strategiesUsing(db: Db, names?: string[]) {
  const direct = db
    .select({ strategyId: t.featureStrategies.id, contextName: constraintElement(t.featureStrategies.constraints) })
    .from(t.featureStrategies)
    .as('direct_uses');
  const viaSegment = db
    .select({ segmentId: t.segments.id, contextName: constraintElement(t.segments.constraints) })
    .from(t.segments)
    .as('segment_uses');
  const columns = {
    id: t.featureStrategies.id,
    featureName: t.featureStrategies.featureName,
    projectId: t.features.project,
    environment: t.featureStrategies.environment,
    strategyName: t.featureStrategies.strategyName,
    sortOrder: t.featureStrategies.sortOrder,
    archived: sql<boolean>`${t.features.archivedAt} is not null`.as('archived'),
  };
  const rows = await union(
    db
      .select({ ...columns, contextName: direct.contextName })
      .from(direct)
      .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, direct.strategyId))
      .innerJoin(t.features, eq(t.features.name, t.featureStrategies.featureName))
      .where(names ? inArray(direct.contextName, names) : undefined),
    db
      .select({ ...columns, contextName: viaSegment.contextName })
      .from(viaSegment)
      .innerJoin(t.featureStrategySegments, eq(t.featureStrategySegments.segmentId, viaSegment.segmentId))
      .innerJoin(t.featureStrategies, eq(t.featureStrategies.id, t.featureStrategySegments.strategyId))
      .innerJoin(t.features, eq(t.features.name, t.featureStrategies.featureName))
      .where(names ? inArray(viaSegment.contextName, names) : undefined),
  );
  return rows.sort(
    (a, b) =>
      a.featureName.localeCompare(b.featureName) || a.environment.localeCompare(b.environment) || a.sortOrder - b.sortOrder || a.id.localeCompare(b.id),
  );
}

/** Fields as the API shows them, with the active flags and projects using each, in a fixed number of queries. */
async function describeFields(db: Db, rows: FieldRow[], all = false) {
  if (rows.length === 0) return [];
  const uses = await strategiesUsing(db, all ? undefined : rows.map((r) => r.name));
  const usage = new Map<string, { features: Set<string>; projects: Set<string> }>();
  for (const use of uses) {
    if (use.archived) continue;
    let entry = usage.get(use.contextName);
    if (!entry) usage.set(use.contextName, (entry = { features: new Set(), projects: new Set() }));
    entry.features.add(use.featureName);
    entry.projects.add(use.projectId);
  }
  return rows.map((row) => ({
    ...fieldData(row),
    createdAt: row.createdAt.toISOString(),
    usedInFeatures: usage.get(row.name)?.features.size ?? 0,
    usedInProjects: usage.get(row.name)?.projects.size ?? 0,
  }));
}

async function describeField(db: Db, row: FieldRow) {
  const [described] = await describeFields(db, [row]);
  return described!;
}

/** The legal values as stored, each value at most once. */
function legalValueList(values: LegalValue[], where: string): LegalValue[] {
  const seen = new Set<string>();
  return values.map((legal, i) => {
    if (seen.has(legal.value)) throw badRequest(`${where}[${i}].value: the legal value "${legal.value}" is listed more than once.`);
    seen.add(legal.value);
    return { value: legal.value, ...(legal.description !== undefined && { description: legal.description }) };
  });
}

/** Writes the changed columns of a field, records context-field-updated and answers the field. */
async function saveField(tx: Db, record: RecordEvent, before: FieldRow, changes: Partial<ReturnType<typeof fieldData>>) {
  const { name: _, ...values } = { ...fieldData(before), ...changes };
  const [after] = await tx.update(t.contextFields).set(values).where(eq(t.contextFields.name, before.name)).returning();
  await record({ type: 'context-field-updated', data: fieldData(after!), preData: fieldData(before) });
  return describeField(tx, after!);
}

export const contextFieldHandlers = {
  async getContextFields(_request, { db }) {
    const rows = await db.select().from(t.contextFields).orderBy(asc(t.contextFields.sortOrder), asc(t.contextFields.name));
    return { status: 200, body: await describeFields(db, rows, true) };
  },

  async getContextField({ params }, { db }) {
    return { status: 200, body: await describeField(db, await requireField(db, params.contextField)) };
  },

  async createContextField({ body }, { change }) {
    const field = await change(async (tx, record) => {
      if (await findField(tx, body.name)) throw nameExists(`A context field named "${body.name}" already exists.`);
      const [row] = await tx
        .insert(t.contextFields)
        .values({
          name: body.name,
          description: body.description ?? null,
          stickiness: body.stickiness ?? false,
          ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }),
          legalValues: legalValueList(body.legalValues ?? [], 'legalValues'),
        })
        .returning();
      await record({ type: 'context-field-created', data: fieldData(row!) });
      return describeField(tx, row!);
    });
    return { status: 201, body: field, headers: { location: `/api/admin/context/${encodeURIComponent(field.name)}` } };
  },

  async validateContextFieldName({ body }, { db }) {
    if (await findField(db, body.name)) throw nameExists(`A context field named "${body.name}" already exists.`);
    return { status: 200, body: undefined };
  },

  async updateContextField({ params, body }, { change }) {
    const field = await change(async (tx, record) => {
      const before = await requireField(tx, params.contextField, true);
      if (body.name !== undefined && body.name !== before.name) {
        throw badRequest(`name: a context field cannot be renamed; send "${before.name}" or leave name out.`);
      }
      return saveField(tx, record, before, {
        ...(body.description !== undefined && { description: body.description }),
        ...(body.stickiness !== undefined && { stickiness: body.stickiness }),
        ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }),
        ...(body.legalValues !== undefined && { legalValues: legalValueList(body.legalValues ?? [], 'legalValues') }),
      });
    });
    return { status: 200, body: field };
  },

  async deleteContextField({ params }, { change }) {
    const name = params.contextField;
    await change(async (tx, record) => {
      const before = await requireField(tx, name, true);
      const [strategy] = await strategiesUsing(tx, [name]);
      if (strategy) {
        throw conflict(
          `The context field "${name}" is used by a constraint of the flag "${strategy.featureName}" (${strategy.environment}); remove the constraint first.`,
        );
      }
      const segmentUses = tx
        .select({ segmentId: t.segments.id, contextName: constraintElement(t.segments.constraints) })
        .from(t.segments)
        .as('segment_uses');
      const [segment] = await tx
        .select({ name: t.segments.name })
        .from(segmentUses)
        .innerJoin(t.segments, eq(t.segments.id, segmentUses.segmentId))
        .where(eq(segmentUses.contextName, name))
        .orderBy(asc(t.segments.name))
        .limit(1);
      if (segment) throw conflict(`The context field "${name}" is used by a constraint of the segment "${segment.name}"; remove the constraint first.`);
      await tx.delete(t.contextFields).where(eq(t.contextFields.name, name));
      await record({ type: 'context-field-deleted', preData: fieldData(before) });
    });
    return { status: 200, body: undefined };
  },

  async getContextFieldStrategies({ params }, { db }) {
    await requireField(db, params.contextField);
    const uses = await strategiesUsing(db, [params.contextField]);
    const strategies = uses.map(({ id, featureName, projectId, environment, strategyName, archived }) => ({
      id,
      featureName,
      projectId,
      environment,
      strategyName,
      archived,
    }));
    return { status: 200, body: { strategies } };
  },

  async addContextFieldLegalValue({ params, body }, { change }) {
    const field = await change(async (tx, record) => {
      const before = await requireField(tx, params.contextField, true);
      const [added] = legalValueList([body], 'legalValue');
      const current = fieldData(before).legalValues;
      const index = current.findIndex((legal) => legal.value === body.value);
      const legalValues = index < 0 ? [...current, added!] : current.map((legal, i) => (i === index ? added! : legal));
      return saveField(tx, record, before, { legalValues });
    });
    return { status: 200, body: field };
  },

  async deleteContextFieldLegalValue({ params }, { change }) {
    const field = await change(async (tx, record) => {
      const before = await requireField(tx, params.contextField, true);
      const current = fieldData(before).legalValues;
      if (!current.some((legal) => legal.value === params.legalValue)) {
        throw notFound(`The context field "${before.name}" has no legal value "${params.legalValue}".`);
      }
      return saveField(tx, record, before, { legalValues: current.filter((legal) => legal.value !== params.legalValue) });
    });
    return { status: 200, body: field };
  },
} satisfies Partial<Handlers>;
