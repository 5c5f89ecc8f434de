// Events reach integrations: the body each provider sends, retries, order, filters, and what stops deliveries.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, ok, until } from './support/fixtures.js';
import { createWebhook, deliveryLog, loggedAttempts, receivedCount } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

let app: TestApp;
const unique = uniqueNames();
const { newFlag, newProject, turnOn } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
});

describe('a webhook', () => {
  it('receives a subscribed event as the stored event, with a delivery id header', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-created']);
    const flag = await newFlag('hooked');
    const [request] = await receivedCount(receiver, 1);
    expect(request!.path).toBe('/hook');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.json).toMatchObject({ type: 'feature-created', featureName: flag, project: 'default', environment: null, createdBy: 'admin' });
    expect(request!.json.data).toMatchObject({ name: flag });
    expect(typeof request!.json.id).toBe('number');
  });

  it('sends the authorization and custom headers it was given', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-created'], {
      parameters: { authorization: 'Bearer receiver-secret', customHeaders: '{"X-Team": "checkout"}', contentType: 'application/vnd.flags+json' },
    });
    await newFlag('headers');
    const [request] = await receivedCount(receiver, 1);
    expect(request!.headers.authorization).toBe('Bearer receiver-secret');
    expect(request!.headers['x-team']).toBe('checkout');
    expect(request!.headers['content-type']).toBe('application/vnd.flags+json');
  });

  it('renders its body template with the event fields and the event as JSON', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-created'], {
      parameters: { bodyTemplate: '{"kind": "{{event.type}}", "flag": "{{event.data.name}}", "raw": {{{eventJson}}}}' },
    });
    const flag = await newFlag('templated');
    const [request] = await receivedCount(receiver, 1);
    expect(request!.json.kind).toBe('feature-created');
    expect(request!.json.flag).toBe(flag);
    expect(JSON.parse(request!.json.raw)).toMatchObject({ type: 'feature-created', featureName: flag });
  });

  it('gets nothing for event types it does not subscribe to', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-archived']);
    await newFlag('unsubscribed');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received).toHaveLength(0);
  });

  it('gets only the events of its projects and environments', async () => {
    const receiver = await startReceiver();
    const project = await newProject('hooked-project');
    await createWebhook(app, receiver, ['feature-created', 'feature-environment-enabled'], { projects: [project], environments: ['production'] });
    await newFlag('elsewhere');
    const flag = await newFlag('inside', project);
    for (const environment of ['development', 'production']) {
      await turnOn(flag, environment, project);
    }
    const requests = await receivedCount(receiver, 2);
    expect(requests.map((r) => [r.json.type, r.json.featureName, r.json.environment])).toEqual([
      ['feature-created', flag, null],
      ['feature-environment-enabled', flag, 'production'],
    ]);
  });

  it('gets the events of one integration in the order they were recorded', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-created']);
    const flags: string[] = [];
    for (let i = 0; i < 15; i++) flags.push(await newFlag('ordered'));
    const requests = await receivedCount(receiver, 15);
    expect(requests.map((r) => r.json.featureName)).toEqual(flags);
  });
});

describe('retries', () => {
  it('a receiver that answers 503 twice gets the event once more and the log shows three attempts', async () => {
    const receiver = await startReceiver();
    receiver.answers.push({ status: 503, body: 'busy' }, { status: 503, body: 'still busy' });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    await newFlag('retried');
    const requests = await receivedCount(receiver, 3);
    expect(new Set(requests.map((r) => r.headers['x-delivery-id'])).size).toBe(1);
    const attempts = await loggedAttempts(app, addon.id, 3);
    expect(attempts.map((a) => [a.state, a.details.attempt, a.details.status, a.details.willRetry])).toEqual([
      ['failed', 1, 503, true],
      ['failed', 2, 503, true],
      ['success', 3, 200, false],
    ]);
    expect(attempts[0]!.details.response).toBe('busy');
  });

  it('a receiver that answers 400 gets one attempt, logged as failed for good', async () => {
    const receiver = await startReceiver({ status: 400, body: 'no such hook' });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    await newFlag('refused');
    await receivedCount(receiver, 1);
    const [attempt] = await loggedAttempts(app, addon.id, 1);
    expect(attempt).toMatchObject({ state: 'failed', integrationId: addon.id, details: { attempt: 1, status: 400, willRetry: false } });
    expect(attempt!.event.type).toBe('feature-created');
  });

  it('waits as long as a 429 answer says in Retry-After', async () => {
    const receiver = await startReceiver();
    receiver.answers.push({ status: 429, headers: { 'retry-after': '1' } });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    await newFlag('throttled');
    await receivedCount(receiver, 2);
    const [first] = await loggedAttempts(app, addon.id, 2);
    const waited = Date.parse(first!.details.nextAttemptAt as string) - Date.parse(first!.createdAt);
    expect(waited).toBeGreaterThanOrEqual(900);
  });

  it('an update of the integration sends what was waiting for a retry at once', async () => {
    const receiver = await startReceiver();
    receiver.answers.push({ status: 503, headers: { 'retry-after': '3600' } });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    const flag = await newFlag('fixed');
    await receivedCount(receiver, 1);
    await ok(app.admin.PUT('/api/admin/addons/{id}', { params: { path: { id: addon.id } }, body: { provider: 'webhook', enabled: true, parameters: { url: '*****' }, events: ['feature-created'] } }));
    const requests = await receivedCount(receiver, 2);
    expect(requests[1]!.json.featureName).toBe(flag);
  });

  it('does not resend a delivery once a later event of the same integration went out', async () => {
    const receiver = await startReceiver();
    receiver.answers.push({ status: 500 });
    await createWebhook(app, receiver, ['feature-created']);
    const first = await newFlag('first');
    const second = await newFlag('second');
    const requests = await receivedCount(receiver, 3);
    expect(requests.map((r) => r.json.featureName)).toEqual([first, first, second]);
  });
});

describe('stopping deliveries', () => {
  it('a disabled integration delivers nothing', async () => {
    const receiver = await startReceiver();
    await createWebhook(app, receiver, ['feature-created'], { enabled: false });
    await newFlag('disabled');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received).toHaveLength(0);
  });

  it('disabling an integration drops the deliveries it was retrying', async () => {
    const receiver = await startReceiver({ status: 503 });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    await newFlag('dropped');
    await until('a first attempt', async () => receiver.received.length, (n) => n >= 1);
    await ok(app.admin.POST('/api/addons/{id}', { params: { path: { id: addon.id } }, body: { provider: 'webhook', enabled: false, parameters: { url: '*****' }, events: ['feature-created'] } }));
    const seen = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.length).toBeLessThanOrEqual(seen + 1);
    const settled = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.length).toBe(settled);
  });

  it('deleting an integration drops the deliveries it was retrying', async () => {
    const receiver = await startReceiver({ status: 503 });
    const addon = await createWebhook(app, receiver, ['feature-created']);
    await newFlag('deleted');
    await until('a first attempt', async () => receiver.received.length, (n) => n >= 1);
    await ok(app.admin.DELETE('/api/admin/addons/{id}', { params: { path: { id: addon.id } } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.length).toBe(settled);
  });

  it('a receiver that never answers does not hold up admin writes', async () => {
    const receiver = await startReceiver('hang');
    await createWebhook(app, receiver, ['feature-created']);
    for (let i = 0; i < 10; i++) await newFlag('unblocked');
    await until('the hanging receiver to be called', async () => receiver.received.length, (n) => n >= 1);
    const { response } = await app.admin.GET('/api/admin/addons');
    expect(response.status).toBe(200);
    await receiver.close();
  });
});

describe('the delivery log', () => {
  it('lists attempts newest first, paged by limit and offset', async () => {
    const receiver = await startReceiver();
    const addon = await createWebhook(app, receiver, ['feature-created']);
    const flags = [await newFlag('logged'), await newFlag('logged'), await newFlag('logged')];
    await receivedCount(receiver, 3);
    await loggedAttempts(app, addon.id, 3);
    const all = await deliveryLog(app, addon.id);
    expect(all.map((entry) => entry.event.featureName)).toEqual([...flags].reverse());
    expect((await deliveryLog(app, addon.id, { limit: 1, offset: 1 })).map((entry) => entry.event.featureName)).toEqual([flags[1]]);
    expect(all.every((entry) => entry.state === 'success' && typeof entry.details.durationMs === 'number')).toBe(true);
  });

  it('never shows what the integration sent as secrets', async () => {
    const receiver = await startReceiver();
    const addon = await createWebhook(app, receiver, ['feature-created'], { parameters: { authorization: 'Bearer log-secret-7' } });
    await newFlag('secretive');
    await loggedAttempts(app, addon.id, 1);
    const log = await ok(app.admin.GET('/api/admin/addons/{id}/events', { params: { path: { id: addon.id } }, parseAs: 'text' }));
    expect(log).not.toContain('log-secret-7');
    expect(log).not.toContain(receiver.url);
    expect(app.logs.join('\n')).not.toContain('log-secret-7');
  });

  it('refuses limits outside 1 to 100 and unknown integrations', async () => {
    const receiver = await startReceiver();
    const addon = await createWebhook(app, receiver, ['feature-created']);
    const events = (id: number, limit?: number) => app.admin.GET('/api/admin/addons/{id}/events', { params: { path: { id }, query: { limit } } });
    for (const limit of [0, 101]) expect((await events(addon.id, limit)).response.status).toBe(400);
    // Not a number: a query the types forbid, so sent raw.
    expect((await call(app, 'GET', `/api/admin/addons/${addon.id}/events?limit=x`)).status).toBe(400);
    expect((await events(999999)).response.status).toBe(404);
  });
});
