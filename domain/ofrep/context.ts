// An OpenFeature evaluation context read as an Unleash one: `targetingKey` is the user id (over a `userId` key), the Unleash SDK fields keep
// their names, every other key is a custom property. Numbers and booleans count as their string form; an object or
// an array cannot be a context value, and null is absent.
import { enriched } from '../frontend/context.js';
import type { EvaluationContext } from '../evaluation/index.js';
import { OfrepError } from './errors.js';

const OWN_FIELDS: ReadonlySet<string> = new Set(['userId', 'sessionId', 'remoteAddress', 'currentTime', 'appName', 'environment']);

export function contextFromOfrep(sent: Record<string, unknown> | undefined, callerAddress: string): EvaluationContext {
  const context: EvaluationContext = {};
  const properties: Record<string, string> = {};
  let targetingKey: string | undefined;
  for (const key of Object.keys(sent ?? {})) {
    const value = sent![key];
    if (value === null || value === undefined) continue;
    if (typeof value === 'object') {
      throw new OfrepError(400, 'INVALID_CONTEXT', `context.${key}: a context value is a string, a number or a boolean, not ${Array.isArray(value) ? 'an array' : 'an object'}.`);
    }
    const text = String(value);
    if (text === '') continue;
    if (key === 'targetingKey') targetingKey = text;
    else if (OWN_FIELDS.has(key)) context[key] = text;
    else properties[key] = text;
  }
  if (targetingKey !== undefined) context.userId = targetingKey;
  return enriched(context, properties, callerAddress);
}
