import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { eventReader, uniqueNames } from './support/events.js';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { envPath, fixtures } from './support/fixtures.js';

// A gradual rollout's `rollout` is the percentage of users it enables: a whole number from 0 to 100,
// sent as a string or a number, stored as a string. SDKs cannot evaluate anything else.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { newFlag, strategiesOf } = fixtures(() => app, unique);
const { latestEventId, eventsSince } = eventReader(() => app);

type CreateFeatureStrategy = components['schemas']['CreateFeatureStrategy'];

const rolloutOf = (rollout: string | number) => ({ name: 'flexibleRollout', parameters: { rollout } });
const postStrategy = (featureName: string, body: CreateFeatureStrategy) =>
  app.admin.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', { params: { path: envPath(featureName) }, body });

describe('the rollout percentage of a gradual rollout', () => {
  it.each([['0'], ['100'], [55], ['07']])('accepts %j and stores it as a string', async (rollout) => {
    const flag = await newFlag('rollout-flag');
    const { data, error, response } = await postStrategy(flag, rolloutOf(rollout));
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.parameters.rollout).toBe(String(rollout));
    expect((await strategiesOf(flag))[0]!.parameters.rollout).toBe(String(rollout));
  });

  it.each([['101'], [101], ['-1'], ['50.5'], ['abc'], ['5x'], ['x5'], ['']])('refuses %j with 400 naming it, adding nothing', async (rollout) => {
    const flag = await newFlag('rollout-flag');
    const before = await latestEventId();
    const response = await postStrategy(flag, rolloutOf(rollout));
    expect(expectError(response, 400, 'ValidationError').message).toBe(`parameters.rollout: "${rollout}" is not a percentage from 0 to 100.`);
    expect(await strategiesOf(flag)).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a rollout above 100 on PUT as well, keeping the strategy', async () => {
    const flag = await newFlag('rollout-flag');
    const created = await postStrategy(flag, rolloutOf('30'));
    expect(created.response.status, JSON.stringify(created.error)).toBe(200);
    const replaced = await app.admin.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', {
      params: { path: { ...envPath(flag), strategyId: created.data!.id } },
      body: rolloutOf('150'),
    });
    expectError(replaced, 400, 'ValidationError');
    expect((await strategiesOf(flag))[0]!.parameters.rollout).toBe('30');
  });

  it('leaves the parameters of other strategies unchecked', async () => {
    const flag = await newFlag('rollout-flag');
    const { data, error, response } = await postStrategy(flag, { name: 'default', parameters: { rollout: '150' } });
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data!.parameters).toEqual({ rollout: '150' });
  });
});
