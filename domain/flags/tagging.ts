import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import type { components } from '../../generated/api.js';
import * as t from '../../db/schema.js';
import type { RecordEvent } from '../events/event-log.js';
import { badRequest } from '../../kernel/errors.js';
import type { FeatureRow } from './feature-view.js';

type Tag = components['schemas']['Tag'];

/** Puts a tag on a flag, creating the tag first when it does not exist. Returns false when it was there. */
export async function tagFeature(tx: Db, record: RecordEvent, feature: FeatureRow, tag: Tag): Promise<boolean> {
  const [type] = await tx.select().from(t.tagTypes).where(eq(t.tagTypes.name, tag.type));
  if (!type) throw badRequest(`type: the tag type "${tag.type}" does not exist; create it first.`);
  const created = await tx.insert(t.tags).values(tag).onConflictDoNothing().returning();
  if (created.length > 0) await record({ type: 'tag-created', data: tag });
  const attached = await tx
    .insert(t.featureTags)
    .values({ featureName: feature.name, tagType: tag.type, tagValue: tag.value })
    .onConflictDoNothing()
    .returning();
  if (attached.length === 0) return false;
  await record({ type: 'feature-tagged', featureName: feature.name, project: feature.project, data: tag });
  return true;
}

/** Takes a tag off a flag. Returns false when the flag did not carry it. */
export async function untagFeature(tx: Db, record: RecordEvent, feature: FeatureRow, tag: Tag): Promise<boolean> {
  const removed = await tx
    .delete(t.featureTags)
    .where(and(eq(t.featureTags.featureName, feature.name), eq(t.featureTags.tagType, tag.type), eq(t.featureTags.tagValue, tag.value)))
    .returning();
  if (removed.length === 0) return false;
  await record({ type: 'feature-untagged', featureName: feature.name, project: feature.project, preData: tag });
  return true;
}
