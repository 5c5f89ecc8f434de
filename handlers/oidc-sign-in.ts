// Signing in with OpenID Connect: the authorization code flow with PKCE, `state` and `nonce` kept server-side and
// bound to the browser that began the sign-in by a short-lived cookie.
import { randomBytes } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type * as client from 'openid-client';
import type { Handlers, HandlerContext } from '../domain/handler-context.js';
import { callbackUrlOf, identityOf, openidClient, providerConfiguration, sha256 } from '../domain/sso/oidc.js';
import { savePending, takePending, PENDING_TTL_MS } from '../domain/sso/pending.js';
import { oidcSettings, type OidcSettings } from '../domain/sso/settings.js';
import { SignInRefused, refusedLocation, safeRedirectPath, signInWithProvider } from '../domain/sso/sign-in.js';
import { isDatabaseUnavailable, notFound } from '../kernel/errors.js';

const BROWSER_COOKIE = 'flag-sso-oidc';

const browserCookie = (value: string, secure: boolean, maxAgeSeconds: number) =>
  stringifySetCookie({ name: BROWSER_COOKIE, value, httpOnly: true, sameSite: 'lax', path: '/auth/oidc', maxAge: maxAgeSeconds, secure });

type Settings = OidcSettings & { discoverUrl: string };

async function configuredSettings(context: Pick<HandlerContext, 'db'>): Promise<Settings | undefined> {
  const settings = await oidcSettings(context.db);
  return settings?.discoverUrl ? { ...settings, discoverUrl: settings.discoverUrl } : undefined;
}

/** Why the provider could not be used, for the log, along the causes: no secret, token or code is in openid-client's messages. */
function failureOf(error: unknown): { error: string; code?: unknown } {
  const messages: string[] = [];
  for (let e: unknown = error; e !== undefined && messages.length < 4; e = e instanceof Error ? e.cause : undefined) messages.push(e instanceof Error ? e.message : String(e));
  return { error: messages.join(': '), code: (error as { code?: unknown })?.code };
}

type FinishQuery = NonNullable<Parameters<Handlers['finishOidcSignIn']>[0]['query']>;

/** The code exchanged, the ID token checked (and `acr` when asked for); who signed in and the ID token. */
async function exchange(context: HandlerContext, settings: Settings, query: FinishQuery, pending: { nonce?: string; codeVerifier?: string }, state: string) {
  let provider: client.Configuration;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  let claims: Record<string, unknown>;
  try {
    const oidc = await openidClient();
    provider = await providerConfiguration(settings);
    const currentUrl = new URL(callbackUrlOf(context.config));
    for (const [name, value] of Object.entries(query)) if (typeof value === 'string') currentUrl.searchParams.set(name, value);
    tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
    if (typeof claims.email !== 'string') claims = { ...(await oidc.fetchUserInfo(provider, tokens.access_token, String(claims.sub))), ...claims };
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    throw new SignInRefused(
      'The identity provider’s answer could not be verified, so you are not signed in. Try again; if it keeps failing, ask an administrator to check the OpenID Connect settings.',
      { cause: error },
    );
  }
  const acrValues = settings.acrValues?.split(/\s+/).filter(Boolean) ?? [];
  if (acrValues.length > 0 && !acrValues.includes(String(claims.acr))) {
    throw new SignInRefused(`The identity provider did not vouch for the authentication level this service asks for (${acrValues.join(' or ')}). Sign in again with it.`);
  }
  return { identity: identityOf(claims, settings), idToken: tokens.id_token! };
}

export const oidcSignInHandlers = {
  async startOidcSignIn({ query }, context) {
    const settings = await configuredSettings(context);
    if (!settings) throw notFound('OpenID Connect sign-in is not configured here (no settings with a discovery URL); an administrator sets it up under single sign-on settings.');
    let provider: client.Configuration;
    try {
      provider = await providerConfiguration(settings);
    } catch (error) {
      const { origin, pathname } = new URL(settings.discoverUrl);
      context.log.warn({ discoverUrl: `${origin}${pathname}`, ...failureOf(error) }, 'OpenID Connect: the provider could not be discovered');
      const reason = 'The identity provider could not be reached (or did not describe itself properly), so sign-in cannot start. Try again later, or ask an administrator to check its discovery URL.';
      const headers: Record<string, string> = { location: refusedLocation(reason) };
      return { status: 302, body: undefined, headers };
    }
    const oidc = await openidClient();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const browser = randomBytes(32).toString('base64url');
    await savePending(context.db, 'oidc', sha256(state), { browser: sha256(browser), nonce, codeVerifier, redirect: safeRedirectPath(query?.redirect) });
    const location = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: callbackUrlOf(context.config),
      scope: `openid email profile${settings.addGroupsScope ? ' groups' : ''}`,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...(settings.acrValues && { acr_values: settings.acrValues }),
    });
    return {
      status: 302,
      body: undefined,
      headers: { location: location.toString(), 'set-cookie': browserCookie(browser, context.secureCookies, PENDING_TTL_MS / 1000) },
    };
  },

  async finishOidcSignIn({ query = {}, headers }, context) {
    const cleared = browserCookie('', context.secureCookies, 0);
    try {
      const pending = query.state ? await takePending(context.db, 'oidc', sha256(query.state)) : undefined;
      if (query.error) throw new SignInRefused(`The identity provider refused the sign-in: ${query.error_description || query.error}.`);
      if (!pending || !query.state) throw new SignInRefused('This sign-in is unknown, expired or already used. Sign in again.');
      const cookie = typeof headers.cookie === 'string' ? parseCookie(headers.cookie)[BROWSER_COOKIE] : undefined;
      if (!cookie || sha256(cookie) !== pending.browser) throw new SignInRefused('This sign-in was begun in another browser (or its cookie was lost). Sign in again from here.');
      const settings = await configuredSettings(context);
      if (!settings) throw new SignInRefused('OpenID Connect sign-in is no longer configured here.');
      const { identity, idToken } = await exchange(context, settings, query, pending, query.state);
      const session = await signInWithProvider(context, identity, settings, { provider: 'oidc', idToken });
      return { status: 302, body: undefined, headers: { location: safeRedirectPath(pending.redirect), 'set-cookie': [session, cleared] } };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      context.log.info({ reason: error.message, ...(error.cause !== undefined && failureOf(error.cause)) }, 'OpenID Connect sign-in refused');
      return { status: 302, body: undefined, headers: { location: refusedLocation(error.message), 'set-cookie': cleared } };
    }
  },
} satisfies Partial<Handlers>;
