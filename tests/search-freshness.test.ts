// Searches are answered from recent reads: the same search asked again right after any change must show it.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as t from '../db/schema.js';
import { uniqueNames } from './support/events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { fixtures, ok } from './support/fixtures.js';
import { searchAs, searchProject } from './support/search.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newProject, createFlag, tagFlag, turnOn } = fixtures(() => app, unique);

describe('search: the same search asked again', () => {
  it('shows a change made through the API just before', async () => {
    const project = await newProject();
    const flag = await createFlag(project, unique('fresh'));
    const [before] = await searchProject(app.admin, project);
    expect(before!.tags).toEqual([]);

    await tagFlag(flag, 'fresh-tag');
    await turnOn(flag, 'development', project);
    const [after] = await searchProject(app.admin, project);
    expect(after!.tags.map((tag) => tag.value)).toEqual(['fresh-tag']);
    expect(after!.environments.find((e) => e.name === 'development')?.enabled).toBe(true);
  });

  it('shows a flag created just before', async () => {
    const project = await newProject();
    expect(await searchProject(app.admin, project)).toEqual([]);
    const flag = await createFlag(project, unique('fresh'));
    expect((await searchProject(app.admin, project)).map((f) => f.name)).toEqual([flag]);
  });

  it('shows a write made directly in the database just before', async () => {
    const project = await newProject();
    const flag = await createFlag(project, unique('fresh'), { description: 'before' });
    expect((await searchProject(app.admin, project))[0]!.description).toBe('before');
    await app.db.update(t.features).set({ description: 'after' }).where(eq(t.features.name, flag));
    expect((await searchProject(app.admin, project))[0]!.description).toBe('after');
  });

  it("shows a user's new favourite to that user only", async () => {
    const project = await newProject();
    const flag = await createFlag(project, unique('fresh'));
    const [chooser, other] = [clientAs(app, await userWithSession(app, 'Admin')), clientAs(app, await userWithSession(app, 'Admin'))];
    for (const client of [chooser, other]) expect((await searchProject(client, project))[0]!.favorite).toBe(false);

    const favourite = await chooser.POST('/api/admin/projects/{projectId}/features/{featureName}/favorites', { params: { path: { projectId: project, featureName: flag } } });
    expect(favourite.response.status).toBe(200);
    expect((await searchProject(chooser, project))[0]!.favorite).toBe(true);
    expect((await searchProject(other, project))[0]!.favorite).toBe(false);
  });

  it('shows a flag created while the same search was being answered many times over', async () => {
    const project = await newProject();
    const query = { project: `IS:${project}` };
    for (let round = 0; round < 5; round++) {
      const searching = Array.from({ length: 20 }, () => searchAs(app.admin, query));
      const flag = await createFlag(project, unique('racing'));
      const answered = await searchAs(app.admin, query);
      expect(answered.features.map((f) => f.name)).toContain(flag);
      expect(answered.total).toBe(round + 1);
      await Promise.all(searching);
    }
  });

  it('answers a search that differs only in its page on its own', async () => {
    const project = await newProject();
    const flags = [await createFlag(project, `${project}-a`), await createFlag(project, `${project}-b`)];
    const pages = await Promise.all(
      [0, 1].map(async (offset) => ok(app.admin.GET('/api/admin/search/features', { params: { query: { project: `IS:${project}`, sortBy: 'name', limit: '1', offset: String(offset) } } }), 200)),
    );
    expect(pages.map((page) => page.features.map((f) => f.name))).toEqual([[flags[0]], [flags[1]]]);
  });
});
