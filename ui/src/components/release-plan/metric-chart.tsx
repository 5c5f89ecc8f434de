// An impact metric over a safeguard's time range, with its threshold as a line. Loaded on its own (React.lazy):
// recharts and the charts' styles are fetched only when a chart is shown.
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { SVGProps } from 'react';
import { errorMessage } from '../../api';
import { rangeLabel } from '../../lib/release-plans.js';
import { useMetricSeries, type Aggregation, type TimeRange } from './queries';

export interface MetricChartProps {
  metricName: string;
  timeRange: TimeRange;
  aggregationMode: Aggregation;
  labelSelectors: Record<string, string[]>;
  threshold: number;
}

const timeOf = (seconds: number, range: TimeRange) =>
  new Date(seconds * 1000).toLocaleString(undefined, range === 'hour' || range === 'day' ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' });

const thresholdLine = (props: SVGProps<SVGLineElement>) => <line {...props} data-testid="threshold-line" />;

export default function MetricChart({ metricName, timeRange, aggregationMode, labelSelectors, threshold }: MetricChartProps) {
  const series = useMetricSeries(metricName, timeRange, aggregationMode, labelSelectors);
  const caption = `${metricName}, ${aggregationMode} per step over ${rangeLabel(timeRange)}; the red line is the threshold ${threshold}`;
  if (series.isError) return <Text size="sm" c="red.8">{`No chart of ${metricName}: ${errorMessage(series.error)}`}</Text>;
  const data = (series.data?.data ?? []).map(([seconds, value]) => ({ time: timeOf(seconds ?? 0, timeRange), value }));
  return (
    <figure style={{ margin: 0 }} data-testid="safeguard-chart" aria-label={`Chart of ${metricName}`} aria-busy={series.isPending}>
      <LineChart
        h={160}
        data={data}
        dataKey="time"
        series={[{ name: 'value', label: metricName, color: 'blue.8' }]}
        dotProps={{ r: 2 }}
        connectNulls={false}
        curveType="linear"
        tooltipAnimationDuration={0}
        lineChartProps={{ accessibilityLayer: false }}
        yAxisProps={{ width: 48, domain: [(min: number) => Math.min(min, threshold, 0), (max: number) => Math.max(max, threshold) * 1.2 || 1] }}
        referenceLines={[{ y: threshold, color: 'red.8', label: `Threshold ${threshold}`, shape: thresholdLine }]}
      />
      <Text component="figcaption" size="xs" c="dimmed">
        {caption}
        {series.data && series.data.value !== null ? `. Over the whole range: ${series.data.value}` : ''}
      </Text>
    </figure>
  );
}
