// Where signing out sends the browser: on to the identity provider that signed the session in, when it can end its
// own session too, else to the sign-in page.
import type { Db } from '../../db/connect.js';
import type { SessionSso } from '../../db/schema.js';
import type { AppConfig } from '../../kernel/config.js';
import { oidcSignOutUrl } from './oidc.js';
import { samlSignOutUrl } from './saml.js';

export async function signOutLocation(db: Db, config: AppConfig, sso: SessionSso | undefined): Promise<string> {
  try {
    if (sso?.provider === 'oidc') return (await oidcSignOutUrl(db, config, sso.idToken)) ?? '/signin';
    if (sso?.provider === 'saml') return (await samlSignOutUrl(db, config, sso)) ?? '/signin';
  } catch {
    // The provider being unreachable must not keep anyone signed in here: the session is already ended.
  }
  return '/signin';
}
