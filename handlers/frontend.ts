// The frontend API: flags evaluated by the service for browser and mobile SDKs, from the flags of the frontend
// token's environment and projects (domain/frontend/compiled.ts), and their metrics counted with the backend SDKs'.
import type { ReplyOf } from '../generated/handlers.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Caller } from '../shared/caller.js';
import type { ServedSnapshots } from '../domain/client-features/cache.js';
import { ifNoneMatchHolds } from '../domain/client-features/negotiate.js';
import { notFound } from '../kernel/errors.js';
import { frontendFlags, type FrontendAnswers } from '../domain/frontend/compiled.js';
import { contextFromBody, contextFromQuery } from '../domain/frontend/context.js';
import type { EvaluationContext } from '../domain/evaluation/index.js';
import { environmentOf, header, plainShape, type Headers } from '../domain/client-features/request-shape.js';

/** The flags of the token's environment and projects, compiled (its shape worked out once per caller). */
function answersFor(caller: Caller, cache: ServedSnapshots): Promise<FrontendAnswers> {
  const { shape, key } = plainShape(caller, false);
  return frontendFlags(cache).answers(shape, key);
}

/** The flags on for the context, or 304 when the caller holds the same answer. */
function toggles(answers: FrontendAnswers, context: EvaluationContext, headers: Headers): ReplyOf<'getFrontendFeatures'> {
  const { body, etag } = answers.answer(context);
  if (ifNoneMatchHolds(header(headers, 'if-none-match'), etag)) return { status: 304, body: undefined, headers: { etag } };
  return {
    status: 200,
    body: { preSerialized: body },
    headers: { etag, 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' },
  };
}

/** What the SDK reports, with its `Unleash-SDK` header standing in for a missing `sdkVersion`. */
const withSdkVersion = <T extends { sdkVersion?: string | null }>(body: T, headers: Headers): T => ({
  ...body,
  sdkVersion: body.sdkVersion ?? header(headers, 'unleash-sdk') ?? null,
});

export const frontendHandlers = {
  async getFrontendFeatures({ query, headers }, { caller, clientFeatures, clientIp }) {
    const context = contextFromQuery((query ?? {}) as Record<string, unknown>, clientIp);
    return toggles(await answersFor(caller, clientFeatures), context, headers);
  },

  async getFrontendFeaturesWithPost({ body, headers }, { caller, clientFeatures, clientIp }) {
    const context = contextFromBody(body.context ?? {}, clientIp);
    return toggles(await answersFor(caller, clientFeatures), context, headers);
  },

  async getFrontendFeature({ params, query }, { caller, clientFeatures, clientIp }) {
    const context = contextFromQuery((query ?? {}) as Record<string, unknown>, clientIp);
    const toggle = (await answersFor(caller, clientFeatures)).toggle(params.featureName, context);
    if (!toggle) throw notFound(`The flag "${params.featureName}" is not on for this context, or is not one this token may see.`);
    return { status: 200, body: toggle };
  },

  async reportFrontendMetrics({ body, headers }, { caller, clientMetrics, clientIp }) {
    clientMetrics.report(withSdkVersion(body, headers), environmentOf(caller), clientIp, 'frontend');
    return { status: 200, body: undefined };
  },

  async registerFrontendClient({ body, headers }, { caller, clientMetrics, clientIp }) {
    clientMetrics.register(withSdkVersion(body, headers), environmentOf(caller), clientIp);
    return { status: 200, body: undefined };
  },
} satisfies Partial<Handlers>;
