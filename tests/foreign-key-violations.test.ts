// A foreign-key violation that a handler's own checks miss is answered 4xx, never 500. Handlers check
// references themselves; to reach the safety net, this file adds test-only foreign keys the handlers do
// not know about (through `testApp.db`), then acts through HTTP.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';

let app: TestApp;
const unique = uniqueNames();

beforeAll(async () => {
  app = await startTestApp();
  // A tag's value must name a project; a row of a table of its own points at projects.
  await app.db.execute(sql`alter table tags add constraint test_tag_value_is_a_project foreign key (value) references projects (id)`);
  await app.db.execute(sql`create table test_project_refs (project text not null references projects (id))`);
});

describe('a foreign key the handler did not check', () => {
  it('answers 400 ValidationError for a reference to a row that does not exist, without driver text', async () => {
    const value = unique('tag');
    const response = await app.admin.POST('/api/admin/tags', { body: { type: 'simple', value } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).not.toMatch(/constraint|violates|test_tag_value|projects/i);
  });

  it('answers 409 ConflictError for removing a row still referenced', async () => {
    const project = unique('project');
    expect((await app.admin.POST('/api/admin/projects', { body: { id: project, name: 'Referenced' } })).response.status).toBe(201);
    await app.db.execute(sql`insert into test_project_refs (project) values (${project})`);
    const response = await app.admin.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: project } } });
    const error = expectError(response, 409, 'ConflictError');
    expect(error.message).not.toMatch(/constraint|violates|test_project_refs/i);
    expect((await app.admin.GET('/api/admin/projects/{projectId}', { params: { path: { projectId: project } } })).response.status).toBe(200);
  });
});
