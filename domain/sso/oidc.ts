// The OpenID provider the settings name, found by its discovery document and kept a few minutes; and what the
// claims of its ID token say about the person (email, name, groups).
import { createHash } from 'node:crypto';
import type * as client from 'openid-client';
import type { Db } from '../../db/connect.js';
import type { AppConfig } from '../../kernel/config.js';
import { publicUrlOf } from '../../kernel/config.js';
import type { SsoIdentity } from './sign-in.js';
import { oidcSettings, type OidcSettings } from './settings.js';

const DISCOVERY_TTL_MS = 5 * 60_000;
const PROVIDER_TIMEOUT_S = 10;

/** openid-client and its JOSE libraries are loaded when OpenID Connect is first used, not by every process. */
export const openidClient = () => import('openid-client');

const discovered = new Map<string, { config: Promise<client.Configuration>; until: number }>();

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The provider's configuration for these settings (they must have a `discoverUrl`); failures are not kept. */
export function providerConfiguration(settings: OidcSettings & { discoverUrl: string }): Promise<client.Configuration> {
  const key = [settings.discoverUrl, settings.clientId, sha256(settings.secret), settings.idTokenSigningAlgorithm ?? ''].join('\n');
  const cached = discovered.get(key);
  if (cached && cached.until > Date.now()) return cached.config;
  for (const [old, entry] of discovered) if (entry.until <= Date.now()) discovered.delete(old);
  const url = new URL(settings.discoverUrl);
  const metadata: Partial<client.ClientMetadata> = {
    ...(settings.idTokenSigningAlgorithm && { id_token_signed_response_alg: settings.idTokenSigningAlgorithm }),
  };
  const config = openidClient().then((oidc) =>
    oidc.discovery(url, settings.clientId, metadata, oidc.ClientSecretBasic(settings.secret), {
      timeout: PROVIDER_TIMEOUT_S,
      ...(url.protocol === 'http:' && { execute: [oidc.allowInsecureRequests] }),
    }),
  );
  discovered.set(key, { config, until: Date.now() + DISCOVERY_TTL_MS });
  config.catch(() => {
    if (discovered.get(key)?.config === config) discovered.delete(key);
  });
  return config;
}

/** Where the provider sends browsers back. */
export const callbackUrlOf = (config: AppConfig) => `${publicUrlOf(config)}/auth/oidc/callback`;

/** The value at a dotted `path` of the claims. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Groups at `groupJsonPath` (default `groups`): a list, or one string; undefined when the claims say nothing usable. */
export function groupsIn(claims: Record<string, unknown>, groupJsonPath: string | undefined): string[] | undefined {
  const value = claimAt(claims, groupJsonPath?.trim() || 'groups');
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  return undefined;
}

export function identityOf(claims: Record<string, unknown>, settings: OidcSettings): SsoIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  return {
    email: text(claims.email),
    name: text(claims.name) ?? text([claims.given_name, claims.family_name].filter((part) => typeof part === 'string').join(' ')),
    groups: groupsIn(claims, settings.groupJsonPath),
  };
}

/** The provider's end-session URL for a session signed in with `idToken`, when single sign-out is on and the provider has one. */
export async function oidcSignOutUrl(db: Db, config: AppConfig, idToken: string): Promise<string | undefined> {
  const settings = await oidcSettings(db);
  if (!settings?.enableSingleSignOut || !settings.discoverUrl) return undefined;
  const provider = await providerConfiguration({ ...settings, discoverUrl: settings.discoverUrl });
  if (!provider.serverMetadata().end_session_endpoint) return undefined;
  return (await openidClient()).buildEndSessionUrl(provider, { id_token_hint: idToken, post_logout_redirect_uri: `${publicUrlOf(config)}/signin` }).toString();
}
