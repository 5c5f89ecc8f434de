// OpenFeature's remote evaluation protocol (OFREP): one flag, or every flag the token may see, evaluated by the
// same engine and from the same compiled flags as the frontend API — no database read per request.
import type { ReplyOf } from '../generated/handlers.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Caller } from '../shared/caller.js';
import type { ServedSnapshots } from '../domain/client-features/cache.js';
import { ifNoneMatchHolds } from '../domain/client-features/negotiate.js';
import { environmentOf, header, plainShape, type Headers } from '../domain/client-features/request-shape.js';
import { frontendFlags, type FrontendAnswers } from '../domain/frontend/compiled.js';
import type { JsonAnswer } from '../domain/frontend/fragments.js';
import { contextFromOfrep } from '../domain/ofrep/context.js';
import { OfrepError } from '../domain/ofrep/errors.js';
import { bulkEvaluation, ofrepAnswers } from '../domain/ofrep/answers.js';
import { countEvaluations } from '../domain/ofrep/usage.js';

/** The application an evaluation is counted for, when the context names none. */
const DEFAULT_APP_NAME = 'openfeature';

function flagsFor(caller: Caller, cache: ServedSnapshots): Promise<FrontendAnswers> {
  const { shape, key } = plainShape(caller, false);
  return frontendFlags(cache).answers(shape, key);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer, or 304 when the caller holds the same one. */
function bulkReply({ body, etag }: JsonAnswer, headers: Headers): ReplyOf<'evaluateOfrepFlags'> {
  if (ifNoneMatchHolds(header(headers, 'if-none-match'), etag)) return { status: 304, body: undefined, headers: { etag } };
  return { status: 200, body: { preSerialized: body }, headers: { etag, 'cache-control': 'no-cache', 'content-type': JSON_TYPE } };
}

export const ofrepHandlers = {
  async evaluateOfrepFlag({ params, body }, { caller, clientFeatures, clientMetrics, clientIp }) {
    const context = contextFromOfrep(body?.context, clientIp);
    const answers = await flagsFor(caller, clientFeatures);
    const flag = answers.compiled.flags.get(params.key);
    if (!flag) throw new OfrepError(404, 'FLAG_NOT_FOUND', `No flag named "${params.key}" exists where this token may read.`);
    const table = ofrepAnswers(answers);
    const piece = table.of(flag, context);
    countEvaluations(clientMetrics, environmentOf(caller), context.appName ?? DEFAULT_APP_NAME, clientIp, table.written, [piece]);
    return { status: 200, body: { preSerialized: table.pieces.bytesOf(piece) }, headers: { 'content-type': JSON_TYPE } };
  },

  async evaluateOfrepFlags({ body, headers }, { caller, clientFeatures, clientMetrics, clientIp }) {
    const context = contextFromOfrep(body?.context, clientIp);
    const answer = bulkEvaluation(await flagsFor(caller, clientFeatures), context);
    countEvaluations(clientMetrics, environmentOf(caller), context.appName ?? DEFAULT_APP_NAME, clientIp, answer.table, answer.counted);
    return bulkReply(answer, headers);
  },
} satisfies Partial<Handlers>;
