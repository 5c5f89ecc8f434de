// The usage view's parts besides the chart: the totals, the counts per application and per variant, and when an SDK
// last reported the flag in each environment.
import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { percent, type Share } from '../../lib/usage.js';
import { ListTable } from '../list';

const count = (n: number) => n.toLocaleString('en-GB');

/** One figure with its name and what it means, named by its name for screen readers. */
function Stat({ name, value, meaning }: { name: string; value: string; meaning: string }) {
  const id = useId();
  return (
    <Paper withBorder p="sm" role="group" aria-labelledby={id}>
      <Text id={id} size="sm" fw={600}>
        {name}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      <Text size="xs" c="gray.7">
        {meaning}
      </Text>
    </Paper>
  );
}

export function UsageTotals({ yes, no }: { yes: number; no: number }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }}>
      <Stat name="Exposures" value={count(yes)} meaning="Times an SDK found the flag on" />
      <Stat name="Share on" value={percent(yes, yes + no)} meaning="Of all evaluations, the share that found it on" />
      <Stat name="Requests" value={count(yes + no)} meaning="Evaluations, on and off" />
    </SimpleGrid>
  );
}

export function ApplicationUsage({ applications }: { applications: Share[] }) {
  return (
    <ListTable
      label="Usage per application"
      query={{ data: applications }}
      rowKey={(a) => a.name}
      empty="No application reported the flag in this period."
      columns={[
        {
          label: 'Application',
          cell: (a) => (
            <Anchor component={Link} to={`/applications/${encodeURIComponent(a.name)}`}>
              {a.name}
            </Anchor>
          ),
        },
        { label: 'On', cell: (a) => count(a.yes) },
        { label: 'Off', cell: (a) => count(a.no) },
        { label: 'Requests', cell: (a) => count(a.yes + a.no) },
        { label: 'Share on', cell: (a) => percent(a.yes, a.yes + a.no) },
      ]}
    />
  );
}

export function VariantUsage({ variants }: { variants: { name: string; count: number }[] }) {
  const total = variants.reduce((sum, v) => sum + v.count, 0);
  return (
    <ListTable
      label="Usage per variant"
      query={{ data: variants }}
      rowKey={(v) => v.name}
      empty="No variant was reported in this period: the flag has no variants, or the SDKs did not ask for one."
      columns={[
        { label: 'Variant', cell: (v) => v.name },
        { label: 'Times chosen', cell: (v) => count(v.count) },
        { label: 'Share', cell: (v) => percent(v.count, total) },
      ]}
    />
  );
}

/** "5 minutes ago", "2 days ago". */
function ago(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return 'just now';
}

export function LastSeen({ environments, now }: { environments: { name: string; lastSeenAt: string | null }[]; now: number }) {
  return (
    <ListTable
      label="Last seen per environment"
      query={{ data: environments }}
      rowKey={(e) => e.name}
      empty="The flag is in no environment."
      columns={[
        { label: 'Environment', cell: (e) => e.name },
        {
          label: 'Last seen',
          cell: (e) =>
            e.lastSeenAt ? (
              <time dateTime={e.lastSeenAt} title={new Date(e.lastSeenAt).toLocaleString()}>
                {ago(Date.parse(e.lastSeenAt), now)} ({new Date(e.lastSeenAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })})
              </time>
            ) : (
              'Never'
            ),
        },
      ]}
    />
  );
}
