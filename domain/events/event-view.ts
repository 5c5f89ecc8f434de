// An event as the API shows it.
import * as t from '../../db/schema.js';

export type EventRow = typeof t.events.$inferSelect;

/** An event row as the contract shows it. */
export const toEvent = (row: EventRow) => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  type: row.type,
  createdBy: row.createdBy,
  createdByUserId: row.createdByUserId,
  environment: row.environment,
  project: row.project,
  featureName: row.featureName,
  data: row.data as Record<string, unknown> | null,
  preData: row.preData as Record<string, unknown> | null,
  tags: row.tags,
});
