// OpenID Connect settings, kept as one settings row. The secret is stored but only ever shown masked.
import { eq } from 'drizzle-orm';
import type { Handlers } from '../domain/handler-context.js';
import type { components } from '../generated/api.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest } from '../kernel/errors.js';
import { ROOT_ROLE_TYPES } from '../domain/access/groups.js';

type OidcSettings = components['schemas']['SetOidcSettings'];

const SETTING = 'unleash.enterprise.auth.oidc';
const MASK = '********';

const masked = (settings: OidcSettings) => ({ ...settings, secret: MASK });

async function storedSettings(db: Db): Promise<OidcSettings | undefined> {
  const [row] = await db.select().from(t.settings).where(eq(t.settings.name, SETTING));
  return row?.content as OidcSettings | undefined;
}

/** `defaultRootRoleId` wins over `defaultRootRole`: the name shown is that of the role the id names. */
async function withRootRoleName(db: Db, settings: OidcSettings): Promise<OidcSettings> {
  if (settings.defaultRootRoleId === undefined) return settings;
  const [role] = await db.select({ name: t.roles.name, type: t.roles.type }).from(t.roles).where(eq(t.roles.id, settings.defaultRootRoleId));
  if (!role || !ROOT_ROLE_TYPES.includes(role.type)) throw badRequest(`defaultRootRoleId: ${settings.defaultRootRoleId} is not the id of a root role.`);
  const name = role.name as OidcSettings['defaultRootRole'];
  return { ...settings, ...(['Viewer', 'Editor', 'Admin'].includes(role.name) ? { defaultRootRole: name } : { defaultRootRole: undefined }) };
}

export const oidcSettingHandlers = {
  async getOidcSettings(_request, { db }) {
    const settings = await storedSettings(db);
    return { status: 200, body: settings ? masked(settings) : {} };
  },

  async setOidcSettings({ body }, { change }) {
    const settings = await change(async (tx, record) => {
      const before = await storedSettings(tx);
      const after = JSON.parse(JSON.stringify(await withRootRoleName(tx, body))) as OidcSettings;
      await tx.insert(t.settings).values({ name: SETTING, content: after }).onConflictDoUpdate({ target: t.settings.name, set: { content: after } });
      // A changed secret is a change even though both sides show masked.
      const secretChanged = before !== undefined && before.secret !== after.secret;
      await record(
        before
          ? { type: 'setting-updated', data: { id: SETTING, ...masked(after), ...(secretChanged && { secretChanged }) }, preData: { id: SETTING, ...masked(before) } }
          : { type: 'setting-created', data: { id: SETTING, ...masked(after) } },
      );
      return after;
    });
    return { status: 200, body: masked(settings) };
  },

  async deleteOidcSettings(_request, { change }) {
    await change(async (tx, record) => {
      const [deleted] = await tx.delete(t.settings).where(eq(t.settings.name, SETTING)).returning();
      if (deleted) await record({ type: 'setting-deleted', preData: { id: SETTING, ...masked(deleted.content as OidcSettings) } });
    });
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
