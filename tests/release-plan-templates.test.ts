import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures, ok } from './support/fixtures.js';
import { milestoneFor, releasePlans, threeSteps, type TemplateMilestone } from './support/release-plans.js';
import { clientAs, userWithSession } from './support/users.js';

let app: TestApp;
const unique = uniqueNames();
const { createSegment } = fixtures(() => app, unique);
const { createTemplate } = releasePlans(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

beforeAll(async () => {
  app = await startTestApp();
});

const templatePath = (templateId: string) => ({ params: { path: { templateId } } });
const getTemplate = (templateId: string) => app.admin.GET('/api/admin/release-plan-templates/{templateId}', templatePath(templateId));
const create = (milestones: TemplateMilestone[], name = unique('template')) => app.admin.POST('/api/admin/release-plan-templates', { body: { name, milestones } });
const withStrategy = (strategy: NonNullable<TemplateMilestone['strategies']>[number]): TemplateMilestone[] => [{ name: 'only', strategies: [strategy] }];

describe('creating a template', () => {
  it('answers 201 with its Location and its milestones in the order given, each strategy normalized', async () => {
    const { data, response } = await create([
      { name: 'half', transitionCondition: { intervalMinutes: 60 }, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50' } }] },
      { name: 'all', strategies: [{ name: 'default' }] },
    ]);
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/admin/release-plan-templates/${data!.id}`);
    expect(data!.discriminator).toBe('template');
    expect(data!.milestones.map((m) => [m.name, m.sortOrder, m.transitionCondition ?? null])).toEqual([['half', 0, { intervalMinutes: 60 }], ['all', 1, null]]);
    const [half] = data!.milestones[0]!.strategies;
    expect(half).toMatchObject({ name: 'flexibleRollout', strategyName: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default' }, milestoneId: data!.milestones[0]!.id });
    expect(await ok(getTemplate(data!.id), 200)).toEqual(data);
  });

  it('accepts strategyName for name, as Unleash sends it', async () => {
    const template = await createTemplate(withStrategy({ strategyName: 'default' }));
    expect(template.milestones[0]!.strategies[0]).toMatchObject({ name: 'default', strategyName: 'default' });
  });

  it('records release-plan-template-created with the template', async () => {
    const since = await latestEventId();
    const template = await createTemplate(threeSteps());
    const events = await eventsSince(since);
    expect(events.map((e) => e.type)).toEqual(['release-plan-template-created']);
    expect(events[0]!.data).toEqual(template);
  });

  it('refuses a name another template has (409 NameExistsError)', async () => {
    const name = unique('taken');
    await createTemplate(threeSteps(), name);
    expectError(await create(threeSteps(), name), 409, 'NameExistsError');
  });

  it('refuses a strategy no definition exists for (400), naming where it is', async () => {
    const body = expectError(await create(withStrategy({ name: 'no-such-strategy' })), 400, 'ValidationError');
    expect(body.message).toContain('milestones[0].strategies[0].name');
  });

  it('refuses a constraint whose value its operator cannot read (400)', async () => {
    const strategy = { name: 'default', constraints: [{ contextName: 'age', operator: 'NUM_GT' as const, value: 'old' }] };
    const body = expectError(await create(withStrategy(strategy)), 400, 'ValidationError');
    expect(body.message).toContain('milestones[0].strategies[0].constraints[0].value');
  });

  it('refuses a segment that does not exist (400)', async () => {
    const body = expectError(await create(withStrategy({ name: 'default', segments: [999_999] })), 400, 'ValidationError');
    expect(body.message).toContain('999999');
  });

  it('keeps the segments of an existing one', async () => {
    const segment = await createSegment({ name: unique('segment'), constraints: [] });
    const template = await createTemplate(withStrategy({ name: 'default', segments: [segment.id] }));
    expect(template.milestones[0]!.strategies[0]!.segments).toEqual([segment.id]);
  });

  it('refuses a template without milestones (400)', async () => {
    expectError(await create([]), 400, 'ValidationError');
  });

  it('refuses a milestone strategy without a name (400)', async () => {
    expectError(await create(withStrategy({ parameters: {} })), 400, 'ValidationError');
  });
});

describe('reading templates', () => {
  it('lists every template by name', async () => {
    const names = [unique('zz'), unique('aa')];
    for (const name of names) await createTemplate(threeSteps(), name);
    const listed = (await ok(app.admin.GET('/api/admin/release-plan-templates'), 200)).map((t) => t.name);
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(names));
  });

  it('answers 404 for an unknown template', async () => {
    expectError(await getTemplate('01JB9GGTGQYEQ9D40R17T3YVW2'), 404, 'NotFoundError');
  });
});

describe('updating a template', () => {
  const update = (templateId: string, name: string, milestones: TemplateMilestone[]) =>
    app.admin.PUT('/api/admin/release-plan-templates/{templateId}', { ...templatePath(templateId), body: { name, description: 'changed', milestones } });

  it('replaces its name, description and milestones, and records the template before and after', async () => {
    const before = await createTemplate(threeSteps());
    const since = await latestEventId();
    const name = unique('renamed');
    const after = await ok(update(before.id, name, [milestoneFor('only', ['x'])]), 200);
    expect(after).toMatchObject({ id: before.id, name, description: 'changed' });
    expect(after.milestones.map((m) => m.name)).toEqual(['only']);
    expect(await ok(getTemplate(before.id), 200)).toEqual(after);
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'release-plan-template-updated', data: after, preData: before });
  });

  it('records nothing when nothing changes', async () => {
    const template = await createTemplate(threeSteps());
    const since = await latestEventId();
    await ok(app.admin.PUT('/api/admin/release-plan-templates/{templateId}', { ...templatePath(template.id), body: { name: template.name, milestones: threeSteps() } }), 200);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('refuses the name of another template (409 NameExistsError)', async () => {
    const other = await createTemplate(threeSteps());
    const template = await createTemplate(threeSteps());
    expectError(await update(template.id, other.name, threeSteps()), 409, 'NameExistsError');
  });

  it('answers 404 for an unknown template', async () => {
    expectError(await update('01JB9GGTGQYEQ9D40R17T3YVW2', unique('nowhere'), threeSteps()), 404, 'NotFoundError');
  });

  it('refuses an unknown strategy (400) and leaves the template as it was', async () => {
    const template = await createTemplate(threeSteps());
    expectError(await update(template.id, template.name, withStrategy({ name: 'no-such-strategy' })), 400, 'ValidationError');
    expect(await ok(getTemplate(template.id), 200)).toEqual(template);
  });
});

describe('deleting a template', () => {
  const remove = (templateId: string, client = app.admin) => client.DELETE('/api/admin/release-plan-templates/{templateId}', templatePath(templateId));

  it('answers 204, then 404 to a read, and records the template it was', async () => {
    const template = await createTemplate(threeSteps());
    const since = await latestEventId();
    expect((await remove(template.id)).response.status).toBe(204);
    expectError(await getTemplate(template.id), 404, 'NotFoundError');
    const [event] = await eventsSince(since);
    expect(event).toMatchObject({ type: 'release-plan-template-deleted', preData: template });
  });

  it('answers 404 for an unknown template', async () => {
    expectError(await remove('01JB9GGTGQYEQ9D40R17T3YVW2'), 404, 'NotFoundError');
  });
});

describe('permissions', () => {
  it('a Viewer may read templates but not create one (403)', async () => {
    const viewer = clientAs(app, await userWithSession(app, 'Viewer', 'viewer'));
    expect((await viewer.GET('/api/admin/release-plan-templates')).response.status).toBe(200);
    expectError(await viewer.POST('/api/admin/release-plan-templates', { body: { name: unique('viewer'), milestones: threeSteps() } }), 403, 'NoAccessError');
  });

  it('an Editor may create and update a template but not delete one (403)', async () => {
    const editor = clientAs(app, await userWithSession(app, 'Editor', 'editor'));
    const template = await createTemplate(threeSteps(), unique('by-editor'), editor);
    const updated = await editor.PUT('/api/admin/release-plan-templates/{templateId}', { ...templatePath(template.id), body: { name: template.name, milestones: [milestoneFor('one', ['a'])] } });
    expect(updated.response.status).toBe(200);
    expectError(await editor.DELETE('/api/admin/release-plan-templates/{templateId}', templatePath(template.id)), 403, 'NoAccessError');
  });
});
