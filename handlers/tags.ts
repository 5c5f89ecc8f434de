import { and, asc, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest, nameExists, notFound } from '../kernel/errors.js';

const tagColumns = { type: t.tags.type, value: t.tags.value };

async function findTag(db: Db, type: string, value: string) {
  const [tag] = await db.select(tagColumns).from(t.tags).where(and(eq(t.tags.type, type), eq(t.tags.value, value)));
  return tag;
}

const noSuchTag = (type: string, value: string) => notFound(`No tag with type "${type}" and value "${value}" exists.`);

export const tagHandlers = {
  async getTags(_request, { db }) {
    const tags = await db.select(tagColumns).from(t.tags).orderBy(asc(t.tags.type), asc(t.tags.value));
    return { status: 200, body: { version: 1, tags } };
  },

  async getTagsByType({ params }, { db }) {
    const tags = await db.select(tagColumns).from(t.tags).where(eq(t.tags.type, params.type)).orderBy(asc(t.tags.value));
    return { status: 200, body: { version: 1, tags } };
  },

  async getTag({ params }, { db }) {
    const tag = await findTag(db, params.type, params.value);
    if (!tag) throw noSuchTag(params.type, params.value);
    return { status: 200, body: { version: 1, tag } };
  },

  async createTag({ body }, { change }) {
    const tag = { type: body.type, value: body.value };
    await change(async (tx, record) => {
      const [type] = await tx.select().from(t.tagTypes).where(eq(t.tagTypes.name, tag.type));
      if (!type) throw badRequest(`type: the tag type "${tag.type}" does not exist; create it first.`);
      if (await findTag(tx, tag.type, tag.value)) throw nameExists(`A tag with type "${tag.type}" and value "${tag.value}" already exists.`);
      await tx.insert(t.tags).values(tag);
      await record({ type: 'tag-created', data: tag });
    });
    const location = `/api/admin/tags/${encodeURIComponent(tag.type)}/${encodeURIComponent(tag.value)}`;
    return { status: 201, body: { version: 1, tag }, headers: { location } };
  },

  async deleteTag({ params }, { change }) {
    const { type, value } = params;
    await change(async (tx, record) => {
      const tag = await findTag(tx, type, value);
      if (!tag) throw noSuchTag(type, value);
      const carriers = await tx
        .delete(t.featureTags)
        .where(and(eq(t.featureTags.tagType, type), eq(t.featureTags.tagValue, value)))
        .returning({ featureName: t.featureTags.featureName });
      for (const { featureName } of carriers) {
        const [feature] = await tx.select({ project: t.features.project }).from(t.features).where(eq(t.features.name, featureName));
        await record({ type: 'feature-untagged', featureName, project: feature?.project, preData: tag });
      }
      // A concurrent delete may have won since the read: then this one deleted nothing.
      const deleted = await tx.delete(t.tags).where(and(eq(t.tags.type, type), eq(t.tags.value, value))).returning();
      if (deleted.length === 0) throw noSuchTag(type, value);
      await record({ type: 'tag-deleted', data: tag });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
