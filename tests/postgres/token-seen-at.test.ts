// An API token's last use is written at the metrics flush; one used since the last flush is written when the instance
// stops, so that a restart loses no use.
import { expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';

it('writes the last use of a token at shutdown, before the next flush', async () => {
  const stopping = await startTestApp({ metricsFlushMs: 3_600_000 });
  const created = await stopping.admin.POST('/api/admin/api-tokens', { body: { tokenName: 'used-before-stop', type: 'client', environment: 'development' } });
  expect(created.response.status).toBe(201);
  const { id, secret } = created.data!;
  expect((await stopping.clientWith(secret).GET('/api/client/features')).response.status).toBe(200);
  await stopping.close();

  const next = await startTestApp();
  const { data } = await next.admin.GET('/api/admin/api-tokens');
  expect(data!.tokens.find((token) => token.id === id)!.seenAt).not.toBeNull();
});
