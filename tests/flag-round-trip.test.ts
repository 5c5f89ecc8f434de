import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

describe('a flag configured through the typed client reads back as written', () => {
  it('keeps project, strategy, constraints of every operator family, segment, variants, dependency and tag', async () => {
    const api = app.admin;
    const project = await api.POST('/api/admin/projects', { body: { id: 'checkout', name: 'Checkout', description: 'Payment flows' } });
    expect(project.response.status).toBe(201);
    expect(project.data!.environments).toEqual(['development', 'production']);

    const parent = await api.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: 'checkout' } },
      body: { name: 'checkout.parent' },
    });
    expect(parent.response.status).toBe(201);
    const created = await api.POST('/api/admin/projects/{projectId}/features', {
      params: { path: { projectId: 'checkout' } },
      body: { name: 'checkout.new-flow', type: 'experiment', description: 'New checkout', impressionData: true },
    });
    expect(created.response.status).toBe(201);

    const segment = await api.POST('/api/admin/segments', {
      body: { name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }] },
    });
    expect(segment.response.status).toBe(201);

    const constraints = [
      { contextName: 'appName', operator: 'IN' as const, values: ['web', 'ios'] },
      { contextName: 'email', operator: 'STR_ENDS_WITH' as const, values: ['@example.com'], caseInsensitive: true },
      { contextName: 'age', operator: 'NUM_GTE' as const, value: '18' },
      { contextName: 'currentTime', operator: 'DATE_AFTER' as const, value: '2026-01-01T00:00:00Z' },
      { contextName: 'appVersion', operator: 'SEMVER_LT' as const, value: '2.0.0', inverted: true },
      { contextName: 'userId', operator: 'REGEX' as const, value: '^u[0-9]+$' },
    ];
    const strategy = await api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.new-flow', environment: 'development' } },
      body: {
        name: 'flexibleRollout',
        title: 'Half of beta',
        parameters: { rollout: 50, stickiness: 'userId', groupId: 'checkout' },
        constraints,
        segments: [segment.data!.id],
        variants: [
          { name: 'blue', weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } },
          { name: 'red', weightType: 'fix', weight: 300, stickiness: 'userId' },
        ],
      },
    });
    expect(strategy.response.status).toBe(200);

    const variants = await api.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.new-flow', environment: 'development' } },
      body: [
        { name: 'control', weightType: 'variable' },
        { name: 'treatment', weightType: 'variable', payload: { type: 'string', value: 'new' }, overrides: [{ contextName: 'userId', values: ['u9'] }] },
      ],
    });
    expect(variants.response.status).toBe(200);

    const dependency = await api.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.new-flow' } },
      body: { feature: 'checkout.parent', enabled: true },
    });
    expect(dependency.response.status).toBe(200);

    const tag = await api.POST('/api/admin/features/{featureName}/tags', {
      params: { path: { featureName: 'checkout.new-flow' } },
      body: { type: 'simple', value: 'payments' },
    });
    expect(tag.response.status).toBe(201);

    const enabled = await api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.new-flow', environment: 'development' } },
    });
    expect(enabled.response.status).toBe(200);

    const { data: flag } = await api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.new-flow' } },
    });
    expect(flag).toMatchObject({
      name: 'checkout.new-flow',
      project: 'checkout',
      type: 'experiment',
      description: 'New checkout',
      impressionData: true,
      stale: false,
      archived: false,
      dependencies: [{ feature: 'checkout.parent', enabled: true }],
      tags: [{ type: 'simple', value: 'payments' }],
    });
    const development = flag!.environments.find((e) => e.name === 'development')!;
    const production = flag!.environments.find((e) => e.name === 'production')!;
    expect(development.enabled).toBe(true);
    expect(production.enabled).toBe(false);
    expect(production.strategies).toEqual([]);
    expect(development.strategies).toHaveLength(1);
    const [stored] = development.strategies;
    expect(stored).toMatchObject({
      id: strategy.data!.id,
      name: 'flexibleRollout',
      title: 'Half of beta',
      disabled: false,
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout' },
      segments: [segment.data!.id],
    });
    expect(stored!.constraints).toEqual(
      constraints.map((c) => ({
        contextName: c.contextName,
        operator: c.operator,
        values: 'values' in c ? c.values : [],
        ...('value' in c && { value: c.value }),
        caseInsensitive: 'caseInsensitive' in c ? c.caseInsensitive : false,
        inverted: 'inverted' in c ? c.inverted : false,
      })),
    );
    expect(stored!.variants).toEqual([
      { name: 'blue', weight: 700, weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"color":"blue"}' } },
      { name: 'red', weight: 300, weightType: 'fix', stickiness: 'userId' },
    ]);
    expect(development.variants).toEqual([
      { name: 'control', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'treatment', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'new' }, overrides: [{ contextName: 'userId', values: ['u9'] }] },
    ]);

    const { data: parentFlag } = await api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
      params: { path: { projectId: 'checkout', featureName: 'checkout.parent' } },
    });
    expect(parentFlag!.children).toEqual(['checkout.new-flow']);
  });
});
