// A flag's hourly yes/no counts (GET /api/admin/client-metrics/features/{featureName}/raw) as the bars of a chart:
// one per hour of the last `hours`, applications added up, hours without reports at zero.
import type { components } from '../../../generated/api.js';

type Metric = components['schemas']['FeatureUsage']['metrics'][number];

export interface HourOfUse {
  /** Start of the hour, in milliseconds. */
  hour: number;
  yes: number;
  no: number;
}

const HOUR = 3_600_000;

export function hourlyUsage(metrics: Metric[], environment: string, hours: number, now: number): HourOfUse[] {
  const last = Math.floor(now / HOUR) * HOUR;
  const first = last - (hours - 1) * HOUR;
  const bars: HourOfUse[] = Array.from({ length: hours }, (_, i) => ({ hour: first + i * HOUR, yes: 0, no: 0 }));
  for (const metric of metrics) {
    if (metric.environment !== environment) continue;
    const index = (Math.floor(Date.parse(metric.timestamp) / HOUR) * HOUR - first) / HOUR;
    const bar = bars[index];
    if (!bar) continue;
    bar.yes += metric.yes;
    bar.no += metric.no;
  }
  return bars;
}
