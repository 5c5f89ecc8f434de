// Quantiles of cumulative histogram buckets, interpolated as Prometheus' histogram_quantile does.
import type { HistogramBuckets } from '../../db/schema.js';

const upperBound = (le: string) => (le === '+Inf' ? Infinity : Number(le));

/** Adds `added` to `into`, bucket by bucket (`le` by `le`). */
export function addBuckets(into: HistogramBuckets, added: HistogramBuckets): HistogramBuckets {
  for (const [le, n] of Object.entries(added)) into[le] = (into[le] ?? 0) + n;
  return into;
}

/** The buckets by upper bound, ascending, counts made non-decreasing (as Prometheus mends buckets merged from different sets). */
export function sortedBuckets(buckets: HistogramBuckets): { le: number; count: number }[] {
  const sorted = Object.entries(buckets)
    .map(([le, count]) => ({ le: upperBound(le), count }))
    .filter((b) => !Number.isNaN(b.le))
    .sort((a, b) => a.le - b.le);
  let max = 0;
  for (const bucket of sorted) bucket.count = max = Math.max(max, bucket.count);
  return sorted;
}

/**
 * The `q` quantile (0 … 1) of the observations the buckets count: linear within the bucket it falls in, the
 * upper bound of the last finite bucket when it falls in `+Inf`; null without observations or without a `+Inf` bucket.
 */
export function histogramQuantile(q: number, buckets: HistogramBuckets): number | null {
  const sorted = sortedBuckets(buckets);
  const last = sorted.at(-1);
  if (sorted.length < 2 || last!.le !== Infinity || last!.count === 0) return null;
  let rank = q * last!.count;
  const b = sorted.findIndex((bucket, i) => i === sorted.length - 1 || bucket.count >= rank);
  if (b === sorted.length - 1) return sorted[b - 1]!.le;
  if (b === 0 && sorted[0]!.le <= 0) return sorted[0]!.le;
  const start = b === 0 ? 0 : sorted[b - 1]!.le;
  let count = sorted[b]!.count;
  if (b > 0) {
    count -= sorted[b - 1]!.count;
    rank -= sorted[b - 1]!.count;
  }
  return start + (sorted[b]!.le - start) * (rank / count);
}
