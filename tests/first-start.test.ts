import { describe, expect, it } from 'vitest';
import { expectError, startTestApp } from './support/app.js';

// The order matters on PostgreSQL, where every app of this file shares one database: the first start
// without credentials must find no admin token, so nothing before it may create one.
describe('the first start', () => {
  it('creates no admin token when AUTH_TYPE is none', async () => {
    const open = await startTestApp({ withoutAdminToken: true, authType: 'none' });
    expect(open.createdAdminToken).toBeUndefined();
    const list = await open.clientWith().GET('/api/admin/api-tokens');
    expect(list.response.status).toBe(200);
    expect(list.data!.tokens.filter((token) => token.type === 'admin')).toEqual([]);
  });

  it('creates one admin token when none exists, which works as a credential and is never logged', async () => {
    const app = await startTestApp({ withoutAdminToken: true });
    const secret = app.createdAdminToken;
    expect(typeof secret).toBe('string');
    expect(secret).toMatch(/^\*:\*\.[0-9a-f]{56}$/);

    expectError(await app.admin.GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    const asCreated = app.clientWith(secret);
    const tagTypes = await asCreated.GET('/api/admin/tag-types');
    expect(tagTypes.response.status).toBe(200);
    expect(tagTypes.data!.tagTypes.map((type) => type.name)).toContain('simple');
    expect((await app.clientWith(`Bearer ${secret}`).GET('/api/admin/events')).response.status).toBe(200);
    const clientToken = await asCreated.POST('/api/admin/api-tokens', { body: { tokenName: 'first-client', type: 'client' } });
    expect(clientToken.response.status, JSON.stringify(clientToken.error)).toBe(201);

    const list = await asCreated.GET('/api/admin/api-tokens');
    expect(list.response.status).toBe(200);
    expect(list.data!.tokens.filter((token) => token.type === 'admin')).toHaveLength(1);
    expect(JSON.stringify(list.data)).not.toContain(secret!.slice(4));

    expect(app.logs.length).toBeGreaterThan(0);
    for (const line of app.logs) expect(line).not.toContain(secret!.slice(4));
  });
});
