import { isIP } from 'node:net';
import type { Agent } from 'undici';
import type { IntegrationConfig } from '../../kernel/config.js';
import type { OutgoingRequest } from './render.js';
import { isPrivateAddress, safeLookup } from './url-safety.js';

/** Unleash's limit for one call to a receiver. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the delivery log keeps. */
const RESPONSE_KEPT = 1000;
/** undici's errors for a request it cannot build (a header it refuses, say), thrown before any byte is sent. */
const UNBUILDABLE = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

export interface SendOutcome {
  /** The last receiver's status; absent when no answer came (network error, timeout, refused address). */
  status?: number;
  ok: boolean;
  /** The receiver's Retry-After, for when to try again. */
  retryAfterHeader?: string | string[] | undefined;
  /** The start of the receiver's answer, or what went wrong. */
  response: string;
  durationMs: number;
  /** Not sent, and sending again would not help (a refused address, a request that cannot be built): not retried. */
  refused?: boolean;
}

type Policy = Pick<IntegrationConfig, 'allowPrivateUrls' | 'allowedHosts'>;

/** Why a URL must not be called now: an address literal inside the network (names are checked as they resolve). */
function refusedLiteral(url: URL, policy: Policy): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (policy.allowPrivateUrls || policy.allowedHosts.includes(host.toLowerCase())) return undefined;
  return isIP(host) !== 0 && isPrivateAddress(host) ? `${host} is a private, loopback or link-local address` : undefined;
}

async function readSome(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString('utf8');
    if (text.length >= RESPONSE_KEPT) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, RESPONSE_KEPT);
}

/** Calls receivers with the policy's address checks pinned into each connection; redirects are not followed. */
export class Sender {
  /** undici (~5 MB of heap) is loaded with the first delivery: a service without integrations never holds it. */
  private agents?: Promise<{ request: typeof import('undici').request; allowed: Agent; checked: Agent }>;

  constructor(private readonly policy: Policy) {}

  private client() {
    return (this.agents ??= import('undici').then(({ Agent, request }) => ({
      request,
      allowed: new Agent({ headersTimeout: DELIVERY_TIMEOUT_MS, bodyTimeout: DELIVERY_TIMEOUT_MS }),
      checked: new Agent({ headersTimeout: DELIVERY_TIMEOUT_MS, bodyTimeout: DELIVERY_TIMEOUT_MS, connect: { lookup: safeLookup(this.policy) } }),
    })));
  }

  /** Sends the requests in order and stops at the first that fails. */
  async send(requests: OutgoingRequest[], headers: Record<string, string>, signal: AbortSignal): Promise<SendOutcome> {
    const started = performance.now();
    let outcome: SendOutcome = { ok: true, response: '', durationMs: 0 };
    for (const outgoing of requests) {
      outcome = await this.sendOne(outgoing, headers, signal);
      if (!outcome.ok) break;
    }
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  private async sendOne(outgoing: OutgoingRequest, extraHeaders: Record<string, string>, signal: AbortSignal): Promise<SendOutcome> {
    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch {
      return { ok: false, refused: true, response: 'the URL does not parse', durationMs: 0 };
    }
    const refusal = refusedLiteral(url, this.policy);
    if (refusal) return { ok: false, refused: true, response: `not sent: ${refusal}`, durationMs: 0 };
    const hostAllowed = this.policy.allowPrivateUrls || this.policy.allowedHosts.includes(url.hostname.toLowerCase());
    try {
      const { request, allowed, checked } = await this.client();
      const response = await request(url, {
        method: 'POST',
        headers: { 'user-agent': 'flag-service-integrations', ...outgoing.headers, ...extraHeaders },
        body: outgoing.body,
        dispatcher: hostAllowed ? allowed : checked,
        signal: AbortSignal.any([signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      const text = await readSome(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, status: response.statusCode, retryAfterHeader: response.headers['retry-after'], response: text, durationMs: 0 };
    } catch (error) {
      const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'EPRIVATEADDRESS') return { ok: false, refused: true, response: `not sent: ${(error as Error).message}`, durationMs: 0 };
      // The URL may carry a secret (chat webhooks do): the log gets its origin only.
      const message = (error instanceof Error ? error.message : String(error)).replaceAll(outgoing.url, url.origin);
      if (code && UNBUILDABLE.has(code)) return { ok: false, refused: true, response: `not sent: the request cannot be made (${message})`, durationMs: 0 };
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : `${code ?? 'error'}: ${message}`;
      return { ok: false, response: reason, durationMs: 0 };
    }
  }

  async close(): Promise<void> {
    if (!this.agents) return;
    const { allowed, checked } = await this.agents;
    await Promise.all([allowed.close(), checked.close()]);
  }
}
