// A flag's Usage tab: how often SDKs evaluated it, on and off, in one environment over a chosen period (a chart with
// axes and a legend, the totals, per application and per variant), and when each environment last saw it.
import { Anchor, Group, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, ok } from '../../api';
import { nowFor, PERIODS, usageOf, type Metric, type Period } from '../../lib/usage.js';
import { Empty, PageLoader, QueryError } from '../feedback';
import { ApplicationUsage, LastSeen, UsageTotals, VariantUsage } from '../usage/usage-parts';

// recharts and the charts' styles come with the chart, once usage is shown.
const UsageChart = lazy(() => import('../usage/usage-chart'));

const periodOptions = Object.entries(PERIODS).map(([value, p]) => ({ value, label: p.label }));

/** How often SDKs found the flag on and off, in one environment, over the last hour, day, two days or week. */
export function FlagUsage({ feature, environments }: { feature: string; environments: string[] }) {
  const { projectId = '' } = useParams();
  // The flag page's own query (the same key): read from its cache, for each environment's lastSeenAt.
  const flag = useQuery({
    queryKey: ['flag', projectId, feature],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId, featureName: feature } } })),
    enabled: projectId !== '',
  });
  const seen = environments.map((name) => ({ name, lastSeenAt: flag.data?.environments.find((e) => e.name === name)?.lastSeenAt ?? null }));
  // The environment SDKs reported from last, else the first.
  const [environment, setEnvironment] = useState(() => [...seen].sort((a, b) => (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''))[0]?.name ?? '');
  const [period, setPeriod] = useState<Period>('24h');
  const { hours } = PERIODS[period];
  const usage = useQuery({
    queryKey: ['flag-usage', feature, hours],
    queryFn: async () =>
      (await ok(api.GET('/api/admin/client-metrics/features/{featureName}/raw', { params: { path: { featureName: feature }, query: { hoursBack: hours } } }))).metrics,
    placeholderData: keepPreviousData,
  });
  const neverSeen = seen.every((e) => e.lastSeenAt === null) && usage.data?.length === 0;

  return (
    <Stack>
      {/* The tab shows this heading's words; the parts' headings (h3) come under it. */}
      <VisuallyHidden component="h2">Usage</VisuallyHidden>
      {neverSeen ? (
        <Empty>
          No SDK has reported this flag yet — connect one with a client token from{' '}
          <Anchor component={Link} to="/api-tokens" underline="always">
            API tokens
          </Anchor>
          ; its evaluations show here within a minute.
        </Empty>
      ) : (
        <>
          <Group gap="md" wrap="wrap">
            <SegmentedControl aria-label="Environment" data={environments} value={environment} onChange={setEnvironment} />
            <SegmentedControl aria-label="Period" data={periodOptions} value={period} onChange={(value) => setPeriod(value as Period)} />
          </Group>
          {usage.isPending ? <PageLoader /> : usage.isError ? <QueryError error={usage.error} /> : <Figures metrics={usage.data} environment={environment} period={period} stale={usage.isPlaceholderData} />}
        </>
      )}
      <Part title="Last seen">
        <LastSeen environments={seen} now={Date.now()} />
      </Part>
    </Stack>
  );
}

/** The totals, the chart and the breakdowns of one environment and period. */
function Figures({ metrics, environment, period, stale }: { metrics: Metric[]; environment: string; period: Period; stale: boolean }) {
  const { words, hoursPerBar } = PERIODS[period];
  const usage = usageOf(metrics, environment, PERIODS[period], nowFor(metrics, Date.now()));
  if (usage.yes + usage.no === 0) {
    return <Empty>{`No SDK reported this flag in ${environment} (${words.toLowerCase()}). Choose a longer period or another environment.`}</Empty>;
  }
  return (
    <Stack aria-busy={stale}>
      <Text size="sm" c="gray.7">
        {`${words}, in ${environment}:`}
      </Text>
      <UsageTotals yes={usage.yes} no={usage.no} />
      <Part title="Evaluations over time">
        <Suspense fallback={<PageLoader />}>
          <UsageChart bars={usage.bars} hoursPerBar={hoursPerBar} words={words} />
        </Suspense>
      </Part>
      <Part title="Per application">
        <ApplicationUsage applications={usage.applications} />
      </Part>
      <Part title="Per variant">
        <VariantUsage variants={usage.variants} />
      </Part>
    </Stack>
  );
}

/** A titled part of the usage view (an h3 under the tab's h2). */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Text component="h3" fw={600} size="md" m={0}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}
