// The frontend API under load: GET /api/frontend with a frontend token and a different userId on every request (so
// every answer is evaluated, none served from a cache), beside a bare fastify answering a Buffer of the same size.
// Also the evaluation engine alone (scripts/bench-evaluation.ts), for what evaluation costs of each request.
import { measure, type Load, type Measurement } from './bench-load.js';
import { measureEvaluation, type EvaluationFigures } from './bench-evaluation.js';
import { startProcess, stop, waitFor, type Api } from './bench-service.js';

export interface FrontendFigures {
  /** Flags on for the first user, of those the token sees. */
  toggles: number;
  bodyBytes: number;
  /** A different userId on every request. */
  frontend: Measurement;
  limit: Measurement;
  /** userIds drawn from Zipf over ZIPF_USERS: some users ask again. */
  zipf: Measurement;
  zipfLimit: Measurement;
  evaluation: EvaluationFigures;
}

/** The seeded flags' constraint lets appName `web` in; each request is another user. */
const QUERY = 'appName=web';

/** The realistic mix draws users from this many. */
export const ZIPF_USERS = 100_000;

export async function benchFrontend(api: Api, base: string, servicePid: number | undefined, limitPort: number, load: Pick<Load, 'seconds' | 'connections' | 'tool'>): Promise<FrontendFigures> {
  const { secret } = (await api('POST', '/api/admin/api-tokens', { tokenName: 'bench-frontend', type: 'frontend', environment: 'development' })) as { secret: string };
  const headers = { authorization: secret };
  const first = await fetch(`${base}/api/frontend?${QUERY}&userId=user-0`, { headers });
  if (first.status !== 200) throw new Error(`GET /api/frontend: ${first.status} ${await first.text()}`);
  const body = Buffer.from(await first.arrayBuffer());
  const toggles = (JSON.parse(body.toString()) as { toggles: unknown[] }).toggles.length;

  const limit = startProcess('dist/scripts/bench-limit.js', { PORT: String(limitPort), BODY_BYTES: String(body.length) });
  try {
    await waitFor(`http://127.0.0.1:${limitPort}/health`);
    const varying = { parameter: 'userId', prefix: 'user-' };
    const [service, bare] = [
      { ...load, url: `${base}/api/frontend?${QUERY}`, headers, varying, serverPid: servicePid },
      { ...load, url: `http://127.0.0.1:${limitPort}/body?${QUERY}`, headers, varying, serverPid: limit.pid },
    ];
    return {
      toggles,
      bodyBytes: body.length,
      frontend: await measure(service),
      // The same requests, userId included, to a server that does no work for them.
      limit: await measure(bare),
      zipf: await measure({ ...service, zipf: ZIPF_USERS }),
      zipfLimit: await measure({ ...bare, zipf: ZIPF_USERS }),
      evaluation: measureEvaluation(),
    };
  } finally {
    await stop(limit);
  }
}
