import { and, asc, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import { ROLE } from '../db/default-permissions.js';
import * as t from '../db/schema.js';
import { userIdOf } from '../shared/caller.js';
import { badRequest, conflict, nameExists, notFound } from '../kernel/errors.js';
import { favoriteProjectsOf } from '../domain/flags/favorites.js';
import { requireEnvironment, requireProject } from '../domain/lookups.js';
import { attachEnvironments } from '../domain/projects/environments.js';

const DEFAULT_PROJECT = 'default';

type ProjectRow = typeof t.projects.$inferSelect;

/** The fields a project change event records. */
const projectData = (row: ProjectRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  mode: row.mode,
  defaultStickiness: row.defaultStickiness,
});

async function describeProjects(db: Db, rows: ProjectRow[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [links, counts] = await Promise.all([
    db.select().from(t.projectEnvironments).where(inArray(t.projectEnvironments.project, ids)),
    db
      .select({ project: t.features.project, n: count() })
      .from(t.features)
      .where(and(inArray(t.features.project, ids), isNull(t.features.archivedAt)))
      .groupBy(t.features.project),
  ]);
  const envOrder = await db.select({ name: t.environments.name }).from(t.environments).orderBy(asc(t.environments.sortOrder), asc(t.environments.name));
  // Looked up by key, not searched per project: a list of hundreds of projects and environments stays linear.
  const flagCounts = new Map(counts.map((c) => [c.project, c.n]));
  const linked = new Set(links.map((l) => `${l.project}\u0000${l.environment}`));
  return rows.map((row) => ({
    ...projectData(row),
    health: row.health,
    featureCount: flagCounts.get(row.id) ?? 0,
    environments: envOrder.map((e) => e.name).filter((name) => linked.has(`${row.id}\u0000${name}`)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt?.toISOString() ?? null,
  }));
}

async function describeProject(db: Db, row: ProjectRow) {
  const [described] = await describeProjects(db, [row]);
  return described!;
}

/** 409 when a project has the id. */
async function refuseTakenProjectId(db: Db, id: string) {
  const [existing] = await db.select({ id: t.projects.id }).from(t.projects).where(eq(t.projects.id, id));
  if (existing) throw nameExists(`A project with id "${id}" already exists.`);
}

/** Attaches environments to a project, with a disabled row for each of its flags there. */
export const projectHandlers = {
  async getProjects(_request, { db, caller }) {
    const rows = await db.select().from(t.projects).orderBy(asc(t.projects.createdAt), asc(t.projects.id));
    const [projects, favorites] = await Promise.all([describeProjects(db, rows), favoriteProjectsOf(db, userIdOf(caller))]);
    return { status: 200, body: { version: 1, projects: projects.map((project) => ({ ...project, favorite: favorites.has(project.id) })) } };
  },

  async getProject({ params }, { db }) {
    return { status: 200, body: await describeProject(db, await requireProject(db, params.projectId)) };
  },

  async validateProjectId({ body }, { db }) {
    await refuseTakenProjectId(db, body.id);
    return { status: 204, body: undefined };
  },

  async createProject({ body }, { caller, change }) {
    const project = await change(async (tx, record) => {
      await refuseTakenProjectId(tx, body.id);
      let environments: string[];
      if (body.environments) {
        environments = [...new Set(body.environments)];
        for (const name of environments) {
          const [env] = await tx.select().from(t.environments).where(eq(t.environments.name, name));
          if (!env) throw badRequest(`environments: the environment "${name}" does not exist.`);
        }
      } else {
        const enabled = await tx.select({ name: t.environments.name }).from(t.environments).where(eq(t.environments.enabled, true));
        environments = enabled.map((e) => e.name);
      }
      const [row] = await tx
        .insert(t.projects)
        .values({
          id: body.id,
          name: body.name,
          description: body.description ?? null,
          ...(body.mode && { mode: body.mode }),
          ...(body.defaultStickiness && { defaultStickiness: body.defaultStickiness }),
        })
        .returning();
      await attachEnvironments(tx, body.id, environments);
      // As in Unleash, the user who creates a project becomes its Owner.
      const creator = userIdOf(caller);
      if (creator !== undefined) await tx.insert(t.projectUserRoles).values({ userId: creator, project: body.id, roleId: ROLE.Owner });
      const described = await describeProject(tx, row!);
      await record({ type: 'project-created', project: body.id, data: described });
      return described;
    });
    return { status: 201, body: project, headers: { location: `/api/admin/projects/${encodeURIComponent(project.id)}` } };
  },

  async updateProject({ params, body }, { change }) {
    await change(async (tx, record) => {
      const before = await requireProject(tx, params.projectId);
      const [after] = await tx
        .update(t.projects)
        .set({
          name: body.name,
          ...(body.description !== undefined && { description: body.description }),
          ...(body.mode !== undefined && { mode: body.mode }),
          ...(body.defaultStickiness !== undefined && { defaultStickiness: body.defaultStickiness }),
          updatedAt: new Date(),
        })
        .where(eq(t.projects.id, params.projectId))
        .returning();
      await record({ type: 'project-updated', project: params.projectId, data: projectData(after!), preData: projectData(before) });
    });
    return { status: 200, body: undefined };
  },

  async deleteProject({ params }, { change }) {
    const id = params.projectId;
    await change(async (tx, record) => {
      const project = await requireProject(tx, id);
      if (id === DEFAULT_PROJECT) throw conflict('The default project cannot be deleted.');
      const [active] = await tx.select({ n: count() }).from(t.features).where(and(eq(t.features.project, id), isNull(t.features.archivedAt)));
      if (active && active.n > 0) throw conflict(`The project "${id}" still has ${active.n} active flag(s); archive or move them first.`);
      const archived = await tx.select().from(t.features).where(and(eq(t.features.project, id), isNotNull(t.features.archivedAt)));
      for (const flag of archived) {
        await record({ type: 'feature-deleted', featureName: flag.name, project: id, preData: { name: flag.name, type: flag.type, project: id } });
        await tx.delete(t.features).where(eq(t.features.name, flag.name));
      }
      await tx.delete(t.projects).where(eq(t.projects.id, id));
      await record({ type: 'project-deleted', project: id, preData: projectData(project) });
    });
    return { status: 200, body: undefined };
  },

  async addEnvironmentToProject({ params, body }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      await requireEnvironment(tx, body.environment);
      const [link] = await tx
        .select()
        .from(t.projectEnvironments)
        .where(and(eq(t.projectEnvironments.project, params.projectId), eq(t.projectEnvironments.environment, body.environment)));
      if (link) throw conflict(`The environment "${body.environment}" is already enabled for the project "${params.projectId}".`);
      await attachEnvironments(tx, params.projectId, [body.environment]);
      await record({ type: 'project-environment-added', project: params.projectId, environment: body.environment });
    });
    return { status: 200, body: undefined };
  },

  async removeEnvironmentFromProject({ params }, { change }) {
    const { projectId, environment } = params;
    await change(async (tx, record) => {
      await requireProject(tx, projectId);
      const removed = await tx
        .delete(t.projectEnvironments)
        .where(and(eq(t.projectEnvironments.project, projectId), eq(t.projectEnvironments.environment, environment)))
        .returning();
      if (removed.length === 0) throw notFound(`The environment "${environment}" is not enabled for the project "${projectId}".`);
      const flags = tx.select({ name: t.features.name }).from(t.features).where(eq(t.features.project, projectId));
      await tx.delete(t.featureStrategies).where(and(eq(t.featureStrategies.environment, environment), inArray(t.featureStrategies.featureName, flags)));
      await tx
        .delete(t.featureEnvironments)
        .where(and(eq(t.featureEnvironments.environment, environment), inArray(t.featureEnvironments.featureName, flags)));
      await record({ type: 'project-environment-removed', project: projectId, environment });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
