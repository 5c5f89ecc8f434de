// When a failed delivery is tried again: network errors, timeouts, 408, 429 and 5xx are worth another attempt;
// any other answer is final.

/** The longest wait between two attempts (a Retry-After asking for more is capped here). */
const MAX_DELAY_MS = 5 * 60_000;

export function isRetryable(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with jitter: attempt n waits between half and all of base × 2^(n-1), at most 5 minutes. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A Retry-After header (seconds or an HTTP date) as milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(MAX_DELAY_MS, Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.min(MAX_DELAY_MS, Math.max(0, at - now));
}
