// Changing a segment that SDKs are served changes what they get: the old ETag is answered 200 with the new
// constraints, both where segments are listed (Unleash-Client-Spec >= 4.2.0) and where they are inlined.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../client/index.js';
import { clientFeaturesOn } from './support/client-api.js';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken } from './support/fixtures.js';

type ClientFeatures = components['schemas']['ClientFeatures'];
type Constraint = components['schemas']['Constraint'];

let app: TestApp;
let token: string;
let segmentId: number;
const flag = 'segmented.flag';
const segmentName = 'beta-users';
const ownConstraint: Constraint = { contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false };
const oldConstraint: Constraint = { contextName: 'userId', operator: 'IN', values: ['u1'], caseInsensitive: false, inverted: false };
const newConstraint: Constraint = { contextName: 'userId', operator: 'IN', values: ['u2', 'u3'], caseInsensitive: false, inverted: false };

const { createSegment, createFlag, addStrategy } = fixtures(() => app, uniqueNames());

beforeAll(async () => {
  app = await startTestApp();
  token = await newApiToken(app, { type: 'client', environment: 'development', projects: ['*'] });
  segmentId = (await createSegment({ name: segmentName, constraints: [oldConstraint] })).id;
  await createFlag('default', flag);
  await addStrategy(flag, { name: 'default', constraints: [ownConstraint], segments: [segmentId] });
});

const segmentAware = { 'unleash-client-spec': '4.2.0' };


/** The constraints SDKs get for the flag's strategy: the segment's inlined, or the listed segment's. */
function servedConstraints(body: ClientFeatures | undefined, inline: boolean) {
  const strategy = body!.features.find((f) => f.name === flag)!.strategies[0]!;
  if (inline) return strategy.constraints;
  expect(strategy.segments).toEqual([segmentId]);
  return body!.segments!.find((s) => s.id === segmentId)!.constraints;
}

describe('a changed segment', () => {
  it('is served with its new constraints, and the ETags served before it changed get 200', async () => {
    const listedBefore = await clientFeaturesOn(app, token, {}, segmentAware);
    const inlinedBefore = await clientFeaturesOn(app, token);
    expect(servedConstraints(listedBefore.data, false)).toEqual([oldConstraint]);
    expect(servedConstraints(inlinedBefore.data, true)).toEqual([ownConstraint, oldConstraint]);
    const listedEtag = String(listedBefore.response.headers.get('etag'));
    const inlinedEtag = String(inlinedBefore.response.headers.get('etag'));
    // Unchanged, both ETags still hold.
    expect((await clientFeaturesOn(app, token, {}, { ...segmentAware, 'if-none-match': listedEtag })).response.status).toBe(304);
    expect((await clientFeaturesOn(app, token, {}, { 'if-none-match': inlinedEtag })).response.status).toBe(304);

    const updated = await app.admin.PUT('/api/admin/segments/{segmentId}', {
      params: { path: { segmentId } },
      body: { name: segmentName, constraints: [newConstraint] },
    });
    expect(updated.response.status, JSON.stringify(updated.error)).toBe(204);

    const listedAfter = await clientFeaturesOn(app, token, {}, { ...segmentAware, 'if-none-match': listedEtag });
    expect(listedAfter.response.status).toBe(200);
    expect(listedAfter.response.headers.get('etag')).not.toBe(listedEtag);
    expect(servedConstraints(listedAfter.data, false)).toEqual([newConstraint]);

    const inlinedAfter = await clientFeaturesOn(app, token, {}, { 'if-none-match': inlinedEtag });
    expect(inlinedAfter.response.status).toBe(200);
    expect(inlinedAfter.response.headers.get('etag')).not.toBe(inlinedEtag);
    expect(servedConstraints(inlinedAfter.data, true)).toEqual([ownConstraint, newConstraint]);

    const single = await app.clientWith(token).GET('/api/client/features/{featureName}', { params: { path: { featureName: flag } } });
    expect(single.data!.strategies[0]!.constraints).toEqual([ownConstraint, newConstraint]);
  });
});
