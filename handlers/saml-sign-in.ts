// Signing in with SAML 2.0: the AuthnRequest out (HTTP-Redirect), the identity provider's answer back (HTTP-POST),
// and this service's metadata for configuring the provider.
import type { Handlers } from '../domain/handler-context.js';
import { acceptSamlResponse, samlAuthorizeUrl, serviceProviderMetadata } from '../domain/sso/saml.js';
import { samlSettings } from '../domain/sso/settings.js';
import { SignInRefused, refusedLocation, safeRedirectPath, signInWithProvider } from '../domain/sso/sign-in.js';
import { notFound } from '../kernel/errors.js';

const redirectTo = (location: string, headers: Record<string, string> = {}) => ({ status: 302 as const, body: undefined, headers: { location, ...headers } });

export const samlSignInHandlers = {
  async startSamlSignIn({ query }, { db, config }) {
    const settings = await samlSettings(db);
    if (!settings) throw notFound('SAML sign-in is not configured here; an administrator sets it up under single sign-on settings.');
    const location = await samlAuthorizeUrl(db, config, settings, safeRedirectPath(query?.redirect));
    return redirectTo(location);
  },

  async finishSamlSignIn({ body }, context) {
    try {
      const settings = await samlSettings(context.db);
      if (!settings) throw new SignInRefused('SAML sign-in is not configured here.');
      const { identity, sso, redirect } = await acceptSamlResponse(context.db, context.config, settings, body.SAMLResponse);
      const cookie = await signInWithProvider(context, identity, settings, sso);
      return redirectTo(redirect, { 'set-cookie': cookie });
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      context.log.warn({ reason: error.message }, 'SAML sign-in refused');
      return redirectTo(refusedLocation(error.message));
    }
  },

  async getSamlMetadata(_request, { config }) {
    return { status: 200, body: { preSerialized: Buffer.from(await serviceProviderMetadata(config)) }, headers: { 'content-type': 'application/samlmetadata+xml' } };
  },
} satisfies Partial<Handlers>;
