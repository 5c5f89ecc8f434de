// No log line carries a secret: not a failed query's SQL or parameters, not a secret-named field at any depth.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../kernel/logging.js';
import type { AppConfig } from '../kernel/config.js';
import { startTestApp, type TestApp } from './support/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  // A test-only way to make the settings write fail: the database refuses this one client id.
  await app.db.execute(sql`alter table settings add constraint test_refused_client check (content->>'clientId' is distinct from 'refused-client')`);
});

describe('a failed query', () => {
  it('is logged without its SQL text, its parameters or the secret they hold', async () => {
    const secret = `oidc-secret-${Date.now()}-do-not-log`;
    const before = app.logs.length;
    const { error, response } = await app.admin.POST('/api/admin/auth/oidc/settings', {
      body: { enabled: true, clientId: 'refused-client', secret, discoverUrl: 'https://login.example.com' },
    });
    expect(response.status).toBe(500);
    expect(JSON.stringify(error)).not.toContain(secret);
    const lines = app.logs.slice(before);
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.err);
    expect(failure, lines.join('\n')).toBeDefined();
    // What helps to find the cause stays: the database's own message and its error code.
    expect(JSON.stringify(failure.err)).toContain('test_refused_client');
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain('refused-client');
      expect(line).not.toMatch(/insert into|"settings"\s*\(|params:/i);
    }
  });
});

describe('the logger', () => {
  function loggerLines() {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const log = createLogger({ logLevel: 'info', logStream } as unknown as AppConfig);
    return { log, lines };
  }

  it('redacts secret-named fields at any depth, in objects, arrays and errors', () => {
    const { log, lines } = loggerLines();
    const error = Object.assign(new Error('login failed'), { password: 'pw-error-field', details: { apiToken: 'tok-in-error' } });
    log.warn(
      {
        settings: { oidc: [{ clientSecret: 'cs-nested', clientId: 'visible-id' }] },
        headers: { Authorization: 'Bearer tok-header', Cookie: 'flag-session=sess-cookie', 'x-request-id': 'visible-request' },
        user: { password: 'pw-nested', token: 'tok-nested', secret: 'sec-nested' },
        cause: error,
      },
      'something happened',
    );
    log.error({ err: error }, 'failed');
    const text = lines.join('\n');
    for (const hidden of ['cs-nested', 'tok-header', 'sess-cookie', 'pw-nested', 'tok-nested', 'sec-nested', 'pw-error-field', 'tok-in-error']) {
      expect(text).not.toContain(hidden);
    }
    for (const shown of ['visible-id', 'visible-request', 'login failed', 'something happened']) expect(text).toContain(shown);
    expect(text).toContain('[redacted]');
  });

  it('drops the SQL and parameters of a query error anywhere in its causes', () => {
    const { log, lines } = loggerLines();
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(hidden@example.com) already exists.',
      query: 'insert into users (email) values ($1)',
      params: ['hidden@example.com'],
    });
    const queryError = Object.assign(new Error('Failed query: insert into users (email) values ($1)\nparams: hidden@example.com', { cause: driverError }), {
      query: 'insert into users (email) values ($1)',
      params: ['hidden@example.com'],
    });
    log.error({ err: queryError }, 'request failed');
    log.error({ err: driverError }, 'request failed');
    const text = lines.join('\n');
    expect(text).not.toContain('hidden@example.com');
    expect(text).not.toContain('values ($1)');
    expect(text).toContain('users_email_key');
    expect(text).toContain('23505');
  });
});
