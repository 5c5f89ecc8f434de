// The complete export is complete: imported into an empty instance, it rebuilds the same client answers, and
// exporting again gives the same document.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { adminJson, newApiToken } from './support/fixtures.js';

let source: TestApp;
let target: TestApp;
let exported: any;

const ENVIRONMENTS = ['development', 'production', 'staging'];

/** Every flag-configuration feature the service has, on the source instance. */
async function buildSource(app: TestApp) {
  const admin = (method: string, path: string, body?: unknown) => adminJson(app, method, path, body);
  await admin('POST', '/api/admin/environments', { name: 'staging', type: 'test', sortOrder: 5 });
  await admin('POST', '/api/admin/projects', { id: 'payments', name: 'Payments', description: 'Money', defaultStickiness: 'userId', environments: ['production', 'staging'] });
  await admin('POST', '/api/admin/context', { name: 'region', description: 'Where', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
  await admin('POST', '/api/admin/strategies', { name: 'beta-users', title: 'Beta', description: 'Beta programme', parameters: [{ name: 'cohort', type: 'string', required: true }] });
  await admin('POST', '/api/admin/tag-types', { name: 'team', description: 'Owning team', icon: 'people', color: '#00aa00' });
  const europe = await admin('POST', '/api/admin/segments', { name: 'europe', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] });
  const rich = await admin('POST', '/api/admin/segments', { name: 'rich', project: 'payments', constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: '1000' }] });

  await admin('POST', '/api/admin/projects/default/features', { name: 'checkout', description: 'New checkout', type: 'experiment', impressionData: true, tags: [{ type: 'team', value: 'web' }] });
  await admin('POST', '/api/admin/projects/default/features', { name: 'checkout-parent', type: 'release' });
  await admin('POST', '/api/admin/projects/default/features/checkout/dependencies', { feature: 'checkout-parent', variants: ['blue'] });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/strategies', {
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
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/strategies', { name: 'beta-users', parameters: { cohort: 'a' }, sortOrder: 0 });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/strategies', { name: 'default', disabled: true });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/development/on');
  await admin('POST', '/api/admin/projects/default/features/checkout-parent/environments/development/on');
  await admin('PUT', '/api/admin/projects/default/features/checkout/environments/production/variants', [
    { name: 'blue', payload: { type: 'json', value: '{"color":"blue"}' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
    { name: 'green', weight: 100, weightType: 'fix' },
  ]);
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/staging/strategies', { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } });
  await admin('POST', '/api/admin/projects/default/features/checkout/environments/staging/on');

  await admin('POST', '/api/admin/projects/payments/features', { name: 'payments.fast', description: null });
  await admin('POST', '/api/admin/projects/payments/features/payments.fast/environments/production/strategies', {
    name: 'flexibleRollout',
    constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-31T12:00:00Z' }],
    segments: [europe.id, rich.id],
  });
  await admin('POST', '/api/admin/projects/payments/features/payments.fast/environments/production/on');
  await admin('POST', '/api/admin/projects/payments/features', { name: 'payments.stale' });
  await admin('POST', '/api/admin/projects/payments/stale', { features: ['payments.stale'], stale: true });
  await admin('POST', '/api/admin/projects/payments/features', { name: 'payments.old' });
  await admin('DELETE', '/api/admin/projects/payments/features/payments.old');
}

/** The client API's answer per environment, in the plain and the segment-aware form. */
async function clientAnswers(app: TestApp) {
  const answers: Record<string, unknown> = {};
  for (const environment of ENVIRONMENTS) {
    const token = await newApiToken(app, { type: 'client', environment });
    for (const spec of ['', '4.3.0']) {
      const response = await call(app, 'GET', '/api/client/features', { token, headers: spec ? { 'unleash-client-spec': spec } : {} });
      expect(response.status).toBe(200);
      answers[`${environment} ${spec || 'inline'}`] = response.json;
    }
  }
  return answers;
}

beforeAll(async () => {
  source = await startTestApp();
  target = await startTestApp({ ownDatabase: true });
  await buildSource(source);
  exported = await adminJson(source, 'GET', '/api/admin/state/export?version=2');
  const imported = await call(target, 'POST', '/api/admin/state/import?drop=true', { body: exported });
  expect(imported.status, imported.text).toBe(202);
});

describe('a complete export imported into an empty instance', () => {
  it('gives the same client answers in every environment, inline and segment-aware', async () => {
    const [expected, actual] = [await clientAnswers(source), await clientAnswers(target)];
    expect(Object.keys(expected)).toHaveLength(6);
    expect(actual).toEqual(expected);
  });

  it('exports again as the same document', async () => {
    expect(await adminJson(target, 'GET', '/api/admin/state/export?version=2')).toEqual(exported);
  });

  it('keeps the archived flag archived', async () => {
    const archive = await adminJson(target, 'GET', '/api/admin/archive/features/payments');
    expect(archive.features.map((f: { name: string }) => f.name)).toEqual(['payments.old']);
  });

  it('gives the next segment made through the API an id of its own', async () => {
    const created = await adminJson(target, 'POST', '/api/admin/segments', { name: 'after-import', constraints: [] });
    expect(exported.segments.map((s: { id: number }) => s.id)).not.toContain(created.id);
  });
});
