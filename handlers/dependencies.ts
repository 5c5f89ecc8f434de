import { and, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { requireActiveFeature, requireFeature } from '../domain/flags/feature-view.js';
import { requireProject } from '../domain/lookups.js';

/** Whether `ancestor` is `start` or one of its parents, grandparents… */
async function dependsOn(db: Db, start: string, ancestor: string): Promise<boolean> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (name === ancestor) return true;
    if (seen.has(name)) continue;
    seen.add(name);
    const parents = await db.select({ parent: t.featureDependencies.parent }).from(t.featureDependencies).where(eq(t.featureDependencies.child, name));
    queue.push(...parents.map((p) => p.parent));
  }
  return false;
}

export const dependencyHandlers = {
  async addDependency({ params, body }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const child = await requireActiveFeature(tx, params.projectId, params.featureName);
      const parent = await requireFeature(tx, body.feature).catch(() => {
        throw badRequest(`feature: no flag named "${body.feature}" exists.`);
      });
      if (parent.archivedAt !== null) throw badRequest(`feature: the parent flag "${parent.name}" is archived.`);
      if (parent.project !== child.project) throw badRequest(`feature: the parent flag "${parent.name}" is in another project ("${parent.project}"); parents must share the child's project.`);
      if (await dependsOn(tx, parent.name, child.name)) {
        throw badRequest(`feature: making "${child.name}" depend on "${parent.name}" would create a cycle.`);
      }
      const enabled = body.enabled ?? true;
      const variants = enabled ? [...new Set(body.variants ?? [])] : [];
      if (!enabled && (body.variants?.length ?? 0) > 0) throw badRequest('variants: variants only apply when the parent must be enabled.');
      const dependency = { child: child.name, parent: parent.name, enabled, variants };
      await tx
        .insert(t.featureDependencies)
        .values(dependency)
        .onConflictDoUpdate({ target: [t.featureDependencies.child, t.featureDependencies.parent], set: { enabled, variants } });
      await record({
        type: 'feature-dependency-added',
        featureName: child.name,
        project: child.project,
        data: { feature: parent.name, enabled, ...(variants.length > 0 && { variants }) },
      });
    });
    return { status: 200, body: undefined };
  },

  async deleteDependency({ params }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const child = await requireActiveFeature(tx, params.projectId, params.featureName);
      const removed = await tx
        .delete(t.featureDependencies)
        .where(and(eq(t.featureDependencies.child, child.name), eq(t.featureDependencies.parent, params.parent)))
        .returning();
      if (removed.length === 0) throw notFound(`The flag "${child.name}" does not depend on "${params.parent}".`);
      await record({ type: 'feature-dependency-removed', featureName: child.name, project: child.project, data: { feature: params.parent } });
    });
    return { status: 200, body: undefined };
  },

  async deleteDependencies({ params }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const child = await requireActiveFeature(tx, params.projectId, params.featureName);
      const removed = await tx.delete(t.featureDependencies).where(eq(t.featureDependencies.child, child.name)).returning();
      if (removed.length > 0) await record({ type: 'feature-dependencies-removed', featureName: child.name, project: child.project, preData: { parents: removed.map((d) => d.parent) } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
