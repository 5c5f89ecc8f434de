// The context a flag is evaluated for, and how constraints and stickiness read it: as Unleash's SDKs do.

/**
 * What a flag is evaluated for: Unleash's SDK context. Field names are the SDKs'; any other top-level field is
 * looked up by constraints too, before `properties`.
 */
export interface EvaluationContext {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  environment?: string;
  appName?: string;
  /** For the DATE_ operators: a Date, an RFC 3339 string or epoch milliseconds; now when absent. */
  currentTime?: Date | string | number;
  properties?: Record<string, string | number | boolean | null | undefined>;
  [field: string]: unknown;
}

/**
 * The value of a context field as a string: the top-level field first, then `properties`, as the SDKs'
 * `resolveContextValue` does. Only the context's own fields count, never inherited ones such as `toString`.
 */
export function contextValue(context: EvaluationContext, field: string): string | undefined {
  let value: unknown = Object.hasOwn(context, field) ? context[field] : undefined;
  if (value === undefined || value === null) {
    const properties = context.properties;
    value = properties && Object.hasOwn(properties, field) ? properties[field] : undefined;
  }
  return value === undefined || value === null ? undefined : String(value);
}

/** The moment DATE_ constraints compare with, in epoch milliseconds (NaN when `currentTime` does not parse). */
export function currentTimeOf(context: EvaluationContext): number {
  const time = context.currentTime;
  if (!time) return Date.now();
  return time instanceof Date ? time.getTime() : new Date(time).getTime();
}

/** A non-empty string field, as the SDKs read `userId`, `sessionId` and `remoteAddress` for stickiness. */
export function stringField(context: EvaluationContext, field: 'userId' | 'sessionId' | 'remoteAddress'): string | undefined {
  const value = context[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
