// The integrations API: the interface's four operations, Unleash's own routes, validation, masking, events.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader } from './support/events.js';
import { adminJson } from './support/fixtures.js';
import { as, userWithSession } from './support/users.js';

let app: TestApp;
const { latestEventId, eventsSince } = eventReader(() => app);

const webhook = (url = 'http://127.0.0.1:9/hook') => ({
  provider: 'webhook',
  enabled: true,
  description: 'Audit trail',
  events: ['feature-created', 'feature-archived'],
  parameters: { url, authorization: 'Bearer top-secret', bodyTemplate: '{"type": "{{event.type}}"}' },
});

beforeAll(async () => {
  app = await startTestApp();
});

describe('creating', () => {
  it('answers 201 with the integration, its sensitive parameters masked, and where to find it', async () => {
    const response = await call(app, 'POST', '/api/addons', { body: webhook() });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      provider: 'webhook',
      enabled: true,
      description: 'Audit trail',
      events: ['feature-created', 'feature-archived'],
      projects: [],
      environments: [],
      parameters: { url: '*****', authorization: '*****', bodyTemplate: '{"type": "{{event.type}}"}' },
    });
    expect(response.headers.location).toBe(`/api/admin/addons/${response.json.id}`);
    expect(response.text).not.toContain('top-secret');
  });

  it("answers 201 on Unleash's own route too", async () => {
    const response = await call(app, 'POST', '/api/admin/addons', { body: { ...webhook(), projects: ['default'], environments: ['production'] } });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ projects: ['default'], environments: ['production'] });
  });

  it('records addon-config-created without the parameters', async () => {
    const since = await latestEventId();
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-created', data: { id: created.id, provider: 'webhook' } });
    expect(event!.data).not.toHaveProperty('parameters');
    expect(JSON.stringify(event)).not.toContain('top-secret');
  });

  it("creates the provider's tag type when it is missing", async () => {
    await adminJson(app, 'POST', '/api/addons', { provider: 'datadog', enabled: true, events: ['feature-created'], parameters: { apiKey: 'dd-key', url: 'http://127.0.0.1:9/dd' } });
    const tagType = await adminJson(app, 'GET', '/api/admin/tag-types/datadog');
    expect(tagType.tagType.name).toBe('datadog');
  });

  it('refuses an unknown provider', async () => {
    const error = expectError(await call(app, 'POST', '/api/addons', { body: { ...webhook(), provider: 'pager' } }), 400, 'ValidationError');
    expect(error.message).toContain('pager');
  });

  it('refuses a missing required parameter, naming it', async () => {
    const body = { provider: 'slack', enabled: true, events: ['feature-created'], parameters: { url: 'http://127.0.0.1:9/slack' } };
    const error = expectError(await call(app, 'POST', '/api/addons', { body }), 400, 'ValidationError');
    expect(error.message).toContain('defaultChannel');
  });

  it('refuses a parameter the provider does not have', async () => {
    const error = expectError(await call(app, 'POST', '/api/addons', { body: { ...webhook(), parameters: { url: 'http://127.0.0.1:9/x', channel: 'x' } } }), 400, 'ValidationError');
    expect(error.message).toContain('parameters.channel');
  });

  it('refuses an unknown event type', async () => {
    const error = expectError(await call(app, 'POST', '/api/addons', { body: { ...webhook(), events: ['feature-creatd'] } }), 400, 'ValidationError');
    expect(error.message).toContain('events');
  });

  it('refuses a URL that is not http or https', async () => {
    const error = expectError(await call(app, 'POST', '/api/addons', { body: webhook('ftp://files.example.com/hook') }), 400, 'ValidationError');
    expect(error.message).toContain('parameters.url');
  });

  it('refuses custom headers that are not a JSON object of strings', async () => {
    for (const customHeaders of ['not json', '["a"]', '{"X-Count": 1}']) {
      const body = { ...webhook(), parameters: { url: 'http://127.0.0.1:9/x', customHeaders } };
      expect(expectError(await call(app, 'POST', '/api/addons', { body }), 400, 'ValidationError').message).toContain('customHeaders');
    }
  });

  it('refuses a body template that is not Mustache', async () => {
    const body = { ...webhook(), parameters: { url: 'http://127.0.0.1:9/x', bodyTemplate: '{{#event}} unclosed' } };
    expect(expectError(await call(app, 'POST', '/api/addons', { body }), 400, 'ValidationError').message).toContain('bodyTemplate');
  });
});

describe('private addresses', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ integrations: { allowPrivateUrls: false, allowedHosts: ['localhost'] }, ownDatabase: true });
  });

  it('refuses a URL whose host is a loopback, private or link-local address', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook', 'http://192.168.0.1/']) {
      const error = expectError(await call(strict, 'POST', '/api/addons', { body: webhook(url) }), 400, 'ValidationError');
      expect(error.message).toContain('parameters.url');
    }
  });

  it('accepts a private host that the allow list names', async () => {
    expect((await call(strict, 'POST', '/api/addons', { body: webhook('http://localhost:9/hook') })).status).toBe(201);
  });
});

describe('reading', () => {
  it('lists integrations and the four providers with their parameters', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const listing = await adminJson(app, 'GET', '/api/admin/addons');
    expect(listing.addons.find((a: { id: number }) => a.id === created.id)).toMatchObject({ parameters: { url: '*****', authorization: '*****' } });
    expect(listing.providers.map((p: { name: string }) => p.name).sort()).toEqual(['datadog', 'slack', 'teams', 'webhook']);
    const slack = listing.providers.find((p: { name: string }) => p.name === 'slack');
    expect(slack.parameters.find((p: { name: string }) => p.name === 'defaultChannel')).toMatchObject({ required: true });
    expect(slack.tagTypes.map((t: { name: string }) => t.name)).toEqual(['slack']);
  });

  it('answers one integration by id, masked', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const read = await adminJson(app, 'GET', `/api/admin/addons/${created.id}`);
    expect(read).toEqual(created);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await call(app, 'GET', '/api/admin/addons/987654'), 404, 'NotFoundError');
  });
});

describe('updating', () => {
  it('answers 200 with the integration as updated, on both routes', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const viaInterface = await call(app, 'POST', `/api/addons/${created.id}`, { body: { ...webhook(), description: 'First', parameters: { url: '*****' } } });
    expect(viaInterface.status).toBe(200);
    expect(viaInterface.json).toMatchObject({ id: created.id, description: 'First', parameters: { url: '*****' } });
    const viaUnleash = await call(app, 'PUT', `/api/admin/addons/${created.id}`, { body: { ...webhook(), description: 'Second', parameters: { url: '*****' } } });
    expect(viaUnleash.status).toBe(200);
    expect((await adminJson(app, 'GET', `/api/admin/addons/${created.id}`)).description).toBe('Second');
  });

  it('refuses to change the provider', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const body = { provider: 'teams', enabled: true, events: ['feature-created'], parameters: { url: 'http://127.0.0.1:9/teams' } };
    expect(expectError(await call(app, 'POST', `/api/addons/${created.id}`, { body }), 400, 'ValidationError').message).toContain('provider');
  });

  it('refuses a masked value for a sensitive parameter that was never stored', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', { ...webhook(), parameters: { url: 'http://127.0.0.1:9/x' } });
    const body = { ...webhook(), parameters: { url: 'http://127.0.0.1:9/x', authorization: '*****' } };
    // No authorization was stored: the masked value keeps nothing, and an optional parameter may be absent.
    const response = await call(app, 'POST', `/api/addons/${created.id}`, { body });
    expect(response.status).toBe(200);
    expect(response.json.parameters).not.toHaveProperty('authorization');
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await call(app, 'POST', '/api/addons/987654', { body: webhook() }), 404, 'NotFoundError');
    expectError(await call(app, 'PUT', '/api/admin/addons/987654', { body: webhook() }), 404, 'NotFoundError');
  });

  it('records addon-config-updated with data and preData, without parameters', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const since = await latestEventId();
    await adminJson(app, 'POST', `/api/addons/${created.id}`, { ...webhook(), enabled: false, parameters: { url: '*****' } });
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-updated', data: { enabled: false }, preData: { enabled: true } });
    expect(event!.data).not.toHaveProperty('parameters');
    expect(event!.preData).not.toHaveProperty('parameters');
  });
});

describe('deleting', () => {
  it('answers 200, records addon-config-deleted, and the integration is gone', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const since = await latestEventId();
    expect((await call(app, 'DELETE', `/api/admin/addons/${created.id}`)).status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-deleted', preData: { id: created.id } });
    expect(event!.preData).not.toHaveProperty('parameters');
    expectError(await call(app, 'GET', `/api/admin/addons/${created.id}`), 404, 'NotFoundError');
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await call(app, 'DELETE', '/api/admin/addons/987654'), 404, 'NotFoundError');
  });
});

describe('permissions', () => {
  it('a Viewer may list integrations but not create, update or delete them, nor read delivery logs', async () => {
    const created = await adminJson(app, 'POST', '/api/addons', webhook());
    const viewer = await userWithSession(app, 'Viewer');
    expect((await call(app, 'GET', '/api/admin/addons', as(viewer))).status).toBe(200);
    expectError(await call(app, 'POST', '/api/addons', { ...as(viewer), body: webhook() }), 403, 'NoAccessError');
    expectError(await call(app, 'POST', `/api/addons/${created.id}`, { ...as(viewer), body: webhook() }), 403, 'NoAccessError');
    expectError(await call(app, 'PUT', `/api/admin/addons/${created.id}`, { ...as(viewer), body: webhook() }), 403, 'NoAccessError');
    expectError(await call(app, 'DELETE', `/api/admin/addons/${created.id}`, as(viewer)), 403, 'NoAccessError');
    expectError(await call(app, 'GET', `/api/admin/addons/${created.id}/events`, as(viewer)), 403, 'NoAccessError');
  });

  it('a client token may not list or create integrations', async () => {
    const created = await adminJson(app, 'POST', '/api/admin/api-tokens', { tokenName: 'addons-client', type: 'client', environment: 'development' });
    expectError(await call(app, 'GET', '/api/admin/addons', { token: created.secret }), 403, 'NoAccessError');
    expectError(await call(app, 'POST', '/api/addons', { token: created.secret, body: webhook() }), 403, 'NoAccessError');
  });

  it('needs a credential to list integrations', async () => {
    expectError(await call(app, 'GET', '/api/admin/addons', { token: null }), 401, 'AuthenticationRequired');
  });
});
