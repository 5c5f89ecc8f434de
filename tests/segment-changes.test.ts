// Changing a segment that SDKs are served changes what they get: the old ETag is answered 200 with the new
// constraints, both where segments are listed (Unleash-Client-Spec >= 4.2.0) and where they are inlined.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';
import { adminJson } from './support/fixtures.js';

let app: TestApp;
let token: string;
let segmentId: number;
const flag = 'segmented.flag';
const segmentName = 'beta-users';
const ownConstraint = { contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false };
const oldConstraint = { contextName: 'userId', operator: 'IN', values: ['u1'], caseInsensitive: false, inverted: false };
const newConstraint = { contextName: 'userId', operator: 'IN', values: ['u2', 'u3'], caseInsensitive: false, inverted: false };

beforeAll(async () => {
  app = await startTestApp();
  const created = await adminJson(app, 'POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
  token = created.secret;
  segmentId = (await adminJson(app, 'POST', '/api/admin/segments', { name: segmentName, constraints: [oldConstraint] })).id;
  await adminJson(app, 'POST', '/api/admin/projects/default/features', { name: flag });
  await adminJson(app, 'POST', `/api/admin/projects/default/features/${flag}/environments/development/strategies`, {
    name: 'default',
    constraints: [ownConstraint],
    segments: [segmentId],
  });
});

const segmentAware = { 'unleash-client-spec': '4.2.0' };

const features = (headers: Record<string, string> = {}) => call(app, 'GET', '/api/client/features', { token, headers });

/** The constraints SDKs get for the flag's strategy: the segment's inlined, or the listed segment's. */
function servedConstraints(body: any, inline: boolean) {
  const strategy = body.features.find((f: { name: string }) => f.name === flag).strategies[0];
  if (inline) return strategy.constraints;
  expect(strategy.segments).toEqual([segmentId]);
  return body.segments.find((s: { id: number }) => s.id === segmentId).constraints;
}

describe('a changed segment', () => {
  it('is served with its new constraints, and the ETags served before it changed get 200', async () => {
    const listedBefore = await features(segmentAware);
    const inlinedBefore = await features();
    expect(servedConstraints(listedBefore.json, false)).toEqual([oldConstraint]);
    expect(servedConstraints(inlinedBefore.json, true)).toEqual([ownConstraint, oldConstraint]);
    const listedEtag = String(listedBefore.headers.etag);
    const inlinedEtag = String(inlinedBefore.headers.etag);
    // Unchanged, both ETags still hold.
    expect((await features({ ...segmentAware, 'if-none-match': listedEtag })).status).toBe(304);
    expect((await features({ 'if-none-match': inlinedEtag })).status).toBe(304);

    await adminJson(app, 'PUT', `/api/admin/segments/${segmentId}`, { name: segmentName, constraints: [newConstraint] });

    const listedAfter = await features({ ...segmentAware, 'if-none-match': listedEtag });
    expect(listedAfter.status).toBe(200);
    expect(listedAfter.headers.etag).not.toBe(listedEtag);
    expect(servedConstraints(listedAfter.json, false)).toEqual([newConstraint]);

    const inlinedAfter = await features({ 'if-none-match': inlinedEtag });
    expect(inlinedAfter.status).toBe(200);
    expect(inlinedAfter.headers.etag).not.toBe(inlinedEtag);
    expect(servedConstraints(inlinedAfter.json, true)).toEqual([ownConstraint, newConstraint]);

    const single = await call(app, 'GET', `/api/client/features/${flag}`, { token });
    expect(single.json.strategies[0].constraints).toEqual([ownConstraint, newConstraint]);
  });
});
