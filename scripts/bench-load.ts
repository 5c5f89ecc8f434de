// Drives HTTP load at one URL and reports throughput and latency: wrk when installed, else autocannon.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface Load {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  tool: 'wrk' | 'autocannon';
  /** A query parameter with a different value on every request: `<prefix><n>`, n counting from 1. */
  varying?: { parameter: string; prefix: string };
  /** POST this JSON body instead of GET; each `{n}` in it is the request's number, counting from 1. */
  postBody?: string;
}

/** The URL's path and query, ready for the varying parameter's value. */
function varyingBase(load: Load): string {
  const url = new URL(load.url);
  const separator = url.search ? '&' : '?';
  return `${url.pathname}${url.search}${separator}${encodeURIComponent(load.varying!.parameter)}=${encodeURIComponent(load.varying!.prefix)}`;
}

/** A wrk script sending each request to the base path with the next number appended. */
const WRK_VARYING = `local counter = 0
local base = "/"
init = function(args) base = args[1] end
request = function()
  counter = counter + 1
  return wrk.format(nil, base .. counter)
end
`;

/** A wrk script POSTing the body with the next number in place of `{n}` (args: the text before it, after it). */
const WRK_POST = `local counter = 0
local before, after = "", ""
init = function(args) before = args[1]; after = args[2] or "" end
request = function()
  counter = counter + 1
  return wrk.format("POST", nil, nil, before .. counter .. after)
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
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;

function withWrk(load: Load): Measurement {
  const headerArgs = Object.entries(load.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const folder = load.varying || load.postBody !== undefined ? mkdtempSync(path.join(tmpdir(), 'wrk-')) : undefined;
  let scriptArgs: string[] = [];
  if (folder && load.postBody !== undefined) {
    writeFileSync(path.join(folder, 'post.lua'), WRK_POST);
    scriptArgs = ['-s', path.join(folder, 'post.lua'), load.url, '--', ...bodyAround(load.postBody)];
  } else if (folder) {
    writeFileSync(path.join(folder, 'varying.lua'), WRK_VARYING);
    scriptArgs = ['-s', path.join(folder, 'varying.lua'), load.url, '--', varyingBase(load)];
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
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50Ms: latency(50),
    p99Ms: latency(99),
    errors: nonOk + socket,
  };
}

async function withAutocannon(load: Load): Promise<Measurement> {
  let counter = 0;
  const base = load.varying ? varyingBase(load) : undefined;
  const [before, after] = bodyAround(load.postBody ?? '');
  const requests = base
    ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `${base}${++counter}` }) }]
    : load.postBody !== undefined
      ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, method: 'POST' as const, body: `${before}${++counter}${after}` }) }]
      : undefined;
  const result = await autocannon({ url: load.url, headers: load.headers, connections: load.connections, duration: load.seconds, ...(requests && { requests }) });
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
