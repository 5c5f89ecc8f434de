// The playground's context, entered as a form or as JSON: the one turns into the other both ways, JSON is checked
// before anything is sent, and either becomes the advanced playground's context (one value per field).
import type { components } from '../../../../generated/api.js';

type AdvancedContext = components['schemas']['AdvancedPlaygroundContext'];

/** A context as the SDKs hold it: standard fields at the top, custom ones in `properties`. */
export interface Context {
  appName?: string;
  userId?: string;
  properties?: Record<string, string>;
  [field: string]: string | Record<string, string> | undefined;
}

/** What the form holds: appName, userId, and the other fields as `name=value` lines. */
export interface ContextForm {
  appName: string;
  userId: string;
  more: string;
}

/** The SDKs' own fields besides appName and userId: at the top of a context; any other name is a custom one. */
const STANDARD = new Set(['sessionId', 'remoteAddress', 'environment', 'currentTime']);

/** `key=value` lines as fields; blank lines and lines without `=` are left out. */
const linesOf = (text: string): [string, string][] =>
  text
    .split('\n')
    .map((line) => line.split('='))
    .filter((parts) => parts.length >= 2 && parts[0]!.trim())
    .map(([key, ...value]) => [key!.trim(), value.join('=').trim()]);

/** The form's context: appName, userId when given, standard fields at the top and custom ones in `properties`. */
export function contextOfForm(form: ContextForm): Context {
  const context: Context = { appName: form.appName };
  if (form.userId) context.userId = form.userId;
  const properties: Record<string, string> = {};
  for (const [field, value] of linesOf(form.more)) {
    if (field === 'appName' || field === 'userId' || STANDARD.has(field)) context[field] = value;
    else properties[field] = value;
  }
  if (Object.keys(properties).length > 0) context.properties = properties;
  return context;
}

/** The context in the form's fields (every field besides appName and userId as a line). */
export function formOfContext(context: Context): ContextForm {
  const lines: string[] = [];
  for (const [field, value] of Object.entries(context)) {
    if (field === 'appName' || field === 'userId' || field === 'properties') continue;
    if (typeof value === 'string') lines.push(`${field}=${value}`);
  }
  for (const [field, value] of Object.entries(context.properties ?? {})) lines.push(`${field}=${value}`);
  return { appName: context.appName ?? '', userId: context.userId ?? '', more: lines.join('\n') };
}

export const jsonOfContext = (context: Context) => JSON.stringify(context, null, 2);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The context written as JSON, or what is wrong with it in plain words. Null fields are left out (the service reads
 * them as absent); every other value must be text.
 */
export function parseContext(text: string): { context: Context } | { problem: string } {
  if (!text.trim()) return { problem: 'Enter the context as a JSON object, e.g. {"appName": "web", "userId": "alice"}.' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `This is not valid JSON (${error instanceof Error ? error.message : String(error)}). Check the quotes, commas and braces.` };
  }
  if (!isObject(parsed)) return { problem: 'The context must be a JSON object, in braces: {"appName": "web", "userId": "alice"}.' };
  const context: Context = {};
  for (const [field, value] of Object.entries(parsed)) {
    if (value === null) continue;
    if (field === 'properties') {
      if (!isObject(value)) return { problem: '"properties" must be an object of custom fields, e.g. {"plan": "pro"}.' };
      const properties: Record<string, string> = {};
      for (const [property, inner] of Object.entries(value)) {
        if (inner === null) continue;
        if (typeof inner !== 'string') return { problem: `"${property}" in "properties" must be text in quotes, e.g. "${property}": "${String(inner)}".` };
        properties[property] = inner;
      }
      context.properties = properties;
    } else if (typeof value !== 'string') {
      return { problem: `"${field}" must be text in quotes, e.g. "${field}": "${typeof value === 'object' ? 'value' : String(value)}".` };
    } else {
      context[field] = value;
    }
  }
  return { context };
}

/**
 * The context as the advanced playground takes it: each value as a list of one, so that a comma in a value is part
 * of it (a plain string would be split into several contexts there).
 */
export function advancedContext(context: Context): AdvancedContext {
  const body: AdvancedContext = { appName: [context.appName ?? ''] };
  for (const [field, value] of Object.entries(context)) {
    if (field === 'appName' || value === undefined) continue;
    if (typeof value === 'string') body[field] = [value];
    else body.properties = Object.fromEntries(Object.entries(value).map(([property, inner]) => [property, [inner]]));
  }
  return body;
}
