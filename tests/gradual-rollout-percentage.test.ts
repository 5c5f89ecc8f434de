import { beforeAll, describe, expect, it } from 'vitest';
import { eventReader, uniqueNames } from './support/events.js';
import { call, expectError, startTestApp, type TestApp } from './support/app.js';

// A gradual rollout's `rollout` is the percentage of users it enables: a whole number from 0 to 100,
// sent as a string or a number, stored as a string. SDKs cannot evaluate anything else.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});

const unique = uniqueNames();
const { latestEventId, eventsSince } = eventReader(() => app);

async function strategiesPath() {
  const name = unique('rollout-flag');
  const created = await call(app, 'POST', '/api/admin/projects/default/features', { body: { name } });
  expect(created.status, created.text).toBe(201);
  return `/api/admin/projects/default/features/${name}/environments/development/strategies`;
}

const rolloutOf = (rollout: string | number) => ({ name: 'flexibleRollout', parameters: { rollout } });

describe('the rollout percentage of a gradual rollout', () => {
  it.each([['0'], ['100'], [55], ['07']])('accepts %j and stores it as a string', async (rollout) => {
    const path = await strategiesPath();
    const response = await call(app, 'POST', path, { body: rolloutOf(rollout) });
    expect(response.status, response.text).toBe(200);
    expect(response.json.parameters.rollout).toBe(String(rollout));
    expect((await call(app, 'GET', path)).json[0].parameters.rollout).toBe(String(rollout));
  });

  it.each([['101'], [101], ['-1'], ['50.5'], ['abc'], ['5x'], ['x5'], ['']])('refuses %j with 400 naming it, adding nothing', async (rollout) => {
    const path = await strategiesPath();
    const before = await latestEventId();
    const response = await call(app, 'POST', path, { body: rolloutOf(rollout) });
    expect(expectError(response, 400, 'ValidationError').message).toBe(`parameters.rollout: "${rollout}" is not a percentage from 0 to 100.`);
    expect((await call(app, 'GET', path)).json).toEqual([]);
    expect(await eventsSince(before)).toEqual([]);
  });

  it('refuses a rollout above 100 on PUT as well, keeping the strategy', async () => {
    const path = await strategiesPath();
    const created = await call(app, 'POST', path, { body: rolloutOf('30') });
    expect(created.status, created.text).toBe(200);
    expectError(await call(app, 'PUT', `${path}/${created.json.id}`, { body: rolloutOf('150') }), 400, 'ValidationError');
    expect((await call(app, 'GET', path)).json[0].parameters.rollout).toBe('30');
  });

  it('leaves the parameters of other strategies unchecked', async () => {
    const path = await strategiesPath();
    const response = await call(app, 'POST', path, { body: { name: 'default', parameters: { rollout: '150' } } });
    expect(response.status, response.text).toBe(200);
    expect(response.json.parameters).toEqual({ rollout: '150' });
  });
});
