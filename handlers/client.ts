import semver from 'semver';
import type { operations } from '../generated/api.js';
import type { Handlers } from '../generated/handlers.js';
import type { Caller } from '../server/caller.js';
import { clientFeature, shapeKey, visible, type Shape } from '../server/client-features/body.js';
import { ClientFeatureCache } from '../server/client-features/cache.js';
import { contentCoding, ifNoneMatchHolds } from '../server/client-features/negotiate.js';
import { deltaEvents, revisionOf } from '../server/client-features/delta.js';
import { notFound } from '../server/errors.js';
import { ALL } from '../server/tokens.js';

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
function inlineSegments(headers: Headers): boolean {
  const value = header(headers, 'unleash-client-spec') ?? '';
  let inline = specAnswers.get(value);
  if (inline === undefined) {
    const spec = semver.coerce(value);
    inline = spec === null || semver.lt(spec, SEGMENTS_SPEC);
    if (specAnswers.size < 100) specAnswers.set(value, inline);
  }
  return inline;
}

type ClientQuery = operations['getClientFeatures']['parameters']['query'];

const unfiltered = (query: ClientQuery) => !query || (!query.tag?.length && !query['tag[]']?.length && !query.project?.length && query.namePrefix === undefined);

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
export function heldEtag(caller: Caller, headers: Headers, clientFeatures: ClientFeatureCache): string | undefined {
  const ifNoneMatch = header(headers, 'if-none-match');
  if (!ifNoneMatch) return undefined;
  const served = clientFeatures.peek(plainShape(caller, inlineSegments(headers)).key);
  return served && ifNoneMatchHolds(ifNoneMatch, served.etag) ? served.etag : undefined;
}

export const clientHandlers = {
  async getClientFeatures({ query, headers }, { caller, clientFeatures }) {
    const inline = inlineSegments(headers);
    const { shape, key } = unfiltered(query) ? plainShape(caller, inline) : { shape: shapeOf(caller, query, inline), key: undefined };
    const served = (key !== undefined && clientFeatures.peek(key)) || (await clientFeatures.body(shape, key));
    if (ifNoneMatchHolds(header(headers, 'if-none-match'), served.etag)) return { status: 304, body: undefined, headers: { etag: served.etag } };
    const coding = contentCoding(header(headers, 'accept-encoding'), served.body.length);
    const encoding = coding === 'identity' ? undefined : coding;
    const body = encoding === 'br' ? ClientFeatureCache.brotli(served) : encoding === 'gzip' ? ClientFeatureCache.gzip(served) : served.body;
    return {
      status: 200,
      body: { preSerialized: body },
      headers: {
        etag: served.etag,
        vary: 'Accept-Encoding',
        'content-type': 'application/json; charset=utf-8',
        ...(encoding && { 'content-encoding': encoding }),
      },
    };
  },

  async getClientDelta({ query, headers }, { caller, clientFeatures }) {
    const shape = shapeOf(caller, query, false);
    const snapshot = await clientFeatures.current();
    const etag: Record<string, string> = { etag: `"${snapshot.revision}"` };
    const events = deltaEvents(snapshot, clientFeatures.deltas, shape, revisionOf(header(headers, 'if-none-match')));
    if (events.length === 0) return { status: 304, body: undefined, headers: etag };
    return { status: 200, body: { preSerialized: Buffer.from(JSON.stringify({ events })) }, headers: { ...etag, 'content-type': 'application/json; charset=utf-8' } };
  },

  async getClientFeature({ params, headers }, { caller, clientFeatures }) {
    const shape = shapeOf(caller, undefined, inlineSegments(headers));
    const snapshot = await clientFeatures.current();
    const flag = snapshot.flags.get(params.featureName);
    if (!flag || !visible(flag, shape)) throw notFound(`No active flag named "${params.featureName}" is visible to this token.`);
    return { status: 200, body: clientFeature(flag, snapshot, shape.environment, shape.inlineSegments) };
  },

  async registerClient({ body }, { caller, clientMetrics, clientIp }) {
    clientMetrics.register(body, environmentOf(caller), clientIp);
    return { status: 202, body: undefined };
  },

  async reportClientMetrics({ body }, { caller, clientMetrics, clientIp }) {
    clientMetrics.report(body, environmentOf(caller), clientIp);
    return { status: 202, body: undefined };
  },
} satisfies Partial<Handlers>;
