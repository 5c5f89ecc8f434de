// PLACEHOLDER: written by the OpenID Connect helper.
import type { Db } from '../../db/connect.js';
import type { AppConfig } from '../../kernel/config.js';

/** The provider's end-session URL for a session signed in with `idToken`, when single sign-out is on and the provider has one. */
export async function oidcSignOutUrl(_db: Db, _config: AppConfig, _idToken: string): Promise<string | undefined> {
  return undefined;
}
