// An edge node under load: the built program started with EDGE_UPSTREAM_URL in front of the bench's service and one
// client token in EDGE_TOKENS. The client API (full body, 304) through the edge beside the service's own answers to the
// same requests; one change made through the admin API timed to its arrival on SDK streams held on the edge (and on the
// service itself, the same way); the edge's RSS idle, as the load ends and after it settles, at the seeded flag count and
// at a large one imported into a fresh service. Run by scripts/bench.ts.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { measure, type Load, type Measurement } from './bench-load.js';
import { rssMb, serveOptions, startBenchService, startProcess, stop, type BenchService } from './bench-service.js';
import { documentOf } from './bench-state.js';
import { fanOut, type StreamFigures, type Target } from './bench-streams.js';

export const EDGE_SETTLE_MS = 10_000;
const READY_TIMEOUT_MS = 120_000;
const FAN_OUT_TIMEOUT_MS = 60_000;
/** The large case's runs are short: the figure wanted there is the edge's memory, not its throughput. */
const LARGE_SECONDS = 5;

export interface EdgeRss {
  /** After /ready answered 200, before any request. */
  idleMb: number;
  endMb: number;
  settledMb: number;
  /** VmHWM: the most the edge held at any time, start included. */
  peakMb: number;
}

export interface EdgeLoadFigures {
  flags: number;
  seconds: number;
  /** From the edge's start to its /ready answering 200. */
  readySeconds: number;
  edgeBodyBytes: number;
  serviceBodyBytes: number;
  edgeFull: Measurement;
  serviceFull: Measurement;
  edgeNotModified: Measurement;
  serviceNotModified: Measurement;
  rss: EdgeRss;
}

export interface EdgeFigures {
  seeded: EdgeLoadFigures;
  streams: { count: number; flag: string; edgeOff: StreamFigures; edgeOn: StreamFigures; serviceOff: StreamFigures; serviceOn: StreamFigures };
  large: EdgeLoadFigures & { importSeconds: number; documentMb: number };
}

interface Edge {
  base: string;
  process: ChildProcess;
  readySeconds: number;
}

/**
 * The edge's environment: the bench's own, but with every database variable blanked (the edge refuses to start beside
 * one; startBenchService's DATA_DIR and DATABASE_URL are the service's, and the bench may run with DATABASE_URL set)
 * and every EDGE_ variable replaced by its own.
 */
function edgeEnv(port: number, upstream: string, token: string): Record<string, string> {
  const blanked = Object.keys(process.env).filter((name) => name.startsWith('DATABASE_') || name.startsWith('EDGE_'));
  return {
    ...Object.fromEntries(blanked.map((name) => [name, ''])),
    DATABASE_URL: '',
    DATA_DIR: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    EDGE_UPSTREAM_URL: upstream,
    EDGE_TOKENS: token,
  };
}

/** Starts dist/app/main.js as an edge with `npm run serve`'s node options, and waits for its /ready to answer 200. */
async function startEdge(port: number, upstream: string, token: string): Promise<Edge> {
  const started = performance.now();
  const child = startProcess('dist/app/main.js', edgeEnv(port, upstream, token), await serveOptions());
  const base = `http://127.0.0.1:${port}`;
  try {
    while ((await fetch(`${base}/ready`).then((r) => r.status, () => 0)) !== 200) {
      if (child.exitCode !== null) throw new Error(`the edge exited (code ${child.exitCode}) before its /ready answered 200`);
      if (performance.now() - started > READY_TIMEOUT_MS) throw new Error(`the edge's /ready did not answer 200 within ${READY_TIMEOUT_MS / 1000} s`);
      await sleep(100);
    }
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { base, process: child, readySeconds: (performance.now() - started) / 1000 };
}

async function clientToken(api: BenchService['api'], name: string): Promise<string> {
  return ((await api('POST', '/api/admin/api-tokens', { tokenName: name, type: 'client', environment: 'development' })) as { secret: string }).secret;
}

/** The client API's full answer at `base` for the token, and that its ETag is answered with a 304. */
async function firstAnswer(base: string, token: string): Promise<{ bytes: number; etag: string }> {
  const url = `${base}/api/client/features`;
  const full = await fetch(url, { headers: { authorization: token } });
  if (full.status !== 200) throw new Error(`GET ${url}: ${full.status} ${await full.text()}`);
  const bytes = (await full.arrayBuffer()).byteLength;
  const etag = full.headers.get('etag');
  if (!etag) throw new Error(`GET ${url} answered no ETag`);
  const again = await fetch(url, { headers: { authorization: token, 'if-none-match': etag } });
  await again.arrayBuffer();
  if (again.status !== 304) throw new Error(`GET ${url} with If-None-Match ${etag}: ${again.status}, not 304`);
  return { bytes, etag };
}

/**
 * The same requests as the client part's (full body, then 304 with the answer's ETag), to the service and through the
 * edge, one after the other, the edge's last; then the edge's RSS as the load ends and once it has settled.
 */
async function clientLoad(service: BenchService, edge: Edge, token: string, flags: number, load: Pick<Load, 'seconds' | 'connections' | 'tool'>): Promise<EdgeLoadFigures> {
  const pid = edge.process.pid!;
  const idleMb = await rssMb(pid);
  const onEdge = await firstAnswer(edge.base, token);
  const onService = await firstAnswer(service.base, token);
  const run = (base: string, etag?: string) =>
    measure({ ...load, url: `${base}/api/client/features`, headers: { authorization: token, ...(etag && { 'if-none-match': etag }) } });
  const serviceFull = await run(service.base);
  const edgeFull = await run(edge.base);
  const serviceNotModified = await run(service.base, onService.etag);
  const edgeNotModified = await run(edge.base, onEdge.etag);
  const endMb = await rssMb(pid);
  await sleep(EDGE_SETTLE_MS);
  return {
    flags,
    seconds: load.seconds,
    readySeconds: edge.readySeconds,
    edgeBodyBytes: onEdge.bytes,
    serviceBodyBytes: onService.bytes,
    edgeFull,
    serviceFull,
    edgeNotModified,
    serviceNotModified,
    rss: { idleMb, endMb, settledMb: await rssMb(pid), peakMb: await rssMb(pid, 'VmHWM') },
  };
}

/** A fan-out that fails rather than waits for ever when some stream never gets the change. */
async function timedFanOut(target: Target, count: number): Promise<StreamFigures> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the change did not reach all ${count} streams at ${target.bases.join(', ')} within ${FAN_OUT_TIMEOUT_MS / 1000} s`)), FAN_OUT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([fanOut(target, count), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A fresh service holding `flags` imported flags (scripts/bench-state.ts's document), an edge in front of it, the same load for a short while. */
async function largeCase(port: number, flags: number, load: Pick<Load, 'seconds' | 'connections' | 'tool'>): Promise<EdgeFigures['large']> {
  const service = await startBenchService('flag_bench_edge', port);
  try {
    const document = JSON.stringify(documentOf(flags));
    const started = performance.now();
    const imported = await fetch(`${service.base}/api/admin/state/import`, {
      method: 'POST',
      headers: { authorization: service.adminToken, 'content-type': 'application/json' },
      body: document,
    });
    if (imported.status !== 202) throw new Error(`import: ${imported.status} ${await imported.text()}`);
    const importSeconds = (performance.now() - started) / 1000;
    const token = await clientToken(service.api, 'bench-edge-large');
    const edge = await startEdge(port + 1, service.base, token);
    try {
      const figures = await clientLoad(service, edge, token, flags, { ...load, seconds: Math.min(load.seconds, LARGE_SECONDS) });
      return { ...figures, importSeconds, documentMb: document.length / 1e6 };
    } finally {
      await stop(edge.process);
    }
  } finally {
    await service.close();
  }
}

export interface EdgeOptions {
  /** The seeded flags' count on `service`, and one of them, on in development, to toggle. */
  flags: number;
  flag: string;
  streams: number;
  largeFlags: number;
  load: Pick<Load, 'seconds' | 'connections' | 'tool'>;
}

/** Uses `port` for the edge in front of `service`, and the two after it for the large case's service and edge. */
export async function benchEdge(service: BenchService, port: number, options: EdgeOptions): Promise<EdgeFigures> {
  const token = await clientToken(service.api, 'bench-edge');
  const edge = await startEdge(port, service.base, token);
  let seeded: EdgeLoadFigures;
  let streams: EdgeFigures['streams'];
  try {
    seeded = await clientLoad(service, edge, token, options.flags, options.load);
    const toggle = (state: 'on' | 'off') => async () =>
      void (await service.api('POST', `/api/admin/projects/default/features/${options.flag}/environments/development/${state}`));
    const onEdge = { bases: [edge.base], pids: [edge.process.pid!], token };
    const onService = { bases: [service.base], pids: [service.process.pid!], token };
    streams = {
      count: options.streams,
      flag: options.flag,
      edgeOff: await timedFanOut({ ...onEdge, change: toggle('off') }, options.streams),
      edgeOn: await timedFanOut({ ...onEdge, change: toggle('on') }, options.streams),
      serviceOff: await timedFanOut({ ...onService, change: toggle('off') }, options.streams),
      serviceOn: await timedFanOut({ ...onService, change: toggle('on') }, options.streams),
    };
  } finally {
    await stop(edge.process);
  }
  return { seeded, streams, large: await largeCase(port + 1, options.largeFlags, options.load) };
}
