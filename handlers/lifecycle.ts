// Flag lifecycle: initial → pre-live → live → completed → archived. Each stage is entered once and only
// forward, except that uncompleting and reviving step back out of `completed` and `archived`.
import { asc, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';
import { requireActiveFeature } from '../domain/flags/feature-view.js';
import { requireProject } from '../domain/lookups.js';
import { byRank, leaveStage } from '../domain/flags/lifecycle.js';

export const lifecycleHandlers = {
  async getFeatureLifecycle({ params }, { db }) {
    await requireProject(db, params.projectId);
    const feature = await requireActiveFeature(db, params.projectId, params.featureName);
    const rows = await db
      .select()
      .from(t.featureLifecycles)
      .where(eq(t.featureLifecycles.featureName, feature.name))
      .orderBy(asc(t.featureLifecycles.createdAt));
    rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byRank(a, b));
    return { status: 200, body: rows.map((row) => ({ stage: row.stage, enteredStageAt: row.createdAt.toISOString() })) };
  },

  async completeFeature({ params, body }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const feature = await requireActiveFeature(tx, params.projectId, params.featureName);
      const completion = { status: body.status, ...(body.statusValue !== undefined && { statusValue: body.statusValue }) };
      const previous = await leaveStage(tx, feature.name, 'completed');
      await tx.insert(t.featureLifecycles).values({
        featureName: feature.name,
        stage: 'completed',
        status: body.status,
        statusValue: body.statusValue ?? null,
        ...(previous && { createdAt: previous.createdAt }),
      });
      const preData = previous && { status: previous.status, ...(previous.statusValue !== null && { statusValue: previous.statusValue }) };
      await record({ type: 'feature-completed', featureName: feature.name, project: feature.project, data: completion, preData });
    });
    return { status: 200, body: undefined };
  },

  async uncompleteFeature({ params }, { change }) {
    await change(async (tx, record) => {
      await requireProject(tx, params.projectId);
      const feature = await requireActiveFeature(tx, params.projectId, params.featureName);
      const left = await leaveStage(tx, feature.name, 'completed');
      if (left) await record({ type: 'feature-uncompleted', featureName: feature.name, project: feature.project, preData: { status: left.status } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
