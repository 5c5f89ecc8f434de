// An API token's last use is written at the metrics flush; one used since the last flush is written when the instance
// stops, so that a restart loses no use.
import { expect, it } from 'vitest';
import { call, startTestApp } from '../support/app.js';
import { adminJson } from '../support/fixtures.js';

it('writes the last use of a token at shutdown, before the next flush', async () => {
  const stopping = await startTestApp({ metricsFlushMs: 3_600_000 });
  const { id, secret } = await adminJson(stopping, 'POST', '/api/admin/api-tokens', { tokenName: 'used-before-stop', type: 'client', environment: 'development' });
  expect((await call(stopping, 'GET', '/api/client/features', { token: secret })).status).toBe(200);
  await stopping.close();

  const next = await startTestApp();
  const { tokens } = await adminJson(next, 'GET', '/api/admin/api-tokens');
  expect(tokens.find((token: { id: number }) => token.id === id).seenAt).not.toBeNull();
});
