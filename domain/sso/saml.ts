// SAML 2.0 with node-saml: this service is the service provider. Its requests are kept in the pending sign-ins
// table so that any replica can accept the answer, and each is taken once, atomically, when answered.
import type { CacheProvider, SAML, SamlConfig } from '@node-saml/node-saml';
import type { Db } from '../../db/connect.js';
import type { SessionSso } from '../../db/schema.js';
import { publicUrlOf, type AppConfig } from '../../kernel/config.js';
import { PENDING_TTL_MS, isPending, savePending, takePending } from './pending.js';
import { identityOfProfile } from './saml-profile.js';
import { samlSettings, type SamlSettings } from './settings.js';
import { SignInRefused, type SsoIdentity } from './sign-in.js';

type SamlSso = Extract<SessionSso, { provider: 'saml' }>;

/** This service's entity id: the issuer of its requests and the audience its assertions must name. */
export const serviceEntityId = (config: AppConfig) => `${publicUrlOf(config)}/auth/saml/metadata`;
export const assertionConsumerUrl = (config: AppConfig) => `${publicUrlOf(config)}/auth/saml/callback`;

/** The certificate as PEM, whether it was stored as PEM or as its bare base64 body (wrapped or not). */
export function certificatePem(certificate: string): string {
  if (certificate.includes('-----BEGIN')) return certificate.trim();
  const body = certificate.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----`;
}

/** The database failing while node-saml asks about a request: not a refusal of the response, so not reported as one. */
class PendingLookupFailed extends Error {}

/**
 * node-saml's request cache over the pending sign-ins. node-saml "removes" a request as it checks the response,
 * without being able to tell whether it was still there; the service takes it itself once node-saml accepts
 * the response (`takePending`, whose delete only one caller can win), so removing here does nothing.
 */
function pendingRequests(db: Db, redirect = '/'): CacheProvider {
  return {
    async saveAsync(id, instant) {
      await savePending(db, 'saml', id, { redirect });
      return { value: instant, createdAt: Date.now() };
    },
    async getAsync(id) {
      const pending = await isPending(db, 'saml', id).catch((error: unknown) => {
        throw new PendingLookupFailed('The pending sign-ins could not be read.', { cause: error });
      });
      // The table's own expiry decides; node-saml's age check is given the time of asking.
      return pending ? new Date().toISOString() : null;
    },
    async removeAsync(id) {
      return id;
    },
  };
}

/** Logout requests are sent, never answered here: nothing to keep. */
const NOTHING_KEPT: CacheProvider = {
  saveAsync: async (_id, value) => ({ value, createdAt: Date.now() }),
  getAsync: async () => null,
  removeAsync: async (id) => id,
};

/** node-saml and its XML libraries (~4 MB of heap) are loaded when SAML is first used, not by every process. */
const nodeSaml = () => import('@node-saml/node-saml');

async function serviceProvider(config: AppConfig, settings: SamlSettings, options: Pick<SamlConfig, 'cacheProvider' | 'logoutUrl'>): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await nodeSaml();
  return new SAML({
    entryPoint: settings.signOnUrl,
    issuer: serviceEntityId(config),
    callbackUrl: assertionConsumerUrl(config),
    audience: serviceEntityId(config),
    idpCert: certificatePem(settings.certificate),
    idpIssuer: settings.entityId,
    wantAssertionsSigned: true,
    // The assertion's signature is what counts; many providers sign only the assertion, not the response around it.
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: PENDING_TTL_MS,
    acceptedClockSkewMs: 120_000,
    ...options,
  });
}

export async function serviceProviderMetadata(config: AppConfig): Promise<string> {
  const { generateServiceProviderMetadata } = await nodeSaml();
  return generateServiceProviderMetadata({ issuer: serviceEntityId(config), callbackUrl: assertionConsumerUrl(config), wantAssertionsSigned: true });
}

/** The identity provider's URL carrying a fresh AuthnRequest, kept as pending with where to go afterwards. */
export async function samlAuthorizeUrl(db: Db, config: AppConfig, settings: SamlSettings, redirect: string): Promise<string> {
  return (await serviceProvider(config, settings, { cacheProvider: pendingRequests(db, redirect) })).getAuthorizeUrlAsync(redirect, undefined, {});
}

/** What node-saml's refusal means, in plain words, followed by its own text. */
function refusalOf(error: Error): SignInRefused {
  const says = error.message;
  const plain = /signature/i.test(says)
    ? "The identity provider's answer is not signed with the certificate configured here."
    : /expired|not yet valid|subject confirmation/i.test(says)
      ? "The identity provider's answer is outside its validity period (expired, or not yet valid). Sign in again."
      : /audience/i.test(says)
        ? "The identity provider's answer is meant for another service, not this one."
        : /InResponseTo/i.test(says)
          ? "The identity provider's answer is not to a sign-in begun here, or that sign-in is already finished. Sign in again."
          : "The identity provider's answer could not be accepted.";
  return new SignInRefused(`${plain} (${says})`);
}

export interface SamlSignIn {
  identity: SsoIdentity;
  sso: SamlSso;
  /** The path the sign-in began for. */
  redirect: string;
}

/**
 * Accepts a posted SAMLResponse only when node-saml finds it signed, timely, addressed to this service and
 * answering a pending request of ours, from the configured issuer, and that request can still be taken.
 * Throws SignInRefused otherwise.
 */
export async function acceptSamlResponse(db: Db, config: AppConfig, settings: SamlSettings, samlResponse: string): Promise<SamlSignIn> {
  const saml = await serviceProvider(config, settings, { cacheProvider: pendingRequests(db) });
  let accepted: Awaited<ReturnType<SAML['validatePostResponseAsync']>>;
  try {
    accepted = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
  } catch (error) {
    if (error instanceof PendingLookupFailed) throw error.cause;
    throw refusalOf(error instanceof Error ? error : new Error(String(error)));
  }
  const profile = accepted.profile;
  if (!profile) throw new SignInRefused("The identity provider's answer does not sign anyone in.");
  if (profile.issuer !== settings.entityId) {
    throw new SignInRefused(`The answer comes from "${profile.issuer}", not from the identity provider configured here ("${settings.entityId}").`);
  }
  const pending = typeof profile.inResponseTo === 'string' ? await takePending(db, 'saml', profile.inResponseTo) : undefined;
  if (!pending) throw new SignInRefused("The identity provider's answer was already used to sign in. Sign in again.");
  return {
    identity: identityOfProfile(profile, settings.groupJsonPath || undefined),
    sso: { provider: 'saml', nameID: profile.nameID, nameIDFormat: profile.nameIDFormat, ...(profile.sessionIndex && { sessionIndex: profile.sessionIndex }) },
    redirect: pending.redirect ?? '/',
  };
}

/** The identity provider's sign-out URL for this session, when the settings name one. */
export async function samlSignOutUrl(db: Db, config: AppConfig, session: SamlSso): Promise<string | undefined> {
  const settings = await samlSettings(db);
  if (!settings?.signOutUrl) return undefined;
  const saml = await serviceProvider(config, settings, { cacheProvider: NOTHING_KEPT, logoutUrl: settings.signOutUrl });
  const user = { issuer: settings.entityId, nameID: session.nameID, nameIDFormat: session.nameIDFormat, ...(session.sessionIndex && { sessionIndex: session.sessionIndex }) };
  return saml.getLogoutUrlAsync(user, '', {});
}
