// A client token for several projects (`[]:<environment>.<secret>`) reads exactly those projects, on every
// client endpoint that scopes by project; the `project` query narrows it and never widens it.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';
import { adminJson } from './support/fixtures.js';

let app: TestApp;
let token: string;
const [projectA, projectB, projectC] = ['multi-a', 'multi-b', 'multi-c'];
const flagOf = (project: string) => `${project}.flag`;

beforeAll(async () => {
  app = await startTestApp();
  for (const project of [projectA, projectB, projectC]) {
    await adminJson(app, 'POST', '/api/admin/projects', { id: project, name: project });
    await adminJson(app, 'POST', `/api/admin/projects/${project}/features`, { name: flagOf(project) });
  }
  await adminJson(app, 'POST', '/api/admin/projects/default/features', { name: flagOf('default') });
  const created = await adminJson(app, 'POST', '/api/admin/api-tokens', { tokenName: 'two-projects', type: 'client', environment: 'development', projects: [projectA, projectB] });
  token = created.secret;
  expect(token).toMatch(/^\[\]:development\./);
});

async function namesFor(query = ''): Promise<string[]> {
  const response = await call(app, 'GET', `/api/client/features${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.json.features.map((f: { name: string }) => f.name).sort();
}

describe('a client token for projects [A, B]', () => {
  it('lists the flags of A and B, and of no other project', async () => {
    expect(await namesFor()).toEqual([flagOf(projectA), flagOf(projectB)]);
  });

  it('is narrowed by the project query to the asked projects it holds', async () => {
    expect(await namesFor(`?project=${projectA}`)).toEqual([flagOf(projectA)]);
    expect(await namesFor(`?project=${projectB}&project=${projectC}`)).toEqual([flagOf(projectB)]);
  });

  it('is never widened by the project query to a project it does not hold', async () => {
    expect(await namesFor(`?project=${projectC}`)).toEqual([]);
    expect(await namesFor('?project=default')).toEqual([]);
  });

  it('keeps its scope when another filter is sent', async () => {
    expect(await namesFor('?namePrefix=multi-')).toEqual([flagOf(projectA), flagOf(projectB)]);
  });

  it('reads a single flag of A or B, and gets 404 for a flag of another project', async () => {
    for (const project of [projectA, projectB]) {
      const response = await call(app, 'GET', `/api/client/features/${flagOf(project)}`, { token });
      expect(response.status, response.text).toBe(200);
      expect(response.json.name).toBe(flagOf(project));
    }
    for (const project of [projectC, 'default']) {
      expectError(await call(app, 'GET', `/api/client/features/${flagOf(project)}`, { token }), 404, 'NotFoundError');
    }
  });
});
