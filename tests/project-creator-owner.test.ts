// As in Unleash, the user who creates a project becomes its Owner; a token that creates one makes no one Owner.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueNames } from './support/events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { clientAs, createFlagAs, userWithSession } from './support/users.js';

const OWNER = 4;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();

async function directUsers(project: string): Promise<{ id: number; roles: number[] }[]> {
  const { data, error, response } = await app.admin.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId: project } } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!.users.map((u) => ({ id: u.id, roles: u.roles }));
}

describe('the creator of a project', () => {
  it('is its Owner when a user created it, and may then create flags there', async () => {
    const editor = await userWithSession(app, 'Editor');
    const project = unique('owned');
    const created = await clientAs(app, editor).POST('/api/admin/projects', { body: { id: project, name: project } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);

    expect(await directUsers(project)).toEqual([{ id: editor.id, roles: [OWNER] }]);
    const flag = await createFlagAs(app, editor, project, unique('flag'));
    expect(flag.response.status, JSON.stringify(flag.error)).toBe(201);
  });

  it('is no one when an admin token created it', async () => {
    const project = unique('token-made');
    const created = await app.admin.POST('/api/admin/projects', { body: { id: project, name: project } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(await directUsers(project)).toEqual([]);
  });
});
