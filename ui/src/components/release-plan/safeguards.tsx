// A plan's safeguards: what each watches, its metric's chart with the threshold, and, once one fired, what
// happened and what to do.
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { actionLabel, describeSafeguard, firedExplanation } from '../../lib/release-plans.js';
import { DialogButton } from '../dialog-button';
import { ConfirmButton, Empty } from '../feedback';
import { SafeguardDialog } from './safeguard-form';
import type { ReleasePlan, Safeguard, UpsertSafeguard } from './queries';

const MetricChart = lazy(() => import('./metric-chart'));

interface Props {
  plan: ReleasePlan;
  mayChange: boolean;
  onSave: (safeguardId: string | undefined, body: UpsertSafeguard) => Promise<unknown>;
  onDelete: (safeguardId: string) => Promise<unknown>;
}

export function Safeguards({ plan, mayChange, onSave, onDelete }: Props) {
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap="xs" component="section" aria-label={`Safeguards in ${plan.environment}`}>
      <Title order={5}>Safeguards</Title>
      {plan.safeguards.length === 0 && <Empty>No safeguard: nothing pauses the plan by itself.</Empty>}
      {plan.safeguards.map((safeguard) => (
        <SafeguardCard key={safeguard.id} plan={plan} safeguard={safeguard} mayChange={mayChange} onSave={onSave} onDelete={onDelete} />
      ))}
      {mayChange && (
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            Add safeguard
          </Button>
        </Group>
      )}
      {adding && <SafeguardDialog environment={plan.environment} onSave={(body) => onSave(undefined, body)} onClose={() => setAdding(false)} />}
    </Stack>
  );
}

function SafeguardCard({ plan, safeguard, mayChange, onSave, onDelete }: Props & { safeguard: Safeguard }) {
  const fired = firedExplanation(safeguard, plan.environment);
  const metric = safeguard.impactMetric;
  return (
    <Paper withBorder p="sm" data-testid="safeguard">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text size="sm" fw={600} ff="monospace">
              {describeSafeguard(safeguard)}
            </Text>
            <Text size="sm">Then: {actionLabel(safeguard.action.type).toLowerCase()}</Text>
          </Stack>
          {mayChange && (
            <Group gap="xs">
              <DialogButton
                label="Edit"
                ariaLabel={`Edit safeguard on ${metric.metricName}`}
                dialog={(close) => <SafeguardDialog environment={plan.environment} safeguard={safeguard} onSave={(body) => onSave(safeguard.id, body)} onClose={close} />}
              />
              <ConfirmButton label="Delete" size="xs" title="Delete this safeguard?" done="Safeguard deleted." onConfirm={() => onDelete(safeguard.id)}>
                The plan stops watching {metric.metricName}.
              </ConfirmButton>
            </Group>
          )}
        </Group>
        {fired && (
          <Alert color="red" title="This safeguard fired" data-testid="safeguard-fired">
            {fired}
          </Alert>
        )}
        <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
          <MetricChart metricName={metric.metricName} timeRange={metric.timeRange} aggregationMode={metric.aggregationMode} labelSelectors={metric.labelSelectors} threshold={safeguard.triggerCondition.threshold} />
        </Suspense>
      </Stack>
    </Paper>
  );
}
