// A client token for several projects (`[]:<environment>.<secret>`) reads exactly those projects, on every
// client endpoint that scopes by project; the `project` query narrows it and never widens it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../client/index.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken } from './support/fixtures.js';

type ClientFeaturesQuery = NonNullable<operations['getClientFeatures']['parameters']['query']>;

let app: TestApp;
let token: string;
let [projectA, projectB, projectC] = ['', '', ''];
const flagIn = (project: string) => `${project}.flag`;
const { newProject, createFlag } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  app = await startTestApp();
  [projectA, projectB, projectC] = [await newProject('multi'), await newProject('multi'), await newProject('multi')];
  for (const project of [projectA, projectB, projectC, 'default']) await createFlag(project, flagIn(project));
  token = await newApiToken(app, { type: 'client', environment: 'development', projects: [projectA, projectB] });
  expect(token).toMatch(/^\[\]:development\./);
});

const sdk = () => app.clientWith(token);

async function namesFor(query: ClientFeaturesQuery = {}): Promise<string[]> {
  const { data, error, response } = await sdk().GET('/api/client/features', { params: { query } });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!.features.map((f) => f.name).sort();
}

describe('a client token for projects [A, B]', () => {
  it('lists the flags of A and B, and of no other project', async () => {
    expect(await namesFor()).toEqual([flagIn(projectA), flagIn(projectB)]);
  });

  it('is narrowed by the project query to the asked projects it holds', async () => {
    expect(await namesFor({ project: [projectA] })).toEqual([flagIn(projectA)]);
    expect(await namesFor({ project: [projectB, projectC] })).toEqual([flagIn(projectB)]);
  });

  it('is never widened by the project query to a project it does not hold', async () => {
    expect(await namesFor({ project: [projectC] })).toEqual([]);
    expect(await namesFor({ project: ['default'] })).toEqual([]);
  });

  it('keeps its scope when another filter is sent', async () => {
    expect(await namesFor({ namePrefix: 'multi-' })).toEqual([flagIn(projectA), flagIn(projectB)]);
  });

  it('reads a single flag of A or B, and gets 404 for a flag of another project', async () => {
    for (const project of [projectA, projectB]) {
      const { data, error, response } = await sdk().GET('/api/client/features/{featureName}', { params: { path: { featureName: flagIn(project) } } });
      expect(response.status, JSON.stringify(error)).toBe(200);
      expect(data!.name).toBe(flagIn(project));
    }
    for (const project of [projectC, 'default']) {
      expectError(await sdk().GET('/api/client/features/{featureName}', { params: { path: { featureName: flagIn(project) } } }), 404, 'NotFoundError');
    }
  });
});
