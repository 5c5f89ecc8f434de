// A safeguard's dialog: the impact metric it watches (with label selectors, time range and aggregation), when it
// fires (above or below a threshold), and what it does then.
import { MultiSelect, NumberInput, Radio, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { timeRanges } from '../../lib/release-plans.js';
import { FormDialog } from '../forms';
import { useImpactMetrics, type Aggregation, type Safeguard, type TimeRange, type UpsertSafeguard } from './queries';

type ActionType = Safeguard['action']['type'];
type Operator = Safeguard['triggerCondition']['operator'];

const aggregationsOf: Record<string, Aggregation[]> = {
  counter: ['count', 'rps', 'sum'],
  gauge: ['last', 'avg'],
  histogram: ['p95', 'p99', 'p50', 'avg', 'count', 'sum'],
};

export function SafeguardDialog(props: { environment: string; safeguard?: Safeguard; onSave: (body: UpsertSafeguard) => Promise<unknown>; onClose: () => void }) {
  const { safeguard } = props;
  const metrics = useImpactMetrics();
  const [metricName, setMetricName] = useState<string | null>(safeguard?.impactMetric.metricName ?? null);
  const [labels, setLabels] = useState<Record<string, string[]>>(safeguard?.impactMetric.labelSelectors ?? {});
  const [timeRange, setTimeRange] = useState<TimeRange>(safeguard?.impactMetric.timeRange ?? 'hour');
  const [aggregation, setAggregation] = useState<Aggregation | null>(safeguard?.impactMetric.aggregationMode ?? null);
  const [operator, setOperator] = useState<Operator>(safeguard?.triggerCondition.operator ?? '>');
  const [threshold, setThreshold] = useState<number | string>(safeguard?.triggerCondition.threshold ?? '');
  const [action, setAction] = useState<ActionType>(safeguard?.action.type ?? 'pauseReleasePlanProgressions');
  const metric = metrics.data?.find((m) => m.name === metricName);
  const aggregations = aggregationsOf[metric?.type ?? ''] ?? [...new Set(Object.values(aggregationsOf).flat())];

  const choose = (name: string | null) => {
    setMetricName(name);
    setLabels({});
    const type = metrics.data?.find((m) => m.name === name)?.type;
    setAggregation(type ? aggregationsOf[type]![0]! : null);
  };
  const save = () =>
    props.onSave({
      impactMetric: { metricName: metricName!, timeRange, aggregationMode: aggregation!, labelSelectors: Object.fromEntries(Object.entries(labels).filter(([, v]) => v.length > 0)) },
      triggerCondition: { operator, threshold: Number(threshold) },
      action: { type: action },
    });

  return (
    <FormDialog
      title={safeguard ? 'Edit safeguard' : 'Add a safeguard'}
      submitLabel={safeguard ? 'Save safeguard' : 'Add safeguard'}
      size="lg"
      onClose={props.onClose}
      onSubmit={save}
      done={safeguard ? 'Safeguard saved.' : 'Safeguard added.'}
      disabled={!metricName || !aggregation || threshold === ''}
    >
      <Select
        label="Impact metric"
        description={metrics.data?.length === 0 ? 'No application has reported an impact metric yet' : undefined}
        required
        searchable
        data={(metrics.data ?? []).map((m) => ({ value: m.name, label: `${m.name} (${m.type})` }))}
        value={metricName}
        onChange={choose}
        data-autofocus
      />
      {metric &&
        Object.entries(metric.labels).map(([label, values]) => (
          <MultiSelect
            key={label}
            label={`Label ${label}`}
            description="Empty: every value"
            data={[...new Set([...values, ...(labels[label] ?? [])])]}
            value={labels[label] ?? []}
            onChange={(chosen) => setLabels({ ...labels, [label]: chosen })}
          />
        ))}
      <Select label="Time range" data={timeRanges} value={timeRange} onChange={(v) => v && setTimeRange(v as TimeRange)} allowDeselect={false} />
      <Select label="Aggregation" required data={aggregations} value={aggregation} onChange={(v) => v && setAggregation(v as Aggregation)} allowDeselect={false} />
      <Select
        label="Fires when the value is"
        data={[
          { value: '>', label: 'above the threshold' },
          { value: '<', label: 'below the threshold' },
        ]}
        value={operator}
        onChange={(v) => v && setOperator(v as Operator)}
        allowDeselect={false}
      />
      <NumberInput label="Threshold" required value={threshold} onChange={setThreshold} />
      <Radio.Group label="Then" value={action} onChange={(v) => setAction(v as ActionType)}>
        <Stack gap="xs" mt="xs">
          <Radio value="pauseReleasePlanProgressions" label="Pause the release plan" />
          <Radio value="disableFeatureEnvironment" label={`Pause the release plan and turn the flag off in ${props.environment}`} />
        </Stack>
      </Radio.Group>
    </FormDialog>
  );
}
