// A transaction's reads that run together (Promise.all over one transaction's connection) reach PostgreSQL one after
// the other without pg's queue, which pg 8 calls deprecated and pg 9 refuses: the client snapshot and a state export
// each read several tables in one transaction.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { inProject, newApiToken, ok } from '../support/fixtures.js';

let app: TestApp;
const warnings: string[] = [];
const collect = (warning: Error) => warnings.push(warning.message);

beforeAll(async () => {
  process.on('warning', collect);
  app = await startTestApp();
});

afterAll(() => {
  process.off('warning', collect);
});

it('reads several tables in one transaction without pg queueing queries on its connection', async () => {
  await ok(app.admin.POST('/api/admin/projects/{projectId}/features', { ...inProject('default'), body: { name: 'queued-reads' } }), 201);
  const clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
  const features = await fetch(`${app.url}/api/client/features`, { headers: { authorization: clientToken } });
  expect(features.status).toBe(200);
  expect(await ok(app.admin.GET('/api/admin/state/export'), 200)).toMatchObject({ features: [expect.objectContaining({ name: 'queued-reads' })] });
  // Warnings are emitted on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((message) => message.includes('pg@9'))).toEqual([]);
});
