// Drives HTTP load at one URL and reports throughput and latency: wrk when installed, else autocannon.
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

export interface Load {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  tool: 'wrk' | 'autocannon';
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and answers other than 2xx/304. */
  errors: number;
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;

function withWrk(load: Load): Measurement {
  const headerArgs = Object.entries(load.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const result = spawnSync('wrk', ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--latency', ...headerArgs, load.url], { encoding: 'utf8' });
  const out = result.stdout;
  const latency = (p: number) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(out);
    return match ? toMs(match[1]!, match[2]!) : Number.NaN;
  };
  const nonOk = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socket = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50Ms: latency(50),
    p99Ms: latency(99),
    errors: nonOk + socket,
  };
}

async function withAutocannon(load: Load): Promise<Measurement> {
  const result = await autocannon({ url: load.url, headers: load.headers, connections: load.connections, duration: load.seconds });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx - (result.statusCodeStats?.['304']?.count ?? 0),
  };
}

export async function measure(load: Load): Promise<Measurement> {
  return load.tool === 'wrk' ? withWrk(load) : withAutocannon(load);
}
