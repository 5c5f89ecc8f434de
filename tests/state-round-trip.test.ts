// The complete export is complete: imported into an empty instance, it rebuilds the same client answers, and
// exporting again gives the same document.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, ok } from './support/fixtures.js';

type StateV2 = components['schemas']['StateV2'];

let source: TestApp;
let target: TestApp;
let exported: StateV2;

const ENVIRONMENTS = ['development', 'production', 'staging'];

const completeExport = async (app: TestApp) => (await ok(app.admin.GET('/api/admin/state/export', { params: { query: { version: 2 } } }))) as StateV2;

/** Every flag-configuration feature the service has, on the source instance. */
async function buildSource(app: TestApp) {
  const { createFlag, addStrategy, turnOn, archiveFlag, createSegment, setVariants, markStale } = fixtures(() => app, uniqueNames());
  await ok(app.admin.POST('/api/admin/environments', { body: { name: 'staging', type: 'test', sortOrder: 5 } }));
  await ok(app.admin.POST('/api/admin/projects', { body: { id: 'payments', name: 'Payments', description: 'Money', defaultStickiness: 'userId', environments: ['production', 'staging'] } }));
  await ok(app.admin.POST('/api/admin/context', { body: { name: 'region', description: 'Where', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] } }));
  await ok(app.admin.POST('/api/admin/strategies', { body: { name: 'beta-users', title: 'Beta', description: 'Beta programme', parameters: [{ name: 'cohort', type: 'string', required: true }] } }));
  await ok(app.admin.POST('/api/admin/tag-types', { body: { name: 'team', description: 'Owning team', icon: 'people', color: '#00aa00' } }));
  const europe = await createSegment({ name: 'europe', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] });
  const rich = await createSegment({ name: 'rich', project: 'payments', constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: '1000' }] });

  await createFlag('default', 'checkout', { description: 'New checkout', type: 'experiment', impressionData: true, tags: ['team:web'] });
  await createFlag('default', 'checkout-parent', { type: 'release' });
  await ok(app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
    params: { path: { projectId: 'default', featureName: 'checkout' } },
    body: { feature: 'checkout-parent', variants: ['blue'] },
  }));
  await addStrategy('checkout', {
    name: 'flexibleRollout',
    title: 'Half of Europe',
    parameters: { rollout: 50, stickiness: 'userId', groupId: 'checkout' },
    constraints: [
      { contextName: 'region', operator: 'IN', values: ['eu'], caseInsensitive: true },
      { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.1.0', inverted: true },
      { contextName: 'email', operator: 'REGEX', value: '^(?i).*@example\\.com$' },
    ],
    variants: [{ name: 'small', weightType: 'variable', stickiness: 'userId' }, { name: 'big', weight: 300, weightType: 'fix' }],
    segments: [europe.id],
  });
  await addStrategy('checkout', { name: 'beta-users', parameters: { cohort: 'a' }, sortOrder: 0 });
  await addStrategy('checkout', { name: 'default', disabled: true });
  await turnOn('checkout');
  await turnOn('checkout-parent');
  await setVariants(
    'checkout',
    [
      { name: 'blue', payload: { type: 'json', value: '{"color":"blue"}' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
      { name: 'green', weight: 100, weightType: 'fix' },
    ],
    'production',
  );
  await addStrategy('checkout', { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } }, 'staging');
  await turnOn('checkout', 'staging');

  await createFlag('payments', 'payments.fast', { description: null });
  await addStrategy('payments.fast', {
    name: 'flexibleRollout',
    constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31T12:00:00Z' }],
    segments: [europe.id, rich.id],
  }, 'production', 'payments');
  await turnOn('payments.fast', 'production', 'payments');
  await createFlag('payments', 'payments.stale');
  await markStale('payments', ['payments.stale']);
  await createFlag('payments', 'payments.old');
  await archiveFlag('payments', 'payments.old');
}

/** The client API's answer per environment, in the plain and the segment-aware form. */
async function clientAnswers(app: TestApp) {
  const answers: Record<string, unknown> = {};
  for (const environment of ENVIRONMENTS) {
    const token = await newApiToken(app, { type: 'client', environment });
    for (const spec of ['', '4.3.0']) {
      const response = await app.clientWith(token).GET('/api/client/features', { headers: spec ? { 'unleash-client-spec': spec } : {} });
      expect(response.response.status).toBe(200);
      answers[`${environment} ${spec || 'inline'}`] = response.data;
    }
  }
  return answers;
}

beforeAll(async () => {
  source = await startTestApp();
  target = await startTestApp({ ownDatabase: true });
  await buildSource(source);
  exported = await completeExport(source);
  const document: components['schemas']['StateDocument'] = exported;
  await ok(target.admin.POST('/api/admin/state/import', { params: { query: { drop: 'true' } }, body: document }), 202);
});

describe('a complete export imported into an empty instance', () => {
  it('gives the same client answers in every environment, inline and segment-aware', async () => {
    const [expected, actual] = [await clientAnswers(source), await clientAnswers(target)];
    expect(Object.keys(expected)).toHaveLength(6);
    expect(actual).toEqual(expected);
  });

  it('exports again as the same document', async () => {
    expect(await completeExport(target)).toEqual(exported);
  });

  it('keeps the archived flag archived', async () => {
    const archive = await ok(target.admin.GET('/api/admin/archive/features/{projectId}', { params: { path: { projectId: 'payments' } } }));
    expect(archive.features.map((f) => f.name)).toEqual(['payments.old']);
  });

  it('gives the next segment made through the API an id of its own', async () => {
    const created = await ok(target.admin.POST('/api/admin/segments', { body: { name: 'after-import', constraints: [] } }));
    expect(exported.segments!.map((s) => s.id)).not.toContain(created.id);
  });
});
