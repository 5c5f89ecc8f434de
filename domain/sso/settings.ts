// The stored single sign-on settings, one settings row each: OpenID Connect, SAML, and whether passwords are refused.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';

export type OidcSettings = components['schemas']['SetOidcSettings'];
export type SamlSettings = components['schemas']['SetSamlSettings'];
export type PasswordAuthSettings = components['schemas']['PasswordAuthSettings'];

export const OIDC_SETTING = 'unleash.enterprise.auth.oidc';
export const SAML_SETTING = 'unleash.enterprise.auth.saml';
export const PASSWORD_SETTING = 'unleash.auth.simple';

async function setting<T>(db: Db, name: string): Promise<T | undefined> {
  const [row] = await db.select({ content: t.settings.content }).from(t.settings).where(eq(t.settings.name, name));
  return row?.content as T | undefined;
}

export const oidcSettings = (db: Db) => setting<OidcSettings>(db, OIDC_SETTING);
export const samlSettings = (db: Db) => setting<SamlSettings>(db, SAML_SETTING);
export const passwordAuthSettings = (db: Db) => setting<PasswordAuthSettings>(db, PASSWORD_SETTING);

/** Whether an identity provider is configured (the password form may then be turned off). */
export async function anyProviderConfigured(db: Db): Promise<boolean> {
  const rows = await db.select({ name: t.settings.name }).from(t.settings).where(inArray(t.settings.name, [OIDC_SETTING, SAML_SETTING]));
  return rows.length > 0;
}

/** Password sign-in is refused (but to root Admins) only while it is turned off and a provider remains to sign in with. */
export async function passwordSignInDisabled(db: Db): Promise<boolean> {
  const stored = await passwordAuthSettings(db);
  return stored?.disabled === true && (await anyProviderConfigured(db));
}
