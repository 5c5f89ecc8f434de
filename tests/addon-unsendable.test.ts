// Parameters sent as headers that could never be sent: refused when made; stored earlier, a final failed attempt
// (or sent without them) instead of an hour of retries.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { loggedAttempts, receivedCount, refusedCreate, refusedEverywhere, storedWebhook, webhookBody } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

type UpsertAddon = components['schemas']['UpsertAddon'];

let app: TestApp;
const unique = uniqueNames();
const { newFlag } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
});

const url = 'http://127.0.0.1:9/hook';

describe('parameters sent as headers', () => {
  const refusals: { what: string; parameters: Record<string, string>; named: string[] }[] = [
    { what: 'an authorization holding a line break', parameters: { authorization: 'Bearer a\r\nX-Injected: 1' }, named: ['parameters.authorization'] },
    { what: 'a contentType holding a line break', parameters: { contentType: 'application/json\nX-Injected: 1' }, named: ['parameters.contentType'] },
    { what: 'an authorization with a character no header can carry', parameters: { authorization: 'Bearer tok€n' }, named: ['parameters.authorization'] },
    ...['Content-Length', 'Host', 'transfer-encoding', 'X-Delivery-Id'].map((header) => ({
      what: `a custom header named ${header}`,
      parameters: { customHeaders: JSON.stringify({ 'X-Team': 'checkout', [header]: '1' }) },
      named: ['parameters.customHeaders', header],
    })),
  ];

  it.each(refusals)('refuses $what when made and when updated, naming it', async ({ parameters, named }) => {
    for (const message of await refusedEverywhere(app, webhookBody({ url, ...parameters }), { url })) for (const name of named) expect(message).toContain(name);
  });

  it("refuses a datadog apiKey holding a line break, never quoting it", async () => {
    const body: UpsertAddon = { provider: 'datadog', enabled: true, events: ['feature-created'], parameters: { apiKey: 'dd-secret\nX-Injected: 1' } };
    const message = await refusedCreate(app, body);
    expect(message).toContain('parameters.apiKey');
    expect(message).not.toContain('dd-secret');
  });

  it('stored earlier with a value that cannot be sent, makes one failed attempt, final, sending nothing', async () => {
    const receiver = await startReceiver();
    const id = await storedWebhook(app, `${receiver.url}/hook`, ['feature-created'], { authorization: 'Bearer a\nb' });
    await newFlag('unsendable');
    const [attempt] = await loggedAttempts(app, id, 1);
    expect(attempt).toMatchObject({ state: 'failed', details: { attempt: 1, willRetry: false } });
    expect(attempt!.stateDetails).toContain('authorization');
    expect(receiver.received).toHaveLength(0);
  });

  it('stored earlier with a custom header the sender sets itself, is sent without the custom headers, saying why', async () => {
    const receiver = await startReceiver();
    const id = await storedWebhook(app, `${receiver.url}/hook`, ['feature-created'], { customHeaders: '{"Transfer-Encoding": "chunked", "X-Team": "checkout"}' });
    await newFlag('reserved-header');
    const [request] = await receivedCount(receiver, 1);
    expect(request!.headers['x-team']).toBeUndefined();
    const [attempt] = await loggedAttempts(app, id, 1);
    expect(attempt).toMatchObject({ state: 'successWithErrors', details: { willRetry: false } });
    expect(attempt!.stateDetails).toContain('Transfer-Encoding');
  });
});
