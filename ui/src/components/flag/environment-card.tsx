// One environment of a flag: on/off, and its strategies (each with its constraints) with add, edit, delete and
// reordering offered where the user may; proposed as a change request where the project requires them.
import { ActionIcon, Badge, Button, Card, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGitPullRequest, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { ConfirmButton, Empty } from '../feedback';
import { describeConstraint } from '../../lib/constraints.js';
import { useChange, useSegments } from '../../queries';
import { useSession } from '../../session';
import { ReleasePlanSection } from '../release-plan/plan-section';
import { useFlagWrite } from './flag-writes';
import { StrategyForm } from './strategy-form';

type FeatureEnvironment = components['schemas']['FeatureEnvironment'];
type FeatureStrategy = components['schemas']['FeatureStrategy'];

export function EnvironmentCard({ project, feature, environment }: { project: string; feature: string; environment: FeatureEnvironment }) {
  const session = useSession();
  const scope = { project, environment: environment.name };
  const [editing, setEditing] = useState<FeatureStrategy | 'new' | null>(null);
  const path = { projectId: project, featureName: feature, environment: environment.name };
  const changed = [['flag', project, feature], ['flags']];

  const { proposing, write } = useFlagWrite(project, feature, environment.name);

  const toggle = useChange(
    (on: boolean) =>
      write(
        () =>
          on
            ? ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path } }))
            : ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params: { path } })),
        { action: 'updateEnabled', payload: { enabled: on } },
      ),
    ...changed,
  );
  const remove = useChange(
    (strategyId: string) =>
      write(
        () => ok(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', { params: { path: { ...path, strategyId } } })),
        { action: 'deleteStrategy', payload: { id: strategyId } },
      ),
    ...changed,
  );
  const reorder = useChange((ids: string[]) => {
    const order = ids.map((id, sortOrder) => ({ id, sortOrder }));
    return write(
      () => ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order', { params: { path }, body: order })),
      { action: 'reorderStrategy', payload: order },
    );
  }, ...changed);
  /** The strategies' ids with the one at `index` moved by `by` places. */
  const moved = (index: number, by: number) => {
    const ids = environment.strategies.map((s) => s.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    return ids;
  };
  const mayReorder = session.can('setStrategySortOrder', scope) && environment.strategies.length > 1;

  const mayToggle = session.can('enableFeatureEnvironment', scope);
  const enabled = toggle.isPending ? toggle.variables : environment.enabled;
  return (
    <Card withBorder padding="md" component="section" aria-label={`Environment ${environment.name}`}>
      <Group justify="space-between" mb="sm">
        <Group gap="sm">
          <Title order={3} size="h4">
            {environment.name}
          </Title>
          <Badge variant="default" tt="none">
            {environment.type}
          </Badge>
        </Group>
        {proposing && (
          <Badge variant="light" color="grape" leftSection={<IconGitPullRequest size={12} />} tt="none" title="Changes here are proposed in your draft change request">
            change requests
          </Badge>
        )}
        {mayToggle ? (
          <Switch
            label={enabled ? 'On' : 'Off'}
            aria-label={`${environment.name}: ${enabled ? 'on' : 'off'}`}
            checked={enabled}
            disabled={toggle.isPending}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            color="teal.9"
          />
        ) : (
          <Badge color={enabled ? 'teal.9' : 'gray.7'} variant={enabled ? 'filled' : 'outline'}>
            {enabled ? 'On' : 'Off'}
          </Badge>
        )}
      </Group>
      <Stack gap="xs">
        {environment.strategies.length === 0 && <Empty>No strategy: when on, the flag is on for everyone here.</Empty>}
        {environment.strategies.map((strategy, index) => (
          <StrategyRow
            key={strategy.id}
            strategy={strategy}
            onMoveUp={mayReorder && index > 0 ? () => reorder.mutate(moved(index, -1)) : undefined}
            onMoveDown={mayReorder && index < environment.strategies.length - 1 ? () => reorder.mutate(moved(index, 1)) : undefined}
            onEdit={session.can('updateFeatureStrategy', scope) ? () => setEditing(strategy) : undefined}
            onDelete={session.can('deleteFeatureStrategy', scope) ? () => remove.mutateAsync(strategy.id) : undefined}
          />
        ))}
        {session.can('addFeatureStrategy', scope) && (
          <Group>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setEditing('new')}>
              Add strategy
            </Button>
          </Group>
        )}
      </Stack>
      <ReleasePlanSection project={project} feature={feature} environment={environment.name} proposing={proposing} write={write} />
      {editing && (
        <StrategyForm
          target={{ project, feature, environment: environment.name }}
          strategy={editing === 'new' ? undefined : editing}
          opened
          onClose={() => setEditing(null)}
          write={write}
        />
      )}
    </Card>
  );
}

interface StrategyActions {
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
}

function StrategyRow({ strategy, onEdit, onDelete, onMoveUp, onMoveDown }: { strategy: FeatureStrategy } & StrategyActions) {
  const label = strategy.title || strategy.name;
  const segments = useSegments();
  const names = strategy.segments.map((id) => segments.data?.find((s) => s.id === id)?.name ?? `#${id}`);
  return (
    <Paper withBorder p="sm" data-testid="strategy">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={600}>{label}</Text>
            {strategy.name === 'flexibleRollout' && <Badge variant="light">{strategy.parameters.rollout ?? '100'} %</Badge>}
            {strategy.disabled && (
              <Badge variant="default">
                inactive
              </Badge>
            )}
          </Group>
          {strategy.constraints.map((constraint, i) => (
            <Text key={i} size="sm" ff="monospace">
              {describeConstraint(constraint)}
            </Text>
          ))}
          {names.length > 0 && <Text size="sm">Segments: {names.join(', ')}</Text>}
        </Stack>
        <Group gap="xs">
          {onMoveUp && (
            <ActionIcon variant="default" aria-label={`Evaluate ${label} earlier`} onClick={onMoveUp}>
              <IconArrowUp size={14} />
            </ActionIcon>
          )}
          {onMoveDown && (
            <ActionIcon variant="default" aria-label={`Evaluate ${label} later`} onClick={onMoveDown}>
              <IconArrowDown size={14} />
            </ActionIcon>
          )}
          {onEdit && (
            <Button variant="default" size="xs" leftSection={<IconPencil size={14} />} onClick={onEdit}>
              Edit
            </Button>
          )}
          {onDelete && (
            <ConfirmButton label="Delete" size="xs" title="Delete this strategy?" onConfirm={onDelete}>
              The strategy {label} and its constraints are removed from this environment.
            </ConfirmButton>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
