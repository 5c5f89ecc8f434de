// OpenFeature's remote evaluation under load: every flag at once (what browser providers poll) and one flag (what
// server providers ask), each request for another targetingKey so that every answer is evaluated; beside a bare
// fastify answering a JSON POST with a Buffer of the same size.
import { measure, type Load, type Measurement } from './bench-load.js';
import { startProcess, stop, waitFor, type Api } from './bench-service.js';
import { ZIPF_USERS } from './bench-frontend.js';

export interface OfrepFigures {
  flags: number;
  bulkBytes: number;
  bulk: Measurement;
  bulkLimit: Measurement;
  /** targetingKeys drawn from Zipf over ZIPF_USERS. */
  bulkZipf: Measurement;
  bulkZipfLimit: Measurement;
  single: Measurement;
  singleLimit: Measurement;
}

/** The seeded flags' constraint lets appName `web` in; each request is another user. */
export const OFREP_BODY = '{"context":{"appName":"web","targetingKey":"user-{n}"}}';

/** The same POSTs to a bare fastify answering `bytes` bytes. */
async function limitFor(bytes: number, port: number, load: Omit<Load, 'url'>): Promise<Measurement> {
  const limit = startProcess('dist/scripts/bench-limit.js', { PORT: String(port), BODY_BYTES: String(bytes) });
  try {
    await waitFor(`http://127.0.0.1:${port}/health`);
    return await measure({ ...load, url: `http://127.0.0.1:${port}/body`, serverPid: limit.pid });
  } finally {
    await stop(limit);
  }
}

export async function benchOfrep(api: Api, base: string, servicePid: number | undefined, limitPort: number, flagName: string, load: Pick<Load, 'seconds' | 'connections' | 'tool'>): Promise<OfrepFigures> {
  const { secret } = (await api('POST', '/api/admin/api-tokens', { tokenName: 'bench-ofrep', type: 'frontend', environment: 'development' })) as { secret: string };
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const sample = OFREP_BODY.replace('{n}', '0');
  const answers = await Promise.all(
    [`${base}/ofrep/v1/evaluate/flags`, `${base}/ofrep/v1/evaluate/flags/${flagName}`].map(async (url) => {
      const response = await fetch(url, { method: 'POST', headers, body: sample });
      if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
      return Buffer.from(await response.arrayBuffer());
    }),
  );
  const [bulkAnswer, singleAnswer] = answers as [Buffer, Buffer];
  const posts = { ...load, headers, postBody: OFREP_BODY, serverPid: servicePid };
  const bulk = await measure({ ...posts, url: `${base}/ofrep/v1/evaluate/flags` });
  const bulkLimit = await limitFor(bulkAnswer.length, limitPort, posts);
  const bulkZipf = await measure({ ...posts, url: `${base}/ofrep/v1/evaluate/flags`, zipf: ZIPF_USERS });
  const bulkZipfLimit = await limitFor(bulkAnswer.length, limitPort, { ...posts, zipf: ZIPF_USERS });
  const single = await measure({ ...posts, url: `${base}/ofrep/v1/evaluate/flags/${flagName}` });
  const singleLimit = await limitFor(singleAnswer.length, limitPort + 1, posts);
  const flags = (JSON.parse(bulkAnswer.toString()) as { flags: unknown[] }).flags.length;
  return { flags, bulkBytes: bulkAnswer.length, bulk, bulkLimit, bulkZipf, bulkZipfLimit, single, singleLimit };
}
