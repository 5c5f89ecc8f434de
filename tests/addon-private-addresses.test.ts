// The private-address guard and IPv6: the forms that embed an IPv4 address, or lie outside the public unicast space,
// are refused when made and never called when stored earlier.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { loggedAttempts, refusedCreate, storedWebhook, webhookBody } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

let strict: TestApp;
const unique = uniqueNames();
const { newFlag } = fixtures(() => strict, unique);

beforeAll(async () => {
  // Its own database: on PostgreSQL, a shared one would let another app of the file take its deliveries.
  strict = await startTestApp({ integrations: { allowPrivateUrls: false }, ownDatabase: true });
});

describe('with private addresses refused', () => {
  it.each([
    ['IPv4-compatible, dotted (::/96)', 'http://[::127.0.0.1]/hook'],
    ['IPv4-compatible, hexadecimal (::/96)', 'http://[::7f00:1]/hook'],
    ['IPv4-compatible of a private network (::/96)', 'http://[::a00:1]/hook'],
    ['IPv4-mapped, dotted', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped, hexadecimal', 'http://[::ffff:7f00:1]/hook'],
    ['IPv4-translated (::ffff:0:0:0/96)', 'http://[::ffff:0:7f00:1]/hook'],
    ['NAT64', 'http://[64:ff9b::7f00:1]/hook'],
    ['local-use NAT64', 'http://[64:ff9b:1::7f00:1]/hook'],
    ['6to4', 'http://[2002:7f00:1::]/hook'],
    ['reserved ::/8 outside the named forms', 'http://[::ffff:0:0:7f00:1]/hook'],
    ['unassigned, outside global unicast (2000::/3)', 'http://[4000::1]/hook'],
  ])('refuses a URL whose host is %s, naming parameters.url', async (_, url) => {
    expect(await refusedCreate(strict, webhookBody({ url }))).toContain('parameters.url');
  });

  it('accepts a public IPv6 address', async () => {
    const created = await strict.admin.POST('/api/addons', { body: webhookBody({ url: 'http://[2606:4700:4700::1111]/hook' }) });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  });

  it('never calls an IPv4-mapped loopback stored earlier: one failed attempt, not retried', async () => {
    const receiver = await startReceiver();
    const id = await storedWebhook(strict, `http://[::ffff:127.0.0.1]:${new URL(receiver.url).port}/hook`, ['feature-created']);
    await newFlag('mapped');
    const [attempt] = await loggedAttempts(strict, id, 1);
    expect(attempt).toMatchObject({ state: 'failed', details: { willRetry: false } });
    expect(attempt!.stateDetails).toContain('private');
    expect(receiver.received).toHaveLength(0);
  });
});
