import { asc, count, eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { conflict, nameExists, notFound } from '../kernel/errors.js';

/** The tag type every installation keeps. */
const BUILT_IN_TAG_TYPE = 'simple';

const publicColumns = {
  name: t.tagTypes.name,
  description: t.tagTypes.description,
  icon: t.tagTypes.icon,
  color: t.tagTypes.color,
};

async function findTagType(db: Db, name: string) {
  const [row] = await db.select({ ...publicColumns, createdAt: t.tagTypes.createdAt }).from(t.tagTypes).where(eq(t.tagTypes.name, name));
  return row;
}

const noSuchTagType = (name: string) => notFound(`No tag type named "${name}" exists.`);

/** A tag type as answered: an icon that was never given is left out, not null. */
const shown = <T extends { icon: string | null }>({ icon, ...rest }: T) => ({ ...rest, ...(icon !== null && { icon }) });

export const tagTypeHandlers = {
  async getTagTypes(_request, { db }) {
    const tagTypes = await db.select(publicColumns).from(t.tagTypes).orderBy(asc(t.tagTypes.name));
    return { status: 200, body: { version: 1, tagTypes: tagTypes.map(shown) } };
  },

  async getTagType({ params }, { db }) {
    const tagType = await findTagType(db, params.typeName);
    if (!tagType) throw noSuchTagType(params.typeName);
    return { status: 200, body: { version: 1, tagType: { ...shown(tagType), createdAt: tagType.createdAt.toISOString() } } };
  },

  async createTagType({ body }, { change }) {
    const tagType = { name: body.name, description: body.description ?? '', icon: body.icon ?? null, color: body.color || null };
    await change(async (tx, record) => {
      if (await findTagType(tx, tagType.name)) throw nameExists(`A tag type named "${tagType.name}" already exists.`);
      await tx.insert(t.tagTypes).values(tagType);
      await record({ type: 'tag-type-created', data: tagType });
    });
    return { status: 201, body: shown(tagType), headers: { location: `/api/admin/tag-types/${encodeURIComponent(tagType.name)}` } };
  },

  async updateTagType({ params, body }, { change }) {
    await change(async (tx, record) => {
      const found = await findTagType(tx, params.typeName);
      if (!found) throw noSuchTagType(params.typeName);
      const { createdAt: _, ...before } = found;
      const after = {
        ...before,
        ...(body.description !== undefined && { description: body.description ?? '' }),
        ...(body.icon !== undefined && { icon: body.icon }),
        ...(body.color !== undefined && { color: body.color || null }),
      };
      await tx.update(t.tagTypes).set(after).where(eq(t.tagTypes.name, params.typeName));
      await record({ type: 'tag-type-updated', data: after, preData: before });
    });
    return { status: 200, body: undefined };
  },

  async deleteTagType({ params }, { change }) {
    const name = params.typeName;
    await change(async (tx, record) => {
      const found = await findTagType(tx, name);
      if (!found) throw noSuchTagType(name);
      if (name === BUILT_IN_TAG_TYPE) throw conflict(`The tag type "${BUILT_IN_TAG_TYPE}" is built in and cannot be deleted.`);
      const [usage] = await tx.select({ flags: count() }).from(t.featureTags).where(eq(t.featureTags.tagType, name));
      if (usage && usage.flags > 0) {
        throw conflict(`The tag type "${name}" is in use: ${usage.flags} flag tag(s) have this type. Remove them from the flags first.`);
      }
      const removedTags = await tx.delete(t.tags).where(eq(t.tags.type, name)).returning({ type: t.tags.type, value: t.tags.value });
      for (const tag of removedTags) await record({ type: 'tag-deleted', data: tag });
      const deleted = await tx.delete(t.tagTypes).where(eq(t.tagTypes.name, name)).returning();
      if (deleted.length === 0) throw noSuchTagType(name);
      const { createdAt: _, ...preData } = found;
      await record({ type: 'tag-type-deleted', preData });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
