// SDK streams under load: N server-sent event streams held open on one service (or split over two on one
// PostgreSQL), a flag toggled through the admin API, and how long after the admin answer each stream got the change.
// In the same run, the limit: bare Node writing one prepared chunk to as many sockets, measured the same way.
import { Worker } from 'node:worker_threads';
import { rssMb, startBenchService, startProcess, stop, waitFor, type BenchService } from './bench-service.js';

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

/** Receivers in worker threads, so that reading thousands of sockets is spread over the machine's cores. */
const RECEIVERS = 2;

interface Receiver {
  /** Once armed: the epoch millisecond at which each of its streams got its next `unleash-updated` event. */
  arm(): Promise<{ arrivals: Promise<number[]> }>;
  close(): void;
}

function startReceiver(base: string, token: string, count: number): Promise<Receiver> {
  const worker = new Worker(new URL('./bench-stream-receiver.mjs', import.meta.url), { workerData: { base, token, count } });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  return next<string>().then(() => ({
    arm: async () => {
      const armed = next<string>();
      worker.postMessage('arm');
      await armed;
      return { arrivals: next<{ arrivals: number[] }>().then((m) => m.arrivals) };
    },
    close: () => worker.postMessage('close'),
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const epochNow = () => performance.timeOrigin + performance.now();

export interface Target {
  bases: string[];
  pids: number[];
  token: string;
  /** Makes the change and resolves when its answer has arrived. */
  change(): Promise<void>;
}

/** Opens `count` streams spread over the target's servers, makes the change, and times its arrival on each. */
export async function fanOut(target: Target, count: number): Promise<StreamFigures> {
  const before = await Promise.all(target.pids.map((pid) => rssMb(pid)));
  const workers = Math.max(RECEIVERS, target.bases.length);
  const shares = Array.from({ length: workers }, (_, i) => Math.floor(count / workers) + (i === 0 ? count % workers : 0));
  const receivers = await Promise.all(shares.map((share, i) => startReceiver(target.bases[i % target.bases.length]!, target.token, share)));
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await Promise.all(target.pids.map((pid) => rssMb(pid)));
    const arrivals = Promise.all((await Promise.all(receivers.map((r) => r.arm()))).map((armed) => armed.arrivals));
    await target.change();
    const answered = epochNow();
    const delays = (await arrivals)
      .flat()
      .map((at) => at - answered)
      .sort((a, b) => a - b);
    return {
      streams: count,
      instances: target.bases.length,
      p50Ms: percentile(delays, 50),
      p99Ms: percentile(delays, 99),
      maxMs: delays.at(-1) ?? Number.NaN,
      received: delays.length,
      rssGrowthMb: after.reduce((sum, mb, i) => sum + mb - before[i]!, 0),
    };
  } finally {
    for (const receiver of receivers) receiver.close();
  }
}

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
    return await fanOut(
      {
        bases: services.map((s) => s.base),
        pids: services.map((s) => s.process.pid!),
        token,
        change: () => first.api('POST', '/api/admin/projects/default/features/bench.streamed/environments/development/on'),
      },
      count,
    );
  } finally {
    for (const service of services.reverse()) await service.close();
  }
}

/** The same fan-out from bare Node (scripts/bench-limit.ts): no database, no events, one chunk written to each socket. */
export async function benchStreamsLimit(port: number, count: number): Promise<StreamFigures> {
  const limit = startProcess('dist/scripts/bench-limit.js', { PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/health`);
    return await fanOut(
      {
        bases: [base],
        pids: [limit.pid!],
        token: 'limit',
        change: async () => void (await fetch(`${base}/streaming/change`, { method: 'POST' })).arrayBuffer(),
      },
      count,
    );
  } finally {
    await stop(limit);
  }
}
