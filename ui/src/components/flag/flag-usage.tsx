import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api';
import { hourlyUsage } from '../../lib/usage.js';
import { Loaded } from '../feedback';

const HOURS = 24;

/** How often SDKs found the flag on and off, per hour of the last day, in one environment. */
export function FlagUsage({ feature, environments }: { feature: string; environments: string[] }) {
  const [environment, setEnvironment] = useState(environments[0] ?? '');
  const usage = useQuery({
    queryKey: ['flag-usage', feature],
    queryFn: async () => (await ok(api.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: feature } } }))).metrics,
  });
  return (
    <Stack>
      <SegmentedControl aria-label="Environment" data={environments} value={environment} onChange={setEnvironment} w="fit-content" />
      <Loaded query={usage} empty="No SDK has reported this flag yet." isEmpty={(metrics) => metrics.length === 0}>
        {(metrics) => <UsageChart bars={hourlyUsage(metrics, environment, HOURS, Date.now())} />}
      </Loaded>
    </Stack>
  );
}

function UsageChart({ bars }: { bars: ReturnType<typeof hourlyUsage> }) {
  const yes = bars.reduce((sum, b) => sum + b.yes, 0);
  const no = bars.reduce((sum, b) => sum + b.no, 0);
  const highest = Math.max(1, ...bars.map((b) => b.yes + b.no));
  const width = 24;
  const height = 120;
  const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;
  const summary = `Last ${bars.length} hours: ${times(yes)} on, ${times(no)} off`;
  const hourLabel = (hour: number) => new Date(hour).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <Stack gap="xs">
      <Text size="sm">{summary}</Text>
      <svg role="img" aria-label={summary} width={bars.length * width} height={height + 18} viewBox={`0 0 ${bars.length * width} ${height + 18}`}>
        <line x1={0} x2={bars.length * width} y1={height + 0.5} y2={height + 0.5} stroke="var(--mantine-color-gray-6)" />
        <text x={0} y={height + 14} fontSize={11} fill="var(--mantine-color-gray-7)">
          {hourLabel(bars[0]?.hour ?? 0)}
        </text>
        <text x={bars.length * width} y={height + 14} fontSize={11} fill="var(--mantine-color-gray-7)" textAnchor="end">
          now
        </text>
        {bars.map((bar, i) => {
          const yesHeight = (bar.yes / highest) * (height - 4);
          const noHeight = (bar.no / highest) * (height - 4);
          const label = `${hourLabel(bar.hour)}: ${bar.yes} on, ${bar.no} off`;
          return (
            <g key={bar.hour}>
              <title>{label}</title>
              <rect x={i * width + 3} y={height - yesHeight} width={width - 6} height={yesHeight} fill="var(--mantine-color-teal-8)" />
              <rect x={i * width + 3} y={height - yesHeight - noHeight} width={width - 6} height={noHeight} fill="var(--mantine-color-gray-5)" />
            </g>
          );
        })}
      </svg>
    </Stack>
  );
}
