// The integrations' URL check, word for word: a refusal names the address and the two settings that would allow
// it; a host name is judged by what it resolves to, when the integration is made and again at each delivery.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { loggedAttempts, storedWebhook } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

const PRIVATE =
  'is a private, loopback or link-local address; set UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION=true or list the host in ' +
  'UNLEASH_ALLOW_LIST_INTEGRATION to send there.';
/** localhost may resolve to either loopback address first. */
const LOCALHOST_REFUSED = new RegExp(`localhost resolves to (127\\.0\\.0\\.1|::1), which ${PRIVATE.replaceAll('.', '\\.')}`);

let strict: TestApp;
const unique = uniqueNames();
const { newFlag } = fixtures(() => strict, unique);

beforeAll(async () => {
  // Its own database: on PostgreSQL, a shared one would let another app take its deliveries.
  strict = await startTestApp({ integrations: { allowPrivateUrls: false }, ownDatabase: true });
});

/** Disabled, so that an accepted public URL is never called. */
const createWebhookTo = (url: string) =>
  strict.admin.POST('/api/addons', { body: { provider: 'webhook', enabled: false, events: ['feature-created'], parameters: { url } } });
const urlRefusal = async (url: string) => expectError(await createWebhookTo(url), 400, 'ValidationError').message;

describe('making a webhook with private addresses refused', () => {
  it('refuses a private address, naming it and the settings that would allow it', async () => {
    expect(await urlRefusal('http://10.1.2.3/hook')).toBe(`parameters.url: 10.1.2.3 ${PRIVATE}`);
  });

  it('refuses a host name that resolves to loopback, naming the address it resolves to', async () => {
    expect(await urlRefusal('http://localhost:9/hook')).toMatch(new RegExp(`^parameters\\.url: ${LOCALHOST_REFUSED.source}$`));
  });

  it('accepts a public IPv4 address over https', async () => {
    expect((await createWebhookTo('https://1.1.1.1/hook')).response.status).toBe(201);
  });

  it('refuses a URL that is not http or https, naming its scheme', async () => {
    expect(await urlRefusal('ftp://files.example.com/hook')).toBe('parameters.url: must be an http or https URL, not ftp:.');
  });

  it('refuses what is not a URL, saying what to give', async () => {
    expect(await urlRefusal('not a url')).toBe('parameters.url: not a URL; give an absolute http or https URL.');
  });
});

describe('delivering to a webhook stored earlier', () => {
  it('never calls a host name that resolves to loopback: one failed attempt, not retried, naming the address', async () => {
    const receiver = await startReceiver();
    const id = await storedWebhook(strict, `http://localhost:${new URL(receiver.url).port}/hook`, ['feature-created']);
    await newFlag('by-name');
    const [attempt] = await loggedAttempts(strict, id, 1);
    expect(attempt).toMatchObject({ state: 'failed', details: { willRetry: false } });
    expect(attempt!.stateDetails).toMatch(new RegExp(`not sent: ${LOCALHOST_REFUSED.source}`));
    expect(receiver.received).toHaveLength(0);
    await strict.admin.DELETE('/api/admin/addons/{id}', { params: { path: { id } } });
  });

  it('retries a host name that does not resolve, saying it was not found', async () => {
    const id = await storedWebhook(strict, 'http://nowhere.invalid/hook', ['feature-created']);
    await newFlag('unresolved');
    const [attempt] = await loggedAttempts(strict, id, 1);
    expect(attempt).toMatchObject({ state: 'failed', details: { willRetry: true } });
    expect(attempt!.stateDetails).toContain('ENOTFOUND');
    await strict.admin.DELETE('/api/admin/addons/{id}', { params: { path: { id } } });
  });
});
