// A real OpenID provider for tests (oidc-provider), and a browser-less browser that signs in through it.
//
//   const provider = await startOidcProvider();          // http://127.0.0.1:<port>, closed after the file
//   provider.registerRedirect(app.url);                  // the client may return to ${app.url}/auth/oidc/callback
//                                                        //   and end sessions to ${app.url}/signin
//   provider.addUser({ email: 'ada@example.com', name: 'Ada', groups: ['dev'] });   // added or replaced
//   provider.setGroups('ada@example.com', ['ops']);     // the `groups` claim from the next sign-in on
//   settings: { discoverUrl: provider.discoveryUrl, clientId: provider.clientId, secret: provider.clientSecret }
//
//   const done = await signInWithOidc(app.url, { email: 'ada@example.com', redirect: '/projects' });
//   done.status (302), done.location, done.setCookies, done.sessionCookie ('flag-session=…' or undefined),
//   done.browser (a TestBrowser: its cookies per origin, and `seen`, every answer on the way)
//   untilCallback(app.url, { email }) stops before the callback ({ callbackUrl, browser }); `cancel: true` cancels
//   at the provider's first page, so that it answers `error=access_denied`.
//
// Its pages are oidc-provider's development interactions: a login form (`input[name=login]`, any password,
// button "Sign-in"), then a consent form (button "Continue"). Users sign in with their email as the login; an
// unknown login fails at the provider. Claims: sub (the email), email, email_verified, name (scope `profile`),
// groups (scope `groups`); in the ID token itself unless `claimsInIdToken: false`, then from userinfo only.
// The end_session endpoint (RP-initiated logout) is on, as at `${issuer}/session/end`.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import { request } from 'undici';
import { afterFile } from './file-end.js';

export interface OidcUser {
  email: string;
  name?: string;
  /** Absent: the provider says nothing about groups. */
  groups?: string[];
}

export interface OidcProviderOptions {
  /** Whether the ID token carries the scopes' claims (default), or only userinfo answers them. */
  claimsInIdToken?: boolean;
  /** What the service's client is registered to sign ID tokens with (default RS256). */
  idTokenSigningAlg?: 'RS256' | 'RS384' | 'RS512';
}

export interface TestOidcProvider {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Lets the client return to `${appUrl}/auth/oidc/callback` and end sessions to `${appUrl}/signin`; apps add up. */
  registerRedirect(appUrl: string): void;
  addUser(user: OidcUser): void;
  setGroups(email: string, groups: string[] | undefined): void;
  close(): Promise<void>;
}

/** oidc-provider's storage, one Map per provider (its own memory adapter is shared by the whole process). */
function memoryAdapter() {
  const store = new Map<string, AdapterPayload>();
  return class MapAdapter implements Adapter {
    constructor(readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUserCode(userCode: string) {
      return [...store.entries()].find(([key, p]) => key.startsWith(`${this.model}:`) && p.userCode === userCode)?.[1];
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(([key, p]) => key.startsWith(`${this.model}:`) && p.uid === uid)?.[1];
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}

export async function startOidcProvider(options: OidcProviderOptions = {}): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = new Map<string, OidcUser>();
  const clientId = `flag-service-${randomBytes(4).toString('hex')}`;
  const clientSecret = `oidc-client-secret-${randomBytes(16).toString('hex')}`;
  const appUrls: string[] = [];
  const Adapter = memoryAdapter();
  const clients = new Adapter('Client');
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig' };

  const provider = new Provider(issuer, {
    adapter: Adapter,
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    enabledJWA: { idTokenSigningAlgValues: ['RS256', 'RS384', 'RS512'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, sub) {
      const user = users.get(sub.toLowerCase());
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: user.email,
          email_verified: true,
          ...(user.name !== undefined && { name: user.name }),
          ...(user.groups !== undefined && { groups: user.groups }),
        }),
      };
    },
  });
  server.on('request', provider.callback());

  const saveClient = () =>
    clients.upsert(clientId, {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: options.idTokenSigningAlg ?? 'RS256',
      redirect_uris: appUrls.map((url) => `${url}/auth/oidc/callback`),
      post_logout_redirect_uris: appUrls.map((url) => `${url}/signin`),
    });

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  };
  afterFile(close);

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    registerRedirect(appUrl) {
      appUrls.push(appUrl.replace(/\/+$/, ''));
      void saveClient();
    },
    addUser(user) {
      users.set(user.email.toLowerCase(), { ...user });
    },
    setGroups(email, groups) {
      const user = users.get(email.toLowerCase());
      if (!user) throw new Error(`No provider user ${email}; addUser first.`);
      users.set(email.toLowerCase(), { ...user, ...(groups === undefined ? { groups: undefined } : { groups }) });
    },
    close,
  };
}

interface StoredCookie {
  value: string;
  path: string;
  expires: number | undefined;
}

/** A response the browser saw, its body read. */
export interface SeenResponse {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  location: string | undefined;
  setCookies: string[];
}

/** Cookies per origin (and path), as a browser keeps them; every response seen is kept, for tests that look for leaks. */
export class TestBrowser {
  readonly seen: SeenResponse[] = [];
  private readonly jar = new Map<string, Map<string, StoredCookie>>();

  cookieHeader(url: string): string {
    const { origin, pathname } = new URL(url);
    const now = Date.now();
    return [...(this.jar.get(origin) ?? [])]
      .filter(([, c]) => (c.expires === undefined || c.expires > now) && (pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).origin)?.get(name)?.value;
  }

  forget(origin: string, name: string): void {
    this.jar.get(new URL(origin).origin)?.delete(name);
  }

  private store(url: string, setCookies: string[]) {
    const { origin, pathname } = new URL(url);
    const cookies = this.jar.get(origin) ?? new Map<string, StoredCookie>();
    this.jar.set(origin, cookies);
    for (const header of setCookies) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const cookie: StoredCookie = { value: pair!.slice(at + 1), path: pathname.replace(/\/[^/]*$/, '') || '/', expires: undefined };
      for (const attribute of attributes) {
        const [key, value = ''] = attribute.split('=');
        const lower = key!.toLowerCase();
        if (lower === 'path') cookie.path = value;
        if (lower === 'expires' && cookie.expires === undefined) cookie.expires = Date.parse(value);
        if (lower === 'max-age') cookie.expires = Date.now() + Number(value) * 1000;
      }
      if (cookie.expires !== undefined && cookie.expires <= Date.now()) cookies.delete(name);
      else cookies.set(name, cookie);
    }
  }

  /** One request, redirects not followed; cookies sent and kept. */
  async send(url: string, init: { method?: 'GET' | 'POST'; form?: Record<string, string>; cookie?: string } = {}): Promise<SeenResponse> {
    const headers: Record<string, string> = {};
    const cookie = init.cookie ?? this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await request(url, { method: init.method ?? 'GET', headers, body: init.form ? new URLSearchParams(init.form).toString() : undefined });
    const setCookies = [response.headers['set-cookie'] ?? []].flat();
    this.store(url, setCookies);
    const location = response.headers.location as string | undefined;
    const seen = {
      url,
      status: response.statusCode,
      headers: response.headers,
      body: await response.body.text(),
      location: location === undefined ? undefined : new URL(location, url).toString(),
      setCookies,
    };
    this.seen.push(seen);
    return seen;
  }
}

const unescapeHtml = (text: string) => text.replace(/&amp;/g, '&').replace(/&#x2F;/g, '/').replace(/&quot;/g, '"');

export interface SignInSteps {
  email: string;
  /** The `redirect` query of the sign-in's start. */
  redirect?: string;
  browser?: TestBrowser;
  /** Cancel at the provider's first page instead of signing in (the provider answers `error=access_denied`). */
  cancel?: boolean;
}

/**
 * Begins signing in at `${appUrl}/auth/oidc/login` and follows the browser through the provider's login and consent
 * pages until the provider sends it back to the service; answers that callback URL, not yet visited.
 */
export async function untilCallback(appUrl: string, { email, redirect, browser = new TestBrowser(), cancel = false }: SignInSteps) {
  const callback = `${appUrl}/auth/oidc/callback`;
  let response = await browser.send(`${appUrl}/auth/oidc/login${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`);
  for (let step = 0; step < 12; step++) {
    if (response.location?.startsWith(`${callback}?`)) return { callbackUrl: response.location, browser };
    if (response.status >= 300 && response.status < 400 && response.location) {
      response = await browser.send(response.location);
      continue;
    }
    const cancelUrl = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(response.body)?.[1];
    if (cancel && cancelUrl) {
      response = await browser.send(new URL(unescapeHtml(cancelUrl), response.url).toString());
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(response.body)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(response.body)?.[1];
    if (response.status !== 200 || !action || !prompt) break;
    const form: Record<string, string> = prompt === 'login' ? { prompt, login: email, password: 'any' } : { prompt };
    response = await browser.send(new URL(unescapeHtml(action), response.url).toString(), { method: 'POST', form });
  }
  throw new Error(`The sign-in did not come back to the service: ${response.status} ${response.url} ${response.location ?? response.body.slice(0, 500)}`);
}

export interface OidcSignIn extends SeenResponse {
  browser: TestBrowser;
  /** `flag-session=…` as a `cookie` header value, when the service signed the browser in. */
  sessionCookie: string | undefined;
}

export const sessionCookieIn = (response: SeenResponse) =>
  response.setCookies.map((header) => header.split(';')[0]!).find((pair) => pair.startsWith('flag-session=') && pair.length > 'flag-session='.length);

/** Signs in as `email` through the provider's pages; answers the service's answer at its callback (not followed). */
export async function signInWithOidc(appUrl: string, user: SignInSteps): Promise<OidcSignIn> {
  const { callbackUrl, browser } = await untilCallback(appUrl, user);
  const response = await browser.send(callbackUrl);
  return { ...response, browser, sessionCookie: sessionCookieIn(response) };
}
