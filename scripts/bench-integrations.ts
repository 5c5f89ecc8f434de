// Integrations under load: how fast one webhook integration drains a full outbox, and whether a receiver that
// never answers shows in admin write latency. Run by scripts/bench.ts against its service.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Api = (method: string, route: string, body?: unknown) => Promise<any>;

export interface IntegrationFigures {
  deliveries: number;
  deliveriesPerSecond: number;
  writes: number;
  writeP50NoIntegration: number;
  writeP99NoIntegration: number;
  writeP50Hanging: number;
  writeP99Hanging: number;
}

/** A receiver on a free port that answers 200 at once, or never; counts what it got. */
async function receiver(mode: 'ok' | 'hang') {
  let received = 0;
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      if (mode === 'hang') hanging.push(response);
      else response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, received: () => received, close };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Admin writes (a flag's description, each one an event), `workers` at a time; answers p50 and p99 in ms. */
async function writeLatencies(api: Api, flags: string[], writes: number, workers = 4): Promise<[number, number]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < writes) {
        const i = next++;
        const started = performance.now();
        await api('PATCH', `/api/admin/projects/default/features/${flags[i % flags.length]}`, [{ op: 'replace', path: '/description', value: `write ${i}` }]);
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return [percentile(times, 50), percentile(times, 99)];
}

export async function benchIntegrations(api: Api, flags: string[], deliveries: number, writes: number): Promise<IntegrationFigures> {
  const events = ['feature-metadata-updated'];

  // Fill the outbox while the webhook points where nothing listens (its first delivery waits for a retry), then
  // point it at a live receiver: the update sends at once, and the drain is timed on its own.
  const live = await receiver('ok');
  const nowhere = new URL(live.url);
  nowhere.port = '9';
  const addon = await api('POST', '/api/addons', { provider: 'webhook', enabled: true, events, parameters: { url: nowhere.href } });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < deliveries) {
        const i = next++;
        await api('PATCH', `/api/admin/projects/default/features/${flags[i % flags.length]}`, [{ op: 'replace', path: '/description', value: `fill ${i}` }]);
      }
    }),
  );
  const started = performance.now();
  await api('PUT', `/api/admin/addons/${addon.id}`, { provider: 'webhook', enabled: true, events, parameters: { url: live.url } });
  while (live.received() < deliveries) await new Promise((resolve) => setTimeout(resolve, 5));
  const drainSeconds = (performance.now() - started) / 1000;
  await api('DELETE', `/api/admin/addons/${addon.id}`);
  await live.close();

  const [writeP50NoIntegration, writeP99NoIntegration] = await writeLatencies(api, flags, writes);
  const hanging = await receiver('hang');
  const hangingAddon = await api('POST', '/api/addons', { provider: 'webhook', enabled: true, events, parameters: { url: hanging.url } });
  const [writeP50Hanging, writeP99Hanging] = await writeLatencies(api, flags, writes);
  await api('DELETE', `/api/admin/addons/${hangingAddon.id}`);
  await hanging.close();

  return {
    deliveries,
    deliveriesPerSecond: deliveries / drainSeconds,
    writes,
    writeP50NoIntegration,
    writeP99NoIntegration,
    writeP50Hanging,
    writeP99Hanging,
  };
}
