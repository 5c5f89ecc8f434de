// What the sign-in page offers: the password form, and a button per configured identity provider.
import type { Handlers } from '../domain/handler-context.js';
import { oidcSettings, passwordSignInDisabled, samlSettings } from '../domain/sso/settings.js';

export const signInOptionHandlers = {
  async getSignInOptions(_request, { db }) {
    const [oidc, saml, passwordDisabled] = await Promise.all([oidcSettings(db), samlSettings(db), passwordSignInDisabled(db)]);
    const providers = [
      ...(oidc ? [{ type: 'oidc' as const, name: oidc.displayName ?? 'OpenID Connect', path: '/auth/oidc/login' }] : []),
      ...(saml ? [{ type: 'saml' as const, name: saml.displayName ?? 'SAML', path: '/auth/saml/login' }] : []),
    ];
    return { status: 200, body: { passwordEnabled: !passwordDisabled, providers } };
  },
} satisfies Partial<Handlers>;
