// A client API request with a tag filter, at an edge: the client API does not carry tags, so the upstream answers it,
// and its last answer per token and query is kept for while the upstream is away.
import { credentialFrom } from '../access/tokens.js';
import { header, type ClientQuery, type Headers } from '../client-features/request-shape.js';
import { serviceUnavailable } from '../../kernel/errors.js';
import type { ClientFeatures } from './scope.js';
import type { Upstream } from './upstream.js';

/** Answers kept, at most; past this the oldest is forgotten. */
const MAX_KEPT = 1000;

export const hasTagFilter = (query: ClientQuery) => Boolean(query?.tag?.length || query?.['tag[]']?.length);

export class TagFilteredAnswers {
  private readonly kept = new Map<string, { body: ClientFeatures; etag: string | undefined }>();

  constructor(private readonly upstream: Upstream | undefined) {}

  async answer(query: ClientQuery, headers: Headers): Promise<ClientFeatures> {
    const token = credentialFrom(header(headers, 'authorization'));
    const search = new URLSearchParams();
    for (const [name, values] of Object.entries(query ?? {})) for (const value of [values ?? []].flat()) search.append(name, value);
    const key = `${token}\u0000${search}`;
    const kept = this.kept.get(key);
    try {
      if (!this.upstream || !token) throw new Error('no upstream');
      const polled = await this.upstream.features(token, kept?.etag, `?${search}`);
      if (polled.status === 'changed') {
        if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
        this.kept.set(key, { body: polled.body, etag: polled.etag });
        return polled.body;
      }
      if (polled.status === 'unchanged' && kept) return kept.body;
    } catch {
      if (kept) return kept.body;
    }
    throw serviceUnavailable('A tag filter is answered by the upstream, which cannot be reached and has not answered this filter before.');
  }
}
