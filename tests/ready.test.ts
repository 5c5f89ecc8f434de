import { beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

describe('readiness and liveness', () => {
  it('answers /ready 200 without a credential while the database answers', async () => {
    const response = await call(app, 'GET', '/ready', { token: null });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ health: 'GOOD' });
  });

  it('keeps /health a liveness check that needs no credential', async () => {
    const response = await call(app, 'GET', '/health', { token: null });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ health: 'GOOD' });
  });
});
