import { describe, expect, it } from 'vitest';
import { call, expectError, startTestApp } from './support/app.js';

// The order matters on PostgreSQL, where every app of this file shares one database: the first start
// without credentials must find no admin token, so nothing before it may create one.
describe('the first start', () => {
  it('creates no admin token when AUTH_TYPE is none', async () => {
    const open = await startTestApp({ withoutAdminToken: true, authType: 'none' });
    expect(open.createdAdminToken).toBeUndefined();
    const list = await call(open, 'GET', '/api/admin/api-tokens', { token: null });
    expect(list.status).toBe(200);
    expect(list.json.tokens.filter((token: { type: string }) => token.type === 'admin')).toEqual([]);
  });

  it('creates one admin token when none exists, which works as a credential and is never logged', async () => {
    const app = await startTestApp({ withoutAdminToken: true });
    const secret = app.createdAdminToken;
    expect(typeof secret).toBe('string');
    expect(secret).toMatch(/^\*:\*\.[0-9a-f]{56}$/);

    expectError(await call(app, 'GET', '/api/admin/tag-types', { token: app.adminToken }), 401, 'AuthenticationRequired');
    const tagTypes = await call(app, 'GET', '/api/admin/tag-types', { token: secret! });
    expect(tagTypes.status).toBe(200);
    expect(tagTypes.json.tagTypes.map((type: { name: string }) => type.name)).toContain('simple');
    expect((await call(app, 'GET', '/api/admin/events', { token: `Bearer ${secret}` })).status).toBe(200);
    const created = await call(app, 'POST', '/api/admin/api-tokens', { token: secret!, body: { tokenName: 'first-client', type: 'client' } });
    expect(created.status, created.text).toBe(201);

    const list = await call(app, 'GET', '/api/admin/api-tokens', { token: secret! });
    expect(list.status).toBe(200);
    expect(list.json.tokens.filter((token: { type: string }) => token.type === 'admin')).toHaveLength(1);
    expect(list.text).not.toContain(secret!.slice(4));

    expect(app.logs.length).toBeGreaterThan(0);
    for (const line of app.logs) expect(line).not.toContain(secret!.slice(4));
  });
});
