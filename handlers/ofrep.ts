// OpenFeature's remote evaluation protocol (OFREP): one flag, or every flag the token may see, evaluated by the
// same engine and from the same compiled flags as the frontend API — no database read per request.
import { createHash } from 'node:crypto';
import type { ReplyOf } from '../generated/handlers.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Caller } from '../shared/caller.js';
import type { ClientFeatureCache } from '../domain/client-features/cache.js';
import { ifNoneMatchHolds } from '../domain/client-features/negotiate.js';
import { environmentOf, header, plainShape, type Headers } from '../domain/client-features/request-shape.js';
import { frontendFlags, type FrontendAnswers } from '../domain/frontend/compiled.js';
import { contextFromOfrep } from '../domain/ofrep/context.js';
import { OfrepError } from '../domain/ofrep/errors.js';
import { resolveFlag } from '../domain/ofrep/resolve.js';
import { countEvaluations } from '../domain/ofrep/usage.js';

/** The application an evaluation is counted for, when the context names none. */
const DEFAULT_APP_NAME = 'openfeature';

function flagsFor(caller: Caller, cache: ClientFeatureCache): Promise<FrontendAnswers> {
  const { shape, key } = plainShape(caller, false);
  return frontendFlags(cache).answers(shape, key);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer, or 304 when the caller holds the same one. */
function bulkReply(json: Buffer, headers: Headers): ReplyOf<'evaluateOfrepFlags'> {
  const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
  if (ifNoneMatchHolds(header(headers, 'if-none-match'), etag)) return { status: 304, body: undefined, headers: { etag } };
  return { status: 200, body: { preSerialized: json }, headers: { etag, 'cache-control': 'no-cache', 'content-type': JSON_TYPE } };
}

export const ofrepHandlers = {
  async evaluateOfrepFlag({ params, body }, { caller, clientFeatures, clientMetrics, clientIp }) {
    const context = contextFromOfrep(body?.context, clientIp);
    const flag = (await flagsFor(caller, clientFeatures)).compiled.flags.get(params.key);
    if (!flag) throw new OfrepError(404, 'FLAG_NOT_FOUND', `No flag named "${params.key}" exists where this token may read.`);
    const answer = resolveFlag(flag, context);
    countEvaluations(clientMetrics, environmentOf(caller), context.appName ?? DEFAULT_APP_NAME, clientIp, [answer]);
    return { status: 200, body: { preSerialized: Buffer.from(JSON.stringify(answer)) }, headers: { 'content-type': JSON_TYPE } };
  },

  async evaluateOfrepFlags({ body, headers }, { caller, clientFeatures, clientMetrics, clientIp }) {
    const context = contextFromOfrep(body?.context, clientIp);
    const compiled = (await flagsFor(caller, clientFeatures)).compiled;
    const flags = [];
    for (const flag of compiled.flags.values()) flags.push(resolveFlag(flag, context));
    countEvaluations(clientMetrics, environmentOf(caller), context.appName ?? DEFAULT_APP_NAME, clientIp, flags);
    return bulkReply(Buffer.from(JSON.stringify({ flags })), headers);
  },
} satisfies Partial<Handlers>;
