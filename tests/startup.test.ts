import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind, filePostgresDatabase } from './support/app.js';
import { listeningOn } from '../app/listening.js';
import { listeningAt, SERVICE_PROCESS_TEST_TIMEOUT, startService, waitFor } from './support/service-process.js';

describe('the listening line', () => {
  it('names every address bound, IPv6 ones in brackets, and a URL to open: localhost for a wildcard address', () => {
    expect(listeningOn([{ address: '::', family: 'IPv6', port: 4242 }])).toEqual({ bound: '[::]:4242', url: 'http://localhost:4242/' });
    expect(
      listeningOn([
        { address: '::1', family: 'IPv6', port: 8080 },
        { address: '127.0.0.1', family: 'IPv4', port: 8080 },
      ]),
    ).toEqual({ bound: '[::1]:8080, 127.0.0.1:8080', url: 'http://[::1]:8080/' });
    expect(listeningOn([{ address: '10.1.2.3', family: 'IPv4', port: 80 }])).toEqual({ bound: '10.1.2.3:80', url: 'http://10.1.2.3:80/' });
  });
});

describe('npm start', { timeout: SERVICE_PROCESS_TEST_TIMEOUT }, () => {
  it('serves /health, prints an admin token once that lists simple, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flag-start-'));
    const database: Record<string, string> = databaseKind === 'postgres' ? { DATABASE_URL: await filePostgresDatabase() } : { DATA_DIR: dataDir };
    const service = startService({ PORT: '0', ...database });
    try {
      const base = await listeningAt(service);
      await waitFor('health', async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined));
      const token = /\*:\*\.[0-9a-f]{56}/.exec(service.output())?.[0];
      expect(token).toBeDefined();
      expect(service.output().split(token!).length - 1).toBe(1);
      const response = await fetch(`${base}/api/admin/tag-types`, { headers: { authorization: token! } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { tagTypes: { name: string }[] };
      expect(body.tagTypes.map((t) => t.name)).toContain('simple');

      // Bound to 127.0.0.1 (HOST): the line says so, and the first start's messages point at the UI and the explorer.
      const { port } = new URL(base);
      expect(service.output()).toContain(`listening at 127.0.0.1:${port} (http://127.0.0.1:${port}/)`);
      expect(service.output()).toContain(`the API explorer is at ${base}/docs`);
      const password = /Its password is shown once:\n\n {2}(\S+)\n\nSign in to the admin UI at (\S+) as "admin" with it\./.exec(service.output());
      expect(password, service.output()).not.toBeNull();
      expect(password![2]).toBe(`${base}/`);
      const ui = await fetch(password![2]!, { headers: { accept: 'text/html' } });
      expect(ui.status).toBe(200);
      expect(ui.headers.get('content-type')).toContain('text/html');
      const login = await fetch(`${base}/auth/simple/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: password![1] }),
      });
      expect(login.status).toBe(200);

      if (databaseKind === 'pglite') {
        const second = startService({ PORT: '0', DATA_DIR: dataDir });
        expect(await second.exited).not.toBe(0);
        expect(second.output()).toContain(`is in use by process ${service.process.pid}`);
      }

      service.process.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('does not print a new token when an admin token exists; bound to every address, it names localhost to open', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flag-start-'));
    const database: Record<string, string> = databaseKind === 'postgres' ? { DATABASE_URL: await filePostgresDatabase() } : { DATA_DIR: dataDir };
    const configured = `*:*.configured${'a'.repeat(20)}`;
    const service = startService({ PORT: '0', HOST: '0.0.0.0', INIT_ADMIN_API_TOKENS: configured, ...database });
    try {
      const base = await listeningAt(service);
      const { port } = new URL(base);
      expect(base).toBe(`http://localhost:${port}`);
      expect(service.output()).toContain(`listening at 0.0.0.0:${port} (http://localhost:${port}/)`);
      await waitFor('health', async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined));
      expect(service.output()).not.toMatch(/\*:\*\.[0-9a-f]{56}/);
      expect(service.output()).not.toContain(configured);
      const response = await fetch(`${base}/api/admin/tag-types`, { headers: { authorization: configured } });
      expect(response.status).toBe(200);
      service.process.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('exits with code 0 after GRACEFUL_SHUTDOWN_TIMEOUT on SIGTERM, closing a request that never finishes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flag-start-'));
    const database: Record<string, string> = databaseKind === 'postgres' ? { DATABASE_URL: await filePostgresDatabase() } : { DATA_DIR: dataDir };
    const service = startService({ PORT: '0', GRACEFUL_SHUTDOWN_TIMEOUT: '300', REQUEST_TIMEOUT_MS: '600000', ...database });
    try {
      const base = new URL(await listeningAt(service));
      await waitFor('health', async () => ((await fetch(`${base.origin}/health`).catch(() => undefined))?.ok ? true : undefined));
      // A body that never completes holds its connection: without a drain limit the process would wait for it.
      const held = net.connect(Number(base.port), base.hostname);
      held.on('error', () => {});
      await new Promise((resolve) => held.once('connect', resolve));
      held.write('POST /auth/simple/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user');
      const closedByServer = new Promise((resolve) => held.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 200));

      service.process.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await closedByServer;
      expect(service.output()).toContain('requests still in flight after the drain timeout');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
