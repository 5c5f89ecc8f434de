// A segment's project must exist: an empty or unknown one is a 400 naming it, never a foreign-key 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';

let app: TestApp;
const unique = uniqueNames();

beforeAll(async () => {
  app = await startTestApp();
});

const segmentNames = async () => ((await call(app, 'GET', '/api/admin/segments')).json.segments as { name: string }[]).map((s) => s.name);

describe("a segment's project", () => {
  it.each([
    ['an empty project', ''],
    ['a project that does not exist', 'no-such-project'],
  ])('refuses to create a segment with %s', async (_title, project) => {
    const name = unique('segment');
    const response = await call(app, 'POST', '/api/admin/segments', { body: { name, constraints: [], project } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('project');
    expect(error.message).toContain(`"${project}"`);
    expect(await segmentNames()).not.toContain(name);
  });

  it.each([
    ['an empty project', ''],
    ['a project that does not exist', 'no-such-project'],
  ])('refuses to update a segment to %s and keeps it as it was', async (_title, project) => {
    const name = unique('segment');
    const created = await call(app, 'POST', '/api/admin/segments', { body: { name, constraints: [] } });
    expect(created.status, created.text).toBe(201);
    const response = await call(app, 'PUT', `/api/admin/segments/${created.json.id}`, { body: { name, constraints: [], project } });
    expect(expectError(response, 400, 'ValidationError').message).toContain(`"${project}"`);
    expect((await call(app, 'GET', `/api/admin/segments/${created.json.id}`)).json.project).toBeNull();
  });

  it('accepts a project that exists, and no project at all', async () => {
    const inDefault = await call(app, 'POST', '/api/admin/segments', { body: { name: unique('segment'), constraints: [], project: 'default' } });
    expect(inDefault.status, inDefault.text).toBe(201);
    expect(inDefault.json.project).toBe('default');
    const global = await call(app, 'POST', '/api/admin/segments', { body: { name: unique('segment'), constraints: [], project: null } });
    expect(global.status, global.text).toBe(201);
    expect(global.json.project).toBeNull();
  });
});
