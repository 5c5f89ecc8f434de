// SDK streams under load: N server-sent event streams held open on one service (or split over two on one
// PostgreSQL), a flag toggled through the admin API, and how long after the admin answer each stream got the change.
import http from 'node:http';
import { rssMb, startBenchService, type BenchService } from './bench-service.js';

export interface StreamFigures {
  streams: number;
  instances: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  received: number;
  /** Growth of each instance's RSS with the streams open, summed. */
  rssGrowthMb: number;
}

interface OpenStream {
  /** Resolves with the time the next `unleash-updated` event arrived. */
  nextUpdate(): Promise<number>;
  close(): void;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function openStream(base: string, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/api/client/streaming`, { agent, headers: { authorization: token, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream: ${response.statusCode}`));
      let connected = false;
      let waiter: ((at: number) => void) | undefined;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = performance.now();
        if (!connected && chunk.includes('event: unleash-connected')) {
          connected = true;
          resolve({ nextUpdate: () => new Promise((done) => (waiter = done)), close: () => request.destroy() });
        }
        if (chunk.includes('event: unleash-updated') && waiter) {
          waiter(at);
          waiter = undefined;
        }
      });
    });
    request.on('error', reject);
  });
}

async function openMany(base: string, token: string, count: number): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  for (let start = 0; start < count; start += 200) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(200, count - start) }, () => openStream(base, token)))));
  }
  return streams;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

export async function benchStreams(port: number, count: number, instances: 1 | 2): Promise<StreamFigures> {
  const first = await startBenchService('flag_bench_streams', port);
  const services: BenchService[] = [first];
  try {
    if (instances === 2) {
      if (first.databaseKind !== 'PostgreSQL') throw new Error('two instances need DATABASE_URL');
      services.push(await startBenchService('flag_bench_streams', port + 1, { DATABASE_URL: first.databaseUrl! }));
    }
    await first.api('POST', '/api/admin/projects/default/features', { name: 'bench.streamed' });
    const { secret: token } = await first.api('POST', '/api/admin/api-tokens', { tokenName: 'streams', type: 'client', environment: 'development' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = await Promise.all(services.map((s) => rssMb(s.process.pid!)));
    const streams = (await Promise.all(services.map((s, i) => openMany(s.base, token, Math.floor(count / instances) + (i === 0 ? count % instances : 0))))).flat();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await Promise.all(services.map((s) => rssMb(s.process.pid!)));
    const arrivals = Promise.all(streams.map((s) => s.nextUpdate()));
    await first.api('POST', '/api/admin/projects/default/features/bench.streamed/environments/development/on');
    const answered = performance.now();
    const delays = (await arrivals).map((at) => at - answered).sort((a, b) => a - b);
    for (const stream of streams) stream.close();
    return {
      streams: streams.length,
      instances,
      p50Ms: percentile(delays, 50),
      p99Ms: percentile(delays, 99),
      maxMs: delays.at(-1) ?? Number.NaN,
      received: delays.length,
      rssGrowthMb: after.reduce((sum, mb, i) => sum + mb - before[i]!, 0),
    };
  } finally {
    for (const service of services.reverse()) await service.close();
  }
}
