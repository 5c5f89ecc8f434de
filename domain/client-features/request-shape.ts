// What a client API request asks for: its shape (environment, projects, tags, segment handling), and the ETag a poll holds.
import semver from 'semver';
import type { operations } from '../../generated/api.js';
import type { Caller } from '../../shared/caller.js';
import { shapeKey, type Shape } from './body.js';
import type { ServedSnapshots } from './cache.js';
import { ifNoneMatchHolds } from './negotiate.js';
import { ALL } from '../access/tokens.js';

/** The environment an all-environments credential reads. */
const DEFAULT_ENVIRONMENT = 'development';
/** From this client spec on, SDKs resolve segments themselves. */
const SEGMENTS_SPEC = '4.2.0';

export type Headers = Record<string, string | string[] | undefined>;

export const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const specAnswers = new Map<string, boolean>();

/** Whether the SDK wants segment constraints inlined (remembered per header value: SDKs send few). */
export function inlineSegments(headers: Headers): boolean {
  const value = header(headers, 'unleash-client-spec') ?? '';
  let inline = specAnswers.get(value);
  if (inline === undefined) {
    const spec = semver.coerce(value);
    inline = spec === null || semver.lt(spec, SEGMENTS_SPEC);
    if (specAnswers.size < 100) specAnswers.set(value, inline);
  }
  return inline;
}

export type ClientQuery = operations['getClientFeatures']['parameters']['query'];

export const unfiltered = (query: ClientQuery) => !query || (!query.tag?.length && !query['tag[]']?.length && !query.project?.length && query.namePrefix === undefined);

/** Shapes of unfiltered requests, per caller and segment handling: the common poll costs no work. */
const plainShapes = new WeakMap<Caller, Map<boolean, { shape: Shape; key: string }>>();

export function plainShape(caller: Caller, inline: boolean) {
  let byInline = plainShapes.get(caller);
  if (!byInline) plainShapes.set(caller, (byInline = new Map()));
  let found = byInline.get(inline);
  if (!found) {
    const shape = shapeOf(caller, undefined, inline);
    byInline.set(inline, (found = { shape, key: shapeKey(shape) }));
  }
  return found;
}

/** The environment a caller reads: its token's, or `development` for an all-environments credential. */
export const environmentOf = (caller: Caller) => (caller.environment === ALL ? DEFAULT_ENVIRONMENT : caller.environment);

/** The token's environment and projects, narrowed (never widened) by the query. */
export function shapeOf(caller: Caller, query: ClientQuery, inline: boolean): Shape {
  const tokenProjects = caller.projects.includes(ALL) ? null : caller.projects;
  const asked = list(query?.project);
  const projects = asked.length === 0 ? tokenProjects : tokenProjects ? asked.filter((p) => tokenProjects.includes(p)) : asked;
  const tags = [...list(query?.tag), ...list(query?.['tag[]'])];
  return {
    environment: environmentOf(caller),
    projects: projects ? [...new Set(projects)].sort() : null,
    tags: tags.length > 0 ? [...new Set(tags)].sort() : null,
    namePrefix: query?.namePrefix ?? null,
    inlineSegments: inline,
  };
}

/**
 * The ETag an unfiltered poll still holds, when its answer was already served at the current revision; undefined
 * otherwise. What the common 304 costs: no query, no shape, no body.
 */
export function heldEtag(caller: Caller, headers: Headers, clientFeatures: ServedSnapshots): string | undefined {
  const ifNoneMatch = header(headers, 'if-none-match');
  if (!ifNoneMatch) return undefined;
  const served = clientFeatures.peek(plainShape(caller, inlineSegments(headers)).key);
  return served && ifNoneMatchHolds(ifNoneMatch, served.etag) ? served.etag : undefined;
}

const listOf = (value: unknown): string[] | undefined =>
  value === undefined ? undefined : (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

/** The query as the contract types it; a value of the wrong shape becomes a filter that matches nothing. */
export function clientQuery(query: Record<string, unknown>) {
  const namePrefix = Array.isArray(query.namePrefix) ? query.namePrefix[0] : query.namePrefix;
  return {
    tag: listOf(query.tag),
    'tag[]': listOf(query['tag[]']),
    project: listOf(query.project),
    namePrefix: typeof namePrefix === 'string' ? namePrefix : undefined,
  };
}
