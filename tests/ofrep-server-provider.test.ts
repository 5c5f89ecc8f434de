// OpenFeature's Node server SDK with its OFREP provider (@openfeature/server-sdk, @openfeature/ofrep-provider), as an
// application would set them up, against the service: each flag type, targeting, a rollout's share, and the errors
// the SDK turns into the code's default.
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { ErrorCode, OpenFeature, type Client } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { newApiToken } from './support/fixtures.js';
import { flagWith } from './support/frontend.js';
import { uniqueNames } from './support/events.js';

const unique = uniqueNames();
const withPayload = (name: string, type: string, value: string) => [{ name, weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type, value } }];

let app: TestApp;
let client: Client;
let clientToken: string;

/** An OpenFeature client of its own domain, whose provider sends `headers`. */
async function clientWith(headers: Record<string, string>): Promise<Client> {
  const domain = unique('domain');
  await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl: app.url, headers }));
  return OpenFeature.getClient(domain);
}

beforeAll(async () => {
  app = await startTestApp();
  clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
  client = await clientWith({ Authorization: `Bearer ${clientToken}` });
});

afterAll(() => OpenFeature.close());

describe('the OFREP provider in Node', () => {
  it('reads a boolean flag: on for everyone, and off in its environment', async () => {
    const on = await flagWith(app, unique('on'), [{ name: 'default' }]);
    const off = await flagWith(app, unique('off'), [{ name: 'default' }], { on: false });
    expect(await client.getBooleanDetails(on, false)).toMatchObject({ value: true, reason: 'STATIC' });
    expect(await client.getBooleanDetails(off, true)).toMatchObject({ value: false, reason: 'DISABLED' });
  });

  it('reads a string, a number and an object from variant payloads', async () => {
    const text = await flagWith(app, unique('text'), [{ name: 'default' }], { variants: withPayload('blue', 'string', 'navy') });
    const number = await flagWith(app, unique('number'), [{ name: 'default' }], { variants: withPayload('ten', 'number', '10.5') });
    const object = await flagWith(app, unique('object'), [{ name: 'default' }], { variants: withPayload('layout', 'json', '{"columns":3,"dense":true}') });
    expect(await client.getStringDetails(text, 'grey')).toMatchObject({ value: 'navy', variant: 'blue' });
    expect(await client.getNumberValue(number, 0)).toBe(10.5);
    expect(await client.getObjectValue(object, {})).toEqual({ columns: 3, dense: true });
  });

  it('targets by targetingKey (the userId) and by a custom property', async () => {
    const byUser = await flagWith(app, unique('user'), [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-7'] }] }]);
    const byPlan = await flagWith(app, unique('plan'), [{ name: 'default', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }]);
    expect(await client.getBooleanDetails(byUser, false, { targetingKey: 'u-7' })).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(await client.getBooleanDetails(byUser, true, { targetingKey: 'u-8' })).toMatchObject({ value: false, reason: 'DEFAULT' });
    expect(await client.getBooleanValue(byPlan, false, { targetingKey: 'u-8', plan: 'pro' })).toBe(true);
    expect(await client.getBooleanValue(byPlan, true, { targetingKey: 'u-8', plan: 'free' })).toBe(false);
  });

  it("lets a 30% rollout's share of 1,000 keys in, within 3 points, with SPLIT for those in and DEFAULT for the rest", async () => {
    const flag = await flagWith(app, unique('split'), [{ name: 'flexibleRollout', parameters: { rollout: 30, stickiness: 'default', groupId: 'split' } }]);
    const keys = Array.from({ length: 1000 }, (_, i) => `key-${i}`);
    const answers = [];
    for (let from = 0; from < keys.length; from += 50) {
      answers.push(...(await Promise.all(keys.slice(from, from + 50).map((targetingKey) => client.getBooleanDetails(flag, false, { targetingKey })))));
    }
    const inside = answers.filter((answer) => answer.value);
    expect(Math.abs(inside.length / 1000 - 0.3)).toBeLessThanOrEqual(0.03);
    expect(new Set(inside.map((answer) => answer.reason))).toEqual(new Set(['SPLIT']));
    expect(new Set(answers.filter((answer) => !answer.value).map((answer) => answer.reason))).toEqual(new Set(['DEFAULT']));
  });

  it("gives the code's default with FLAG_NOT_FOUND for an unknown flag", async () => {
    expect(await client.getStringDetails(unique('missing'), 'fallback')).toMatchObject({ value: 'fallback', errorCode: ErrorCode.FLAG_NOT_FOUND });
  });

  it("gives the code's default with TYPE_MISMATCH when the flag's value is another type", async () => {
    const flag = await flagWith(app, unique('bool'), [{ name: 'default' }]);
    expect(await client.getNumberDetails(flag, 7)).toMatchObject({ value: 7, errorCode: ErrorCode.TYPE_MISMATCH });
  });

  it('sends the token as X-API-Key just as well as in Authorization', async () => {
    const flag = await flagWith(app, unique('api-key'), [{ name: 'default' }]);
    const byApiKey = await clientWith({ 'X-API-Key': clientToken });
    expect(await byApiKey.getBooleanDetails(flag, false)).toMatchObject({ value: true, reason: 'STATIC' });
  });

  it("falls back to the code's default once the token is revoked", async () => {
    const flag = await flagWith(app, unique('revoked'), [{ name: 'default' }]);
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    const revocable = await clientWith({ Authorization: `Bearer ${token}` });
    expect(await revocable.getBooleanValue(flag, false)).toBe(true);
    const { response } = await app.admin.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token } } });
    expect(response.status).toBe(200);
    const details = await revocable.getBooleanDetails(flag, false);
    expect(details).toMatchObject({ value: false, errorCode: ErrorCode.GENERAL });
  });
});
