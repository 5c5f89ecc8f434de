// The context a frontend SDK evaluates flags for, read as Unleash's frontend API reads it: the SDK's own fields
// at the top, every other field a custom one (in `properties`); the caller's address when none is given, and a
// random session when none is given.
import { randomUUID } from 'node:crypto';
import { presentFields } from '../evaluation/context-input.js';
import type { EvaluationContext } from '../evaluation/index.js';

/** The fields of Unleash's SDK context that are not custom properties. */
const OWN_FIELDS: ReadonlySet<string> = new Set(['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime']);

/** A custom field in a query string: `properties[plan]=pro`. */
const PROPERTY_PARAMETER = /^properties\[(.+)\]$/;

/** A query value as one string: the first of a repeated parameter. */
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;

/** The context with its custom fields, and the caller's address and a random session where it names none. */
export function enriched(context: EvaluationContext, properties: Record<string, string>, callerAddress: string): EvaluationContext {
  context.properties = properties;
  context.remoteAddress ??= callerAddress;
  // randomUUID draws from a cached pool of random bytes: about 60 ns, against 2 µs for randomBytes(18).
  context.sessionId ??= randomUUID();
  return context;
}

/**
 * From a query string. `properties[x]` and any parameter that is not an SDK field are custom fields; a
 * `properties[x]` wins over a plain `x`. Empty values count as absent, as in Unleash.
 */
export function contextFromQuery(query: Record<string, unknown>, callerAddress: string): EvaluationContext {
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  const explicit: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    const value = textOf(query[key]);
    if (value === undefined || value === '') continue;
    const property = PROPERTY_PARAMETER.exec(key);
    if (property) explicit[property[1]!] = value;
    else if (OWN_FIELDS.has(key)) context[key] = value;
    else properties[key] = value;
  }
  return enriched(context, Object.assign(properties, explicit), callerAddress);
}

/**
 * From a JSON context (`POST /api/frontend`): fields other than the SDK's own are custom fields, as in `properties`;
 * null fields are absent.
 */
export function contextFromBody(sent: object, callerAddress: string): EvaluationContext {
  const fields = presentFields(sent);
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (key === 'properties' || typeof value !== 'string' || value === '') continue;
    if (OWN_FIELDS.has(key)) context[key] = value;
    else properties[key] = value;
  }
  return enriched(context, Object.assign(properties, fields.properties as Record<string, string> | undefined), callerAddress);
}
