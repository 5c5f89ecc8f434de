// A Prometheus histogram cheap enough for the client API's hot path.
import type { Metric, MetricValue, Registry } from 'prom-client';

type Labels = Record<string, string | number>;

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * prom-client's Histogram hashes its label object on every observation (about 1.5 µs, as much as the rest of
 * a 304); this one finds a series by a caller-made string key, so an observation is one Map lookup and a
 * short bucket scan. It renders as a standard histogram (`_bucket` with `le`, `_sum`, `_count`).
 */
export class RequestHistogram {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** Adds `value` to the series `key`; `labels` makes that series' labels the first time the key is seen. */
  observe(key: string, labels: () => Labels, value: number): void {
    let series = this.series.get(key);
    if (!series) this.series.set(key, (series = { labels: labels(), counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 }));
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    series.counts[i]!++;
    series.sum += value;
    series.count++;
  }

  /** What prom-client's registry renders. */
  async get() {
    const values: MetricValue<string>[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulative += counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: i < this.buckets.length ? this.buckets[i]! : '+Inf' }, value: cumulative } as MetricValue<string>);
      }
      values.push({ metricName: `${this.name}_sum`, labels, value: sum } as MetricValue<string>);
      values.push({ metricName: `${this.name}_count`, labels, value: count } as MetricValue<string>);
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }

  reset(): void {
    this.series.clear();
  }
}
