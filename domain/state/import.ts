// Importing a state document: read it (JSON body, or a multipart file of JSON or YAML), check it against the
// schema of its version, then write it in one transaction with the caller's events.
import { eq, sql } from 'drizzle-orm';
import { parse as parseYaml } from 'yaml';
import type { components } from '../../generated/api.js';
import type { Db } from '../../db/connect.js';
import { builtInEnvironmentGrants } from '../../db/default-permissions.js';
import * as t from '../../db/schema.js';
import { badRequest } from '../../kernel/errors.js';
import type { EventInput, RecordEvent } from '../events/event-log.js';
import { assertMatchesSchema } from '../../kernel/schema-check.js';
import { unstorableText } from '../../kernel/storable-text.js';
import { attachEnvironments } from '../projects/environments.js';
import { importFlags, type PlacedFlag } from './import-flags.js';
import { normalizeConstraints } from '../flags/strategy-rules.js';

type Schemas = components['schemas'];
type V2 = Schemas['StateV2'];

export interface ImportOptions {
  drop: boolean;
  keep: boolean;
  /** Where version 1 flags go. */
  environment: string;
}

/** The document a request carries: the JSON body, or the multipart form's `file`, JSON or YAML by content. */
export function documentOf(body: unknown, multipart: boolean): { document: unknown; label: string } {
  if (!multipart) return { document: body, label: 'body' };
  const file = (body as { file?: unknown } | undefined)?.file;
  // A form without its file would otherwise read as an empty document, imported as nothing with a 202.
  if (file === undefined) throw badRequest('file: the form has no file; send the document as the form\'s "file" field.');
  const document = parsedFile(Buffer.isBuffer(file) ? file.toString('utf8') : String(file));
  // A JSON body is checked for text PostgreSQL cannot store as it is parsed (kernel/body-guard.ts); a file is parsed here.
  const problem = unstorableText(document, 'file');
  if (problem) throw badRequest(`The file is refused: ${problem}`);
  return { document, label: 'file' };
}

function parsedFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return parseYaml(text, { maxAliasCount: 100 });
    } catch (error) {
      throw badRequest(`file: the document is neither JSON nor YAML (${error instanceof Error ? error.message.split('\n')[0] : 'unreadable'}).`);
    }
  }
}

const asBoolean = (value: boolean | number | undefined) => (value === undefined ? undefined : Boolean(value));

/** The document checked against its version's schema, as version 2 parts with each flag's place in the document. */
export function checkedDocument(document: unknown, label: string, environment: string): { state: V2; flags: PlacedFlag[] } {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw badRequest(`${label}: the document must be an object.`);
  // Unleash's documents without a version are its version 1.
  const version = (document as { version?: unknown }).version ?? 1;
  if (version === 2) {
    assertMatchesSchema('StateV2', document, label);
    const state = document as V2;
    const flags = (state.features ?? []).map((flag, i) => ({ flag, where: `${label}.features[${i}]`, environmentWhere: (k: number) => `${label}.features[${i}].environments[${k}]` }));
    refuseDuplicates(state, label);
    return { state, flags };
  }
  const v1 = { ...(document as object), version: 1 };
  assertMatchesSchema('StateV1', v1, label);
  const { features = [], strategies = [] } = v1 as Schemas['StateV1'];
  const flags = features.map((feature, i): PlacedFlag => ({
    flag: {
      name: feature.name,
      ...(feature.project !== undefined && { project: feature.project }),
      ...(feature.type !== undefined && { type: feature.type }),
      ...(feature.description !== undefined && { description: feature.description }),
      ...(feature.stale !== undefined && { stale: asBoolean(feature.stale)! }),
      ...(feature.impressionData !== undefined && { impressionData: asBoolean(feature.impressionData)! }),
      environments: [
        {
          name: environment,
          enabled: asBoolean(feature.enabled) ?? false,
          variants: feature.variants ?? [],
          strategies: (feature.strategies ?? []).map((s, j) => ({ name: s.name, parameters: s.parameters ?? {}, constraints: s.constraints ?? [], sortOrder: j })),
        },
      ],
    },
    where: `${label}.features[${i}]`,
    environmentWhere: () => `${label}.features[${i}]`,
  }));
  const state: V2 = { version: 2, strategies: strategies.map((s) => ({ name: s.name, description: s.description ?? '', parameters: s.parameters ?? [] })) };
  refuseDuplicates(state, label);
  return { state, flags };
}

/** The lists whose items the instance keys by one field (flags are checked as they are written). */
const KEYED_LISTS = [
  ['environments', 'name'],
  ['projects', 'id'],
  ['contextFields', 'name'],
  ['strategies', 'name'],
  ['tagTypes', 'name'],
  ['segments', 'id'],
] as const;

/** One thing listed twice would silently be written once, from either item: refused, naming both places. */
function refuseDuplicates(state: V2, label: string): void {
  for (const [list, key] of KEYED_LISTS) {
    const firstAt = new Map<unknown, number>();
    (state[list] ?? []).forEach((item, j) => {
      const value = (item as Record<string, unknown>)[key];
      const i = firstAt.get(value);
      if (i !== undefined) throw badRequest(`${label}.${list}[${j}].${key}: ${JSON.stringify(value)} is also the ${key} of ${label}.${list}[${i}].`);
      firstAt.set(value, j);
    });
  }
}

/** Drops what `drop` removes: every flag (archived ones too), every custom strategy definition, every segment. */
async function dropAll(tx: Db, events: EventInput[]) {
  await tx.delete(t.features);
  await tx.delete(t.strategies).where(eq(t.strategies.builtIn, false));
  await tx.delete(t.segments);
  events.push({ type: 'drop-features', data: { name: 'all-features' } }, { type: 'drop-strategies', data: { name: 'all-strategies' } });
}

async function importEnvironments(tx: Db, state: V2, events: EventInput[]) {
  const known = new Set((await tx.select({ name: t.environments.name }).from(t.environments)).map((e) => e.name));
  const projects = (await tx.select({ id: t.projects.id }).from(t.projects)).map((p) => p.id);
  for (const environment of state.environments ?? []) {
    if (known.has(environment.name)) continue;
    const row = { name: environment.name, type: environment.type, enabled: environment.enabled ?? true, sortOrder: environment.sortOrder ?? 9999 };
    await tx.insert(t.environments).values(row);
    await tx.insert(t.rolePermissions).values(builtInEnvironmentGrants(environment.name));
    for (const project of projects) await attachEnvironments(tx, project, [environment.name]);
    known.add(environment.name);
    events.push({ type: 'environment-import', environment: environment.name, data: row });
  }
}

async function importProjects(tx: Db, state: V2, label: string, events: EventInput[]) {
  const environments = await tx.select({ name: t.environments.name, enabled: t.environments.enabled }).from(t.environments);
  const known = new Set((await tx.select({ id: t.projects.id }).from(t.projects)).map((p) => p.id));
  for (const [i, project] of (state.projects ?? []).entries()) {
    const wanted = project.environments ?? environments.filter((e) => e.enabled).map((e) => e.name);
    const unknown = wanted.find((name) => !environments.some((e) => e.name === name));
    if (unknown) throw badRequest(`${label}.projects[${i}].environments: no environment named "${unknown}" exists.`);
    if (!known.has(project.id)) {
      const row = { id: project.id, name: project.name, description: project.description ?? null, mode: project.mode ?? 'open', defaultStickiness: project.defaultStickiness ?? 'default' };
      await tx.insert(t.projects).values(row);
      known.add(project.id);
      events.push({ type: 'project-import', project: project.id, data: { ...row, environments: wanted } });
    }
    await attachEnvironments(tx, project.id, wanted);
  }
}

async function importDefinitions(tx: Db, state: V2, label: string, keep: boolean, events: EventInput[]) {
  const existing = new Map((await tx.select().from(t.strategies)).map((s) => [s.name, s]));
  for (const [i, definition] of (state.strategies ?? []).entries()) {
    const found = existing.get(definition.name);
    if (found?.builtIn && !keep) throw badRequest(`${label}.strategies[${i}].name: "${definition.name}" is built in and cannot be replaced; leave it out of the document, or import with keep=true.`);
    if (found?.builtIn || (found && keep)) continue;
    const row = { title: definition.title ?? null, description: definition.description ?? '', parameters: definition.parameters ?? [], deprecated: definition.deprecated ?? false };
    if (found) await tx.update(t.strategies).set(row).where(eq(t.strategies.name, definition.name));
    else await tx.insert(t.strategies).values({ name: definition.name, ...row });
    events.push({ type: 'strategy-import', data: { name: definition.name, ...row } });
  }
}

async function importContextFieldsAndTags(tx: Db, state: V2, label: string, events: EventInput[]) {
  for (const field of state.contextFields ?? []) {
    const row = { name: field.name, description: field.description ?? null, stickiness: field.stickiness ?? false, sortOrder: field.sortOrder ?? 10, legalValues: field.legalValues ?? [] };
    const [inserted] = await tx.insert(t.contextFields).values(row).onConflictDoNothing().returning({ name: t.contextFields.name });
    if (inserted) events.push({ type: 'context-field-created', data: row });
  }
  for (const tagType of state.tagTypes ?? []) {
    const row = { name: tagType.name, description: tagType.description ?? '', icon: tagType.icon ?? null, color: tagType.color || null };
    const [inserted] = await tx.insert(t.tagTypes).values(row).onConflictDoNothing().returning({ name: t.tagTypes.name });
    if (inserted) events.push({ type: 'tag-type-import', data: row });
  }
  const tagTypes = new Set((await tx.select({ name: t.tagTypes.name }).from(t.tagTypes)).map((tt) => tt.name));
  for (const [i, tag] of (state.tags ?? []).entries()) {
    if (!tagTypes.has(tag.type)) throw badRequest(`${label}.tags[${i}].type: no tag type named "${tag.type}" exists.`);
    const [inserted] = await tx.insert(t.tags).values(tag).onConflictDoNothing().returning({ type: t.tags.type });
    if (inserted) events.push({ type: 'tag-import', data: tag });
  }
}

/** Segments keep their ids (client answers name them): an id that exists is kept with `keep`, else replaced. */
async function importSegments(tx: Db, state: V2, label: string, keep: boolean, createdBy: string, events: EventInput[]) {
  if (!state.segments?.length) return;
  const existing = await tx.select({ id: t.segments.id, name: t.segments.name }).from(t.segments);
  const projects = new Set((await tx.select({ id: t.projects.id }).from(t.projects)).map((p) => p.id));
  for (const [i, segment] of state.segments.entries()) {
    const at = `${label}.segments[${i}]`;
    if (segment.project && !projects.has(segment.project)) throw badRequest(`${at}.project: no project with id "${segment.project}" exists.`);
    const sameName = existing.find((s) => s.name === segment.name && s.id !== segment.id);
    if (sameName) throw badRequest(`${at}.name: the segment ${sameName.id} is already named "${segment.name}".`);
    const row = { name: segment.name, description: segment.description ?? null, project: segment.project ?? null, constraints: normalizeConstraints(segment.constraints, `${at}.constraints`) };
    const found = existing.find((s) => s.id === segment.id);
    if (found && keep) continue;
    if (found) await tx.update(t.segments).set(row).where(eq(t.segments.id, segment.id));
    else await tx.insert(t.segments).values({ id: segment.id, ...row, createdBy });
    existing.push({ id: segment.id, name: segment.name });
    events.push({ type: 'segment-import', project: row.project, data: { id: segment.id, ...row } });
  }
  // Ids were given: the next segment made through the API must not take one of them.
  await tx.execute(sql`select setval(pg_get_serial_sequence('segments', 'id'), greatest((select max(id) from segments), 1))`);
}

/** Writes the checked document; the events go in with it, in the order things were written. */
export async function importState(
  tx: Db,
  record: RecordEvent,
  checked: { state: V2; flags: PlacedFlag[] },
  label: string,
  options: ImportOptions,
  caller: { name: string; userId: number | null },
): Promise<void> {
  const events: EventInput[] = [];
  if (options.drop) await dropAll(tx, events);
  await importEnvironments(tx, checked.state, events);
  await importProjects(tx, checked.state, label, events);
  await importContextFieldsAndTags(tx, checked.state, label, events);
  await importDefinitions(tx, checked.state, label, options.keep, events);
  await importSegments(tx, checked.state, label, options.keep, caller.name, events);
  const flags = await importFlags(tx, checked.flags, options.keep, caller);
  await record([...events, ...flags.events]);
}
