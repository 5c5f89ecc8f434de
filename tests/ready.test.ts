import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

describe('readiness and liveness', () => {
  it('answers /ready 200 without a credential while the database answers', async () => {
    const { data, error, response } = await app.clientWith().GET('/ready');
    expect(response.status, JSON.stringify(error)).toBe(200);
    expect(data).toEqual({ health: 'GOOD' });
  });

  it('keeps /health a liveness check that needs no credential', async () => {
    const { data, response } = await app.clientWith().GET('/health');
    expect(response.status).toBe(200);
    expect(data).toEqual({ health: 'GOOD' });
  });
});
