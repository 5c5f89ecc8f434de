import type { Handlers } from '../domain/handler-context.js';
import { clientFeature, visible } from '../domain/client-features/body.js';
import { ServedSnapshots } from '../domain/client-features/cache.js';
import { contentCoding, ifNoneMatchHolds } from '../domain/client-features/negotiate.js';
import { deltaEvents, revisionOf } from '../domain/client-features/delta.js';
import { notFound } from '../kernel/errors.js';
import { environmentOf, header, inlineSegments, plainShape, shapeOf, unfiltered } from '../domain/client-features/request-shape.js';

export const clientHandlers = {
  async getClientFeatures({ query, headers }, { caller, clientFeatures }) {
    const inline = inlineSegments(headers);
    const { shape, key } = unfiltered(query) ? plainShape(caller, inline) : { shape: shapeOf(caller, query, inline), key: undefined };
    const served = (key !== undefined && clientFeatures.peek(key)) || (await clientFeatures.body(shape, key));
    if (ifNoneMatchHolds(header(headers, 'if-none-match'), served.etag)) return { status: 304, body: undefined, headers: { etag: served.etag } };
    const coding = contentCoding(header(headers, 'accept-encoding'), served.body.length);
    const encoding = coding === 'identity' ? undefined : coding;
    const body = encoding === 'br' ? ServedSnapshots.brotli(served) : encoding === 'gzip' ? ServedSnapshots.gzip(served) : served.body;
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
