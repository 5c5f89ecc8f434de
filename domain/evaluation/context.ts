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

/** Reads one context field as `contextValue` does. */
export type ContextReader = (context: EvaluationContext) => string | undefined;

/** The value found at the top level or in `properties`, as a string. */
const asText = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));

/**
 * The SDK's own fields read by name: a property load V8 resolves once per call site, where `contextValue`'s lookup by
 * a name it is given is resolved on every call. No prototype holds these names, so no own-property check is needed.
 */
const sdkFieldReaders: Readonly<Record<string, ContextReader>> = {
  userId: (context) => asText(context.userId ?? context.properties?.userId),
  sessionId: (context) => asText(context.sessionId ?? context.properties?.sessionId),
  remoteAddress: (context) => asText(context.remoteAddress ?? context.properties?.remoteAddress),
  appName: (context) => asText(context.appName ?? context.properties?.appName),
  environment: (context) => asText(context.environment ?? context.properties?.environment),
};

/** What reads `field` from a context, made once when flags compile. */
export function contextReader(field: string): ContextReader {
  return Object.hasOwn(sdkFieldReaders, field) ? sdkFieldReaders[field]! : (context) => contextValue(context, field);
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
