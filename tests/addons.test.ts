// The integrations API: the interface's four operations, Unleash's own routes, validation, masking, events.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components, ServiceClient } from '../client/index.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader } from './support/events.js';
import { idParams, newApiToken } from './support/fixtures.js';
import { clientAs, userWithSession } from './support/users.js';

type UpsertAddon = components['schemas']['UpsertAddon'];

let app: TestApp;
const { latestEventId, eventsSince } = eventReader(() => app);

const auditWebhook = (url = 'http://127.0.0.1:9/hook'): UpsertAddon => ({
  provider: 'webhook',
  enabled: true,
  description: 'Audit trail',
  events: ['feature-created', 'feature-archived'],
  parameters: { url, authorization: 'Bearer top-secret', bodyTemplate: '{"type": "{{event.type}}"}' },
});

beforeAll(async () => {
  app = await startTestApp();
});

/** POST /api/addons: the interface's route to create an integration. */
const postAddon = (body: UpsertAddon, client: ServiceClient = app.admin) => client.POST('/api/addons', { body });
const updateAddon = (id: number, body: UpsertAddon, client: ServiceClient = app.admin) => client.POST('/api/addons/{id}', { ...idParams(id), body });
const readAddon = (id: number) => app.admin.GET('/api/admin/addons/{id}', idParams(id));

/** An integration created as the admin; answers it as the answer shows it. */
async function createAddon(body: UpsertAddon = auditWebhook()) {
  const { data, error, response } = await postAddon(body);
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

describe('creating', () => {
  it('answers 201 with the integration, its sensitive parameters masked, and where to find it', async () => {
    const { data, response } = await postAddon(auditWebhook());
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      provider: 'webhook',
      enabled: true,
      description: 'Audit trail',
      events: ['feature-created', 'feature-archived'],
      projects: [],
      environments: [],
      parameters: { url: '*****', authorization: '*****', bodyTemplate: '{"type": "{{event.type}}"}' },
    });
    expect(response.headers.get('location')).toBe(`/api/admin/addons/${data!.id}`);
    expect(JSON.stringify(data)).not.toContain('top-secret');
  });

  it("answers 201 on Unleash's own route too", async () => {
    const { data, response } = await app.admin.POST('/api/admin/addons', { body: { ...auditWebhook(), projects: ['default'], environments: ['production'] } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ projects: ['default'], environments: ['production'] });
  });

  it('records addon-config-created without the parameters', async () => {
    const since = await latestEventId();
    const created = await createAddon();
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-created', data: { id: created.id, provider: 'webhook' } });
    expect(event!.data).not.toHaveProperty('parameters');
    expect(JSON.stringify(event)).not.toContain('top-secret');
  });

  it("creates the provider's tag type when it is missing", async () => {
    await createAddon({ provider: 'datadog', enabled: true, events: ['feature-created'], parameters: { apiKey: 'dd-key', url: 'http://127.0.0.1:9/dd' } });
    const tagType = await app.admin.GET('/api/admin/tag-types/{typeName}', { params: { path: { typeName: 'datadog' } } });
    expect(tagType.data!.tagType.name).toBe('datadog');
  });

  it('refuses an unknown provider', async () => {
    const error = expectError(await postAddon({ ...auditWebhook(), provider: 'pager' }), 400, 'ValidationError');
    expect(error.message).toContain('pager');
  });

  it('refuses a missing required parameter, naming it', async () => {
    const body: UpsertAddon = { provider: 'slack', enabled: true, events: ['feature-created'], parameters: { url: 'http://127.0.0.1:9/slack' } };
    const error = expectError(await postAddon(body), 400, 'ValidationError');
    expect(error.message).toContain('defaultChannel');
  });

  it('refuses a parameter the provider does not have', async () => {
    const error = expectError(await postAddon({ ...auditWebhook(), parameters: { url: 'http://127.0.0.1:9/x', channel: 'x' } }), 400, 'ValidationError');
    expect(error.message).toContain('parameters.channel');
  });

  it('refuses an unknown event type', async () => {
    const error = expectError(await call(app, 'POST', '/api/addons', { body: { ...auditWebhook(), events: ['feature-creatd'] } }), 400, 'ValidationError');
    expect(error.message).toContain('events');
  });

  it('refuses a URL that is not http or https', async () => {
    const error = expectError(await postAddon(auditWebhook('ftp://files.example.com/hook')), 400, 'ValidationError');
    expect(error.message).toContain('parameters.url');
  });

  it('refuses custom headers that are not a JSON object of strings', async () => {
    for (const customHeaders of ['not json', '["a"]', '{"X-Count": 1}']) {
      const body = { ...auditWebhook(), parameters: { url: 'http://127.0.0.1:9/x', customHeaders } };
      expect(expectError(await postAddon(body), 400, 'ValidationError').message).toContain('customHeaders');
    }
  });

  it('refuses a body template that is not Mustache', async () => {
    const body = { ...auditWebhook(), parameters: { url: 'http://127.0.0.1:9/x', bodyTemplate: '{{#event}} unclosed' } };
    expect(expectError(await postAddon(body), 400, 'ValidationError').message).toContain('bodyTemplate');
  });
});

describe('private addresses', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ integrations: { allowPrivateUrls: false, allowedHosts: ['localhost'] }, ownDatabase: true });
  });

  it('refuses a URL whose host is a loopback, private or link-local address', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook', 'http://192.168.0.1/']) {
      const error = expectError(await postAddon(auditWebhook(url), strict.admin), 400, 'ValidationError');
      expect(error.message).toContain('parameters.url');
    }
  });

  it('accepts a private host that the allow list names', async () => {
    expect((await postAddon(auditWebhook('http://localhost:9/hook'), strict.admin)).response.status).toBe(201);
  });
});

describe('reading', () => {
  it('lists integrations and the four providers with their parameters', async () => {
    const created = await createAddon();
    const listing = (await app.admin.GET('/api/admin/addons')).data!;
    expect(listing.addons.find((a) => a.id === created.id)).toMatchObject({ parameters: { url: '*****', authorization: '*****' } });
    expect(listing.providers.map((p) => p.name).sort()).toEqual(['datadog', 'slack', 'teams', 'webhook']);
    const slack = listing.providers.find((p) => p.name === 'slack')!;
    expect(slack.parameters.find((p) => p.name === 'defaultChannel')).toMatchObject({ required: true });
    expect(slack.tagTypes!.map((t) => t.name)).toEqual(['slack']);
  });

  it('answers one integration by id, masked', async () => {
    const created = await createAddon();
    expect((await readAddon(created.id)).data).toEqual(created);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await readAddon(987654), 404, 'NotFoundError');
  });
});

describe('updating', () => {
  it('answers 200 with the integration as updated, on both routes', async () => {
    const created = await createAddon();
    const viaInterface = await updateAddon(created.id, { ...auditWebhook(), description: 'First', parameters: { url: '*****' } });
    expect(viaInterface.response.status).toBe(200);
    expect(viaInterface.data).toMatchObject({ id: created.id, description: 'First', parameters: { url: '*****' } });
    const viaUnleash = await app.admin.PUT('/api/admin/addons/{id}', { ...idParams(created.id), body: { ...auditWebhook(), description: 'Second', parameters: { url: '*****' } } });
    expect(viaUnleash.response.status).toBe(200);
    expect((await readAddon(created.id)).data!.description).toBe('Second');
  });

  it('refuses to change the provider', async () => {
    const created = await createAddon();
    const body: UpsertAddon = { provider: 'teams', enabled: true, events: ['feature-created'], parameters: { url: 'http://127.0.0.1:9/teams' } };
    expect(expectError(await updateAddon(created.id, body), 400, 'ValidationError').message).toContain('provider');
  });

  it('refuses a masked value for a sensitive parameter that was never stored', async () => {
    const created = await createAddon({ ...auditWebhook(), parameters: { url: 'http://127.0.0.1:9/x' } });
    const body = { ...auditWebhook(), parameters: { url: 'http://127.0.0.1:9/x', authorization: '*****' } };
    // No authorization was stored: the masked value keeps nothing, and an optional parameter may be absent.
    const { data, response } = await updateAddon(created.id, body);
    expect(response.status).toBe(200);
    expect(data!.parameters).not.toHaveProperty('authorization');
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await updateAddon(987654, auditWebhook()), 404, 'NotFoundError');
    expectError(await app.admin.PUT('/api/admin/addons/{id}', { ...idParams(987654), body: auditWebhook() }), 404, 'NotFoundError');
  });

  it('records addon-config-updated with data and preData, without parameters', async () => {
    const created = await createAddon();
    const since = await latestEventId();
    expect((await updateAddon(created.id, { ...auditWebhook(), enabled: false, parameters: { url: '*****' } })).response.status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-updated', data: { enabled: false }, preData: { enabled: true } });
    expect(event!.data).not.toHaveProperty('parameters');
    expect(event!.preData).not.toHaveProperty('parameters');
  });
});

describe('deleting', () => {
  it('answers 200, records addon-config-deleted, and the integration is gone', async () => {
    const created = await createAddon();
    const since = await latestEventId();
    expect((await app.admin.DELETE('/api/admin/addons/{id}', idParams(created.id))).response.status).toBe(200);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'addon-config-deleted', preData: { id: created.id } });
    expect(event!.preData).not.toHaveProperty('parameters');
    expectError(await readAddon(created.id), 404, 'NotFoundError');
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await app.admin.DELETE('/api/admin/addons/{id}', idParams(987654)), 404, 'NotFoundError');
  });
});

describe('permissions', () => {
  it('a Viewer may list integrations but not create, update or delete them, nor read delivery logs', async () => {
    const created = await createAddon();
    const viewer = clientAs(app, await userWithSession(app, 'Viewer'));
    expect((await viewer.GET('/api/admin/addons')).response.status).toBe(200);
    expectError(await postAddon(auditWebhook(), viewer), 403, 'NoAccessError');
    expectError(await updateAddon(created.id, auditWebhook(), viewer), 403, 'NoAccessError');
    expectError(await viewer.PUT('/api/admin/addons/{id}', { ...idParams(created.id), body: auditWebhook() }), 403, 'NoAccessError');
    expectError(await viewer.DELETE('/api/admin/addons/{id}', idParams(created.id)), 403, 'NoAccessError');
    expectError(await viewer.GET('/api/admin/addons/{id}/events', idParams(created.id)), 403, 'NoAccessError');
  });

  it('a client token may not list or create integrations', async () => {
    const sdk = app.clientWith(await newApiToken(app, { type: 'client', environment: 'development' }));
    expectError(await sdk.GET('/api/admin/addons'), 403, 'NoAccessError');
    expectError(await postAddon(auditWebhook(), sdk), 403, 'NoAccessError');
  });

  it('needs a credential to list integrations', async () => {
    expectError(await app.clientWith().GET('/api/admin/addons'), 401, 'AuthenticationRequired');
  });
});
