// Single sign-on settings, one settings row per provider, and the password form's switch. The OpenID Connect secret
// is stored but only ever shown masked; a SAML certificate is public and shown as stored.
import { eq } from 'drizzle-orm';
import type { Handlers, HandlerContext } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { badRequest } from '../kernel/errors.js';
import { ROOT_ROLE_TYPES } from '../domain/access/groups.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import {
  OIDC_SETTING,
  PASSWORD_SETTING,
  SAML_SETTING,
  anyProviderConfigured,
  oidcSettings,
  passwordAuthSettings,
  samlSettings,
  type OidcSettings,
  type PasswordAuthSettings,
  type SamlSettings,
} from '../domain/sso/settings.js';

const MASK = '********';
const maskedOidc = (settings: OidcSettings) => ({ ...settings, secret: MASK });
const asStored = <T>(settings: T) => settings;

type ProviderSettings = OidcSettings | SamlSettings;

/** `defaultRootRoleId` wins over `defaultRootRole`: the name shown is that of the role the id names. */
async function withRootRoleName<T extends ProviderSettings>(db: Db, settings: T): Promise<T> {
  if (settings.defaultRootRoleId === undefined) return settings;
  const [role] = await db.select({ name: t.roles.name, type: t.roles.type }).from(t.roles).where(eq(t.roles.id, settings.defaultRootRoleId));
  if (!role || !ROOT_ROLE_TYPES.includes(role.type)) throw badRequest(`defaultRootRoleId: ${settings.defaultRootRoleId} is not the id of a root role.`);
  const name = role.name as T['defaultRootRole'];
  return { ...settings, defaultRootRole: ['Viewer', 'Editor', 'Admin'].includes(role.name) ? name : undefined };
}

/** Stores a provider's settings whole, recording `setting-created` or `setting-updated` with what `shown` shows. */
async function storeSettings<T extends ProviderSettings>(
  change: HandlerContext['change'],
  name: string,
  read: (db: Db) => Promise<T | undefined>,
  body: T,
  shown: (settings: T) => object,
): Promise<T> {
  return change(async (tx, record) => {
    const before = await read(tx);
    const after = JSON.parse(JSON.stringify(await withRootRoleName(tx, body))) as T;
    await tx.insert(t.settings).values({ name, content: after }).onConflictDoUpdate({ target: t.settings.name, set: { content: after } });
    // A changed secret is a change even though both sides show masked.
    const secretChanged = before !== undefined && 'secret' in before && 'secret' in after && before.secret !== after.secret;
    await record(
      before
        ? { type: 'setting-updated', data: { id: name, ...shown(after), ...(secretChanged && { secretChanged }) }, preData: { id: name, ...shown(before) } }
        : { type: 'setting-created', data: { id: name, ...shown(after) } },
    );
    return after;
  });
}

async function storePasswordSettings(tx: Db, record: RecordEvent, after: PasswordAuthSettings): Promise<void> {
  const before = await passwordAuthSettings(tx);
  await tx.insert(t.settings).values({ name: PASSWORD_SETTING, content: after }).onConflictDoUpdate({ target: t.settings.name, set: { content: after } });
  await record(
    before
      ? { type: 'setting-updated', data: { id: PASSWORD_SETTING, ...after }, preData: { id: PASSWORD_SETTING, ...before } }
      : { type: 'setting-created', data: { id: PASSWORD_SETTING, ...after } },
  );
}

/** Removes a provider's settings; with the last provider gone, password sign-in is turned back on (nobody else could sign in). */
async function deleteSettings(change: HandlerContext['change'], name: string, shown: (settings: never) => object): Promise<void> {
  await change(async (tx, record) => {
    const [deleted] = await tx.delete(t.settings).where(eq(t.settings.name, name)).returning();
    if (!deleted) return;
    await record({ type: 'setting-deleted', preData: { id: name, ...shown(deleted.content as never) } });
    if ((await passwordAuthSettings(tx))?.disabled && !(await anyProviderConfigured(tx))) await storePasswordSettings(tx, record, { disabled: false });
  });
}

export const ssoSettingHandlers = {
  async getOidcSettings(_request, { db }) {
    const settings = await oidcSettings(db);
    return { status: 200, body: settings ? maskedOidc(settings) : {} };
  },

  async setOidcSettings({ body }, { change }) {
    return { status: 200, body: maskedOidc(await storeSettings(change, OIDC_SETTING, oidcSettings, body, maskedOidc)) };
  },

  async deleteOidcSettings(_request, { change }) {
    await deleteSettings(change, OIDC_SETTING, maskedOidc);
    return { status: 200, body: undefined };
  },

  async getSamlSettings(_request, { db }) {
    return { status: 200, body: (await samlSettings(db)) ?? {} };
  },

  async setSamlSettings({ body }, { change }) {
    return { status: 200, body: await storeSettings(change, SAML_SETTING, samlSettings, body, asStored) };
  },

  async deleteSamlSettings(_request, { change }) {
    await deleteSettings(change, SAML_SETTING, asStored);
    return { status: 200, body: undefined };
  },

  async getPasswordAuthSettings(_request, { db }) {
    return { status: 200, body: { disabled: (await passwordAuthSettings(db))?.disabled ?? false } };
  },

  async setPasswordAuthSettings({ body }, { change }) {
    await change(async (tx, record) => {
      if (body.disabled && !(await anyProviderConfigured(tx))) {
        throw badRequest('disabled: password sign-in can be turned off only while an identity provider (OpenID Connect or SAML) is configured; configure one first.');
      }
      await storePasswordSettings(tx, record, { disabled: body.disabled });
    });
    return { status: 200, body: { disabled: body.disabled } };
  },
} satisfies Partial<Handlers>;
