import type { AddressInfo } from 'node:net';
import { buildApp, type BuiltApp } from './app.js';
import { configFromEnv, DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS, type AppConfig } from '../kernel/config.js';
import { edgeConfigFromEnv } from '../kernel/edge-config.js';
import { startIdleCollection } from './idle-collection.js';
import { listeningOn } from './listening.js';
import { uiIsBuilt } from './ui.js';

/** The first start's credentials, shown once on the console only, never through the logger. */
function showCreated(url: string, adminToken: string | undefined, admin: { username: string; password: string | undefined }) {
  if (adminToken) {
    process.stdout.write(
      `\nNo admin credential existed, so one was created. Keep it safe; it is not shown again:\n\n  ${adminToken}\n\n` +
        `Use it as the Authorization header of admin API calls; the API explorer is at ${url}docs\n\n`,
    );
  }
  if (admin.password) {
    const signIn = uiIsBuilt()
      ? `Sign in to the admin UI at ${url} as "${admin.username}" with it.`
      : `Log in with POST ${url}auth/simple/login (the admin UI is not built: npm run build).`;
    process.stdout.write(
      `No user existed, so the user "${admin.username}" was created with the Admin role. ` +
        `Its password is shown once:\n\n  ${admin.password}\n\n${signIn}\n\n`,
    );
  }
}

async function main() {
  const edge = edgeConfigFromEnv();
  const config = edge ?? configFromEnv();
  // An edge node's upstream client (undici) is loaded only by an edge node.
  const built = edge ? await (await import('./edge.js')).buildEdge(edge) : await buildApp(configFromEnv());
  const { app, log } = built;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const drainMs = config.gracefulShutdownTimeoutMs ?? DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS;
    log.info({ signal, drainMs }, 'shutting down: no new connections, draining requests');
    // After the drain timeout, the connections still open are closed; the rest of the shutdown (metrics
    // flush, database) then gets as long again before the process exits regardless.
    setTimeout(() => {
      log.warn({ drainMs }, 'requests still in flight after the drain timeout; closing their connections');
      app.server.closeAllConnections();
      setTimeout(() => process.exit(0), drainMs).unref();
    }, drainMs).unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  const { bound, url } = listeningOn(app.addresses() as AddressInfo[]);
  if (!edge) {
    const { createdAdminToken, createdAdminPassword } = built as BuiltApp;
    showCreated(url, createdAdminToken, { username: (config as AppConfig).defaultAdmin?.username ?? 'admin', password: createdAdminPassword });
  }
  log.info(`${edge ? 'edge node ' : ''}listening at ${bound} (${url})`);
  startIdleCollection();
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
