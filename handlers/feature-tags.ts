import { asc, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { nameExists, notFound } from '../kernel/errors.js';
import { requireFeature } from '../domain/flags/feature-view.js';
import { tagFeature, untagFeature } from '../domain/flags/tagging.js';

async function tagsOf(db: Db, featureName: string) {
  return db
    .select({ type: t.featureTags.tagType, value: t.featureTags.tagValue })
    .from(t.featureTags)
    .where(eq(t.featureTags.featureName, featureName))
    .orderBy(asc(t.featureTags.tagType), asc(t.featureTags.tagValue));
}

export const featureTagHandlers = {
  async getFeatureTags({ params }, { db }) {
    const feature = await requireFeature(db, params.featureName);
    return { status: 200, body: { version: 1, tags: await tagsOf(db, feature.name) } };
  },

  async addFeatureTag({ params, body }, { change }) {
    const tag = { type: body.type, value: body.value };
    await change(async (tx, record) => {
      const feature = await requireFeature(tx, params.featureName);
      if (!(await tagFeature(tx, record, feature, tag))) {
        throw nameExists(`The flag "${feature.name}" already carries the tag ${tag.type}:${tag.value}.`);
      }
    });
    return { status: 201, body: tag };
  },

  async updateFeatureTags({ params, body }, { change }) {
    const tags = await change(async (tx, record) => {
      const feature = await requireFeature(tx, params.featureName);
      for (const tag of body.removedTags ?? []) await untagFeature(tx, record, feature, tag);
      for (const tag of body.addedTags ?? []) await tagFeature(tx, record, feature, tag);
      return tagsOf(tx, feature.name);
    });
    return { status: 200, body: { version: 1, tags } };
  },

  async removeFeatureTag({ params }, { change }) {
    await change(async (tx, record) => {
      const feature = await requireFeature(tx, params.featureName);
      const tag = { type: params.type, value: params.value };
      if (!(await untagFeature(tx, record, feature, tag))) throw notFound(`The flag "${feature.name}" does not carry the tag ${tag.type}:${tag.value}.`);
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
