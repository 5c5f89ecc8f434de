// As in Unleash, the user who creates a project becomes its Owner; a token that creates one makes no one Owner.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { call, startTestApp, type TestApp } from './support/app.js';
import { as, userWithSession } from './support/users.js';

const OWNER = 4;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();

async function directUsers(project: string): Promise<{ id: number; roles: number[] }[]> {
  const access = await call(app, 'GET', `/api/admin/projects/${project}/access`);
  expect(access.status, access.text).toBe(200);
  return access.json.users.map((u: { id: number; roles: number[] }) => ({ id: u.id, roles: u.roles }));
}

describe('the creator of a project', () => {
  it('is its Owner when a user created it, and may then create flags there', async () => {
    const editor = await userWithSession(app, 'Editor');
    const project = unique('owned');
    const created = await call(app, 'POST', '/api/admin/projects', { ...as(editor), body: { id: project, name: project } });
    expect(created.status, created.text).toBe(201);

    expect(await directUsers(project)).toEqual([{ id: editor.id, roles: [OWNER] }]);
    const flag = await call(app, 'POST', `/api/admin/projects/${project}/features`, { ...as(editor), body: { name: unique('flag') } });
    expect(flag.status, flag.text).toBe(201);
  });

  it('is no one when an admin token created it', async () => {
    const project = unique('token-made');
    const created = await call(app, 'POST', '/api/admin/projects', { body: { id: project, name: project } });
    expect(created.status, created.text).toBe(201);
    expect(await directUsers(project)).toEqual([]);
  });
});
