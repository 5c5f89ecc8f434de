// Drives HTTP load at one URL and reports throughput and latency: wrk when installed, else autocannon.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface Load {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  tool: 'wrk' | 'autocannon';
  /** A query parameter with another value on each request: `<prefix><n>`, n the request's number (see `zipf`). */
  varying?: { parameter: string; prefix: string };
  /** POST this JSON body instead of GET; each `{n}` in it is the request's number (see `zipf`). */
  postBody?: string;
  /**
   * The number in `varying` or `postBody` drawn from a Zipf distribution (exponent 1) over 1…zipf, as real users'
   * requests come (a few users often, most rarely), instead of counting from 1.
   */
  zipf?: number;
  /** The server's process: its CPU time per request is measured too (Linux). */
  serverPid?: number | undefined;
}

/** The URL's path and query, ready for the varying parameter's value. */
function varyingBase(load: Load): string {
  const url = new URL(load.url);
  const separator = url.search ? '&' : '?';
  return `${url.pathname}${url.search}${separator}${encodeURIComponent(load.varying!.parameter)}=${encodeURIComponent(load.varying!.prefix)}`;
}

/** Lua for wrk: `numbers(n)` then `nextNumber()`: counting from 1, or with n > 0 drawn from Zipf over 1…n. */
const WRK_NUMBERS = `local counter, cdf, n = 0, nil, 0
local base, before, after = "/", "", ""
numbers = function(arg)
  n = tonumber(arg or "0")
  if n > 0 then
    cdf = {}
    local total = 0
    for i = 1, n do total = total + 1 / i; cdf[i] = total end
    for i = 1, n do cdf[i] = cdf[i] / total end
  end
end
nextNumber = function()
  counter = counter + 1
  if not cdf then return counter end
  local u, lo, hi = math.random(), 1, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return lo
end`;

/** A wrk script sending each request to the base path with the next number appended (args: base, n for Zipf). */
const WRK_VARYING = `${WRK_NUMBERS}
init = function(args) base = args[1]; numbers(args[2]) end
request = function()
  return wrk.format(nil, base .. nextNumber())
end
`;

/** Draws 1…n with probability proportional to 1/k (Zipf, exponent 1), by binary search of the cumulative weights. */
function zipfDraw(n: number, random = Math.random): () => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 1; k <= n; k++) cdf[k - 1] = total += 1 / k;
  return () => {
    const u = random() * total;
    let [lo, hi] = [0, n - 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/** A wrk script POSTing the body with the next number in place of `{n}` (args: the text before it, after it, n for Zipf). */
const WRK_POST = `${WRK_NUMBERS}
init = function(args) before = args[1]; after = args[2] or ""; numbers(args[3]) end
request = function()
  return wrk.format("POST", nil, nil, before .. nextNumber() .. after)
end
`;

/** The body's text around the first `{n}` (all of it before, when it has none: the counter then goes last). */
function bodyAround(body: string): [string, string] {
  const at = body.indexOf('{n}');
  return at < 0 ? [body, ''] : [body.slice(0, at), body.slice(at + 3)];
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors and answers other than 2xx/304. */
  errors: number;
  requests: number;
  /**
   * The server's CPU time (user and system) per request, in µs, when its pid was given: steadier than throughput on a
   * machine whose cores are shared with others, whose stolen time lowers throughput but not CPU time.
   */
  cpuMicrosPerRequest?: number;
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;

function withWrk(load: Load): Measurement {
  const headerArgs = Object.entries(load.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const folder = load.varying || load.postBody !== undefined ? mkdtempSync(path.join(tmpdir(), 'wrk-')) : undefined;
  let scriptArgs: string[] = [];
  if (folder && load.postBody !== undefined) {
    writeFileSync(path.join(folder, 'post.lua'), WRK_POST);
    scriptArgs = ['-s', path.join(folder, 'post.lua'), load.url, '--', ...bodyAround(load.postBody), String(load.zipf ?? 0)];
  } else if (folder) {
    writeFileSync(path.join(folder, 'varying.lua'), WRK_VARYING);
    scriptArgs = ['-s', path.join(folder, 'varying.lua'), load.url, '--', varyingBase(load), String(load.zipf ?? 0)];
  }
  const args = ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--latency', ...headerArgs, ...(scriptArgs.length ? scriptArgs : [load.url])];
  const result = spawnSync('wrk', args, { encoding: 'utf8' });
  if (folder) rmSync(folder, { recursive: true, force: true });
  const out = result.stdout;
  const latency = (p: number) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)[ \t]*$`, 'm').exec(out);
    return match ? toMs(match[1]!, match[2]!) : Number.NaN;
  };
  const nonOk = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socket = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN),
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50Ms: latency(50),
    p99Ms: latency(99),
    errors: nonOk + socket,
  };
}

async function withAutocannon(load: Load): Promise<Measurement> {
  let counter = 0;
  const base = load.varying ? varyingBase(load) : undefined;
  const next = load.zipf ? zipfDraw(load.zipf) : () => ++counter;
  const [before, after] = bodyAround(load.postBody ?? '');
  const requests = base
    ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `${base}${next()}` }) }]
    : load.postBody !== undefined
      ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, method: 'POST' as const, body: `${before}${next()}${after}` }) }]
      : undefined;
  const result = await autocannon({ url: load.url, headers: load.headers, connections: load.connections, duration: load.seconds, ...(requests && { requests }) });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx - (result.statusCodeStats?.['304']?.count ?? 0),
  };
}

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** A process's CPU time so far (user and system), in µs, from /proc. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

export async function measure(load: Load): Promise<Measurement> {
  const before = load.serverPid === undefined ? 0 : cpuMicros(load.serverPid);
  const measured = load.tool === 'wrk' ? withWrk(load) : await withAutocannon(load);
  if (load.serverPid !== undefined) measured.cpuMicrosPerRequest = (cpuMicros(load.serverPid) - before) / measured.requests;
  return measured;
}
