// PLACEHOLDER: written by the SAML helper.
import type { Db } from '../../db/connect.js';
import type { SessionSso } from '../../db/schema.js';
import type { AppConfig } from '../../kernel/config.js';

/** The identity provider's sign-out URL for this session, when the settings name one. */
export async function samlSignOutUrl(_db: Db, _config: AppConfig, _session: Extract<SessionSso, { provider: 'saml' }>): Promise<string | undefined> {
  return undefined;
}
