// Which copy of a served body a request gets: its content coding, and whether its validator still holds.
import Negotiator from 'negotiator';

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this are not worth compressing: identity is preferred when the client accepts it. */
export const COMPRESS_FROM_BYTES = 1024;

const CODINGS: ContentCoding[] = ['br', 'gzip', 'identity'];
const LARGE: ContentCoding[] = ['br', 'gzip', 'identity'];
const SMALL: ContentCoding[] = ['identity', 'br', 'gzip'];

/** negotiator 1.x's `encoding` takes a preference order for ties; @types/negotiator (0.6) does not declare it. */
type EncodingNegotiator = { encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined };

/** Answers per raw header value and body size class: SDKs send a handful of distinct headers. */
const answers = new Map<string, ContentCoding>();
const MAX_ANSWERS = 200;

/**
 * The content coding for a body of `length` bytes, by the request's `Accept-Encoding` (RFC 9110 §12.5.3):
 * q-values decide, `*` stands for any coding not listed, `q=0` refuses. At equal quality brotli is preferred to
 * gzip for large bodies and identity for small ones. No header: identity. When the header refuses every coding
 * (`identity;q=0` with nothing else acceptable), the body is sent uncompressed, as the RFC allows a server to
 * disregard the field rather than answer 406.
 */
export function contentCoding(acceptEncoding: string | undefined, length: number): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const large = length >= COMPRESS_FROM_BYTES;
  const key = (large ? 'L' : 'S') + acceptEncoding;
  let coding = answers.get(key);
  if (coding === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as EncodingNegotiator;
    coding = (negotiator.encoding(CODINGS, { preferred: large ? LARGE : SMALL }) as ContentCoding | undefined) ?? 'identity';
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answers.set(key, coding);
  }
  return coding;
}

/**
 * Whether `If-None-Match` holds `etag` (RFC 9110 §13.1.2, weak comparison): the exact value, its `W/` form,
 * a member of a comma-separated list, or `*` (the representation exists).
 */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || (value.startsWith('W/') ? value.slice(2) : value) === etag;
  });
}
