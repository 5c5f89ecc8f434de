// Two instances on one database share an integration's deliveries: each event is sent once, in order.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { inProject, ok, until } from '../support/fixtures.js';
import { createWebhook } from '../support/integrations.js';
import { startReceiver } from '../support/receiver.js';

let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await startTestApp();
  second = await startTestApp();
});

describe('two instances with one webhook', () => {
  it('200 flag changes made on both reach the receiver 200 times, none twice, in the order they were recorded', async () => {
    const receiver = await startReceiver();
    await createWebhook(first, receiver, ['feature-created']);
    const flags: string[] = [];
    for (let i = 0; i < 200; i++) {
      const name = `replicated-${i}`;
      await ok((i % 2 === 0 ? first : second).admin.POST('/api/admin/projects/{projectId}/features', { ...inProject('default'), body: { name } }));
      flags.push(name);
    }
    await until('200 deliveries', async () => receiver.received.length, (n) => n >= 200, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received).toHaveLength(200);
    expect(new Set(receiver.received.map((r) => r.headers['x-delivery-id'])).size).toBe(200);
    expect(receiver.received.map((r) => r.json.featureName)).toEqual(flags);
  });
});
