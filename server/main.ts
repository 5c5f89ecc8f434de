import { buildApp } from './app.js';
import { configFromEnv, DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS } from './config.js';
import { startIdleCollection } from './idle-collection.js';

async function main() {
  const config = configFromEnv();
  const { app, createdAdminToken, createdAdminPassword, log } = await buildApp(config);
  if (createdAdminToken) {
    // Shown once, on the console only, never through the logger.
    process.stdout.write(
      `\nNo admin credential existed, so one was created. Keep it safe; it is not shown again:\n\n  ${createdAdminToken}\n\n` +
        `Use it as the Authorization header of admin API calls.\n\n`,
    );
  }
  if (createdAdminPassword) {
    process.stdout.write(
      `No user existed, so the user "${config.defaultAdmin?.username ?? 'admin'}" was created with the Admin role. ` +
        `Its password is shown once:\n\n  ${createdAdminPassword}\n\nLog in with POST /auth/simple/login.\n\n`,
    );
  }
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
  const address = await app.listen({ port: config.port, host: config.host });
  log.info(`listening at ${address}`);
  startIdleCollection();
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
