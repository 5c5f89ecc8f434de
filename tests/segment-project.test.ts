// A segment's project must exist: an empty or unknown one is a 400 naming it, never a foreign-key 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';

let app: TestApp;
const unique = uniqueNames();

beforeAll(async () => {
  app = await startTestApp();
});

describe("a segment's project", () => {
  it.each([
    ['an empty project', ''],
    ['a project that does not exist', 'no-such-project'],
  ])('refuses to create a segment with %s', async (_title, project) => {
    const name = unique('segment');
    const response = await app.admin.POST('/api/admin/segments', { body: { name, constraints: [], project } });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain('project');
    expect(error.message).toContain(`"${project}"`);
    expect((await app.admin.GET('/api/admin/segments')).data!.segments.map((s) => s.name)).not.toContain(name);
  });

  it.each([
    ['an empty project', ''],
    ['a project that does not exist', 'no-such-project'],
  ])('refuses to update a segment to %s and keeps it as it was', async (_title, project) => {
    const name = unique('segment');
    const created = await app.admin.POST('/api/admin/segments', { body: { name, constraints: [] } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const segment = { params: { path: { segmentId: created.data!.id } } };
    const response = await app.admin.PUT('/api/admin/segments/{segmentId}', { ...segment, body: { name, constraints: [], project } });
    expect(expectError(response, 400, 'ValidationError').message).toContain(`"${project}"`);
    expect((await app.admin.GET('/api/admin/segments/{segmentId}', segment)).data!.project).toBeNull();
  });

  it('accepts a project that exists, and no project at all', async () => {
    const inDefault = await app.admin.POST('/api/admin/segments', { body: { name: unique('segment'), constraints: [], project: 'default' } });
    expect(inDefault.response.status, JSON.stringify(inDefault.error)).toBe(201);
    expect(inDefault.data!.project).toBe('default');
    const global = await app.admin.POST('/api/admin/segments', { body: { name: unique('segment'), constraints: [], project: null } });
    expect(global.response.status, JSON.stringify(global.error)).toBe(201);
    expect(global.data!.project).toBeNull();
  });
});
