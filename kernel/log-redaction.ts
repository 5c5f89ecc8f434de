import { pino } from 'pino';

/** Field names whose value is a credential, wherever they nest (`clientSecret`, `x-api-key`, `Authorization`, …). */
const SENSITIVE_KEY = /secret|passw(or)?d|token|authorization|cookie|api[-_]?key|private[-_]?key|credential/i;
/** What drivers attach to a failed query: its SQL text and its parameters (PGlite and drizzle: `query`, `params`; postgres.js: `parameters`, …). */
const QUERY_FIELDS = new Set(['query', 'params', 'parameters', 'args', 'types', 'queryOptions']);
const REDACTED = '[redacted]';
const QUERY_HIDDEN = 'Failed query (its SQL and parameters are not logged)';
/** Shorter parameter values ("1", "yes") are left alone: hiding them would garble the rest of the line. */
const SHORTEST_HIDDEN = 4;
const DEEPEST = 12;

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  value instanceof Error || (typeof value === 'object' && value !== null && typeof (value as Error).message === 'string' && typeof (value as Error).stack === 'string');

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Every string inside a parameter: the value itself and, for JSON (jsonb is sent as text), each string in it. */
function stringsOf(parameter: unknown, into: string[]): void {
  if (typeof parameter === 'string') {
    into.push(parameter);
    if (/^\s*[[{]/.test(parameter)) {
      try {
        stringsOf(JSON.parse(parameter), into);
      } catch {
        // Not JSON: the whole text is hidden already.
      }
    }
  } else if (Array.isArray(parameter)) for (const item of parameter) stringsOf(item, into);
  else if (parameter && typeof parameter === 'object') for (const item of Object.values(parameter)) stringsOf(item, into);
}

/** The texts a failed query puts in its error and its causes' messages: drizzle's header, the SQL, the parameter values. */
function queryTexts(error: ErrorLike): { headers: string[]; hidden: string[] } {
  const headers: string[] = [];
  const hidden: string[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const e = pending.pop() as ErrorLike | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const params = (e.params ?? e.parameters) as unknown;
    if (typeof e.query === 'string') {
      // drizzle's DrizzleQueryError: `Failed query: <sql>\nparams: <p1,p2,…>`.
      if (Array.isArray(params)) headers.push(`Failed query: ${e.query}\nparams: ${params}`);
      hidden.push(e.query);
    }
    stringsOf(params, hidden);
    pending.push(e.cause, ...(Array.isArray(e.errors) ? e.errors : []));
  }
  return { headers, hidden: [...new Set(hidden)].filter((text) => text.length >= SHORTEST_HIDDEN).sort((a, b) => b.length - a.length) };
}

function hideIn(text: string, texts: { headers: string[]; hidden: string[] }): string {
  let result = text;
  for (const header of texts.headers) result = result.split(header).join(QUERY_HIDDEN);
  for (const hidden of texts.hidden) result = result.split(hidden).join(REDACTED);
  return result;
}

/** Every string under `value` with the query's texts hidden. */
function scrub(value: unknown, texts: { headers: string[]; hidden: string[] }): unknown {
  if (typeof value === 'string') return hideIn(value, texts);
  if (Array.isArray(value)) return value.map((item) => scrub(item, texts));
  if (value && typeof value === 'object' && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrub(inner, texts)]));
  }
  return value;
}

/**
 * An error as a log field: type, message and stack (with its causes', as pino does), its own fields
 * redacted, and no trace of a failed query's SQL or parameters, which can hold any secret a request sent.
 */
function loggableError(error: ErrorLike, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const standard = pino.stdSerializers.err(error) as unknown as { type: string; message: string; stack: string };
  const out: Record<string, unknown> = { type: standard.type, message: standard.message, stack: standard.stack };
  for (const key in error) {
    if (key === 'cause' || key in out || QUERY_FIELDS.has(key)) continue;
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redacted(error[key], depth + 1, seen);
  }
  if (Array.isArray(error.errors)) out.aggregateErrors = error.errors.map((inner) => redacted(inner, depth + 1, seen));
  return scrub(out, queryTexts(error)) as Record<string, unknown>;
}

/**
 * A copy of a value about to be logged with every credential-named field replaced by `[redacted]` at any
 * depth, and every error made loggable (see loggableError). Only plain objects, arrays and errors are
 * walked; other values (dates, buffers) are left as they are.
 */
export function redacted(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth > DEEPEST) return '[too deep]';
  seen.add(value);
  try {
    if (isErrorLike(value)) return loggableError(value, depth, seen);
    if (Array.isArray(value)) return value.map((item) => redacted(item, depth + 1, seen));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redacted(inner, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}
