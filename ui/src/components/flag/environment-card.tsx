// One environment of a flag: on/off, and its strategies (each with its constraints) with add, edit, delete and
// reordering offered where the user may; proposed as a change request where the project requires them.
import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { IconGitPullRequest, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { confirmDone } from '../confirm-done';
import { Empty } from '../feedback';
import { strategyKind } from '../../lib/strategy-words.js';
import { useChange, useStrategies } from '../../queries';
import { useSession } from '../../session';
import { ReleasePlanSection } from '../release-plan/plan-section';
import { EnvironmentFrame } from './environment-frame';
import { TimeAgo } from './flag-header';
import { useFlagWrite } from './flag-writes';
import { StrategyCard } from './strategy-card';
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
  const definitions = useStrategies();
  /** Says that a change worked, unless it was only proposed (the proposal says so itself). */
  const confirm = (message: string) => {
    if (!proposing) confirmDone(message);
  };

  const toggle = useChange(
    (on: boolean) =>
      write(
        () =>
          on
            ? ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', { params: { path } }))
            : ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off', { params: { path } })),
        { action: 'updateEnabled', payload: { enabled: on } },
      ).then(() => confirm(`${feature} is ${on ? 'on' : 'off'} in ${environment.name}.`)),
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
    ).then(() => confirm(`Strategies of ${feature} in ${environment.name} reordered.`));
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
    <EnvironmentFrame
      environment={environment}
      beside={<LastSeen at={environment.lastSeenAt} />}
      state={
        <>
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
        </>
      }
    >
      <Stack gap="xs">
        {environment.strategies.length === 0 && <Empty>No strategy: when on, the flag is on for everyone here.</Empty>}
        {environment.strategies.map((strategy, index) => (
          <StrategyCard
            key={strategy.id}
            strategy={strategy}
            deleted={proposing ? undefined : `Strategy ${strategy.title || strategyKind(strategy.name, definitions.data)} deleted from ${environment.name}.`}
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
          proposing={proposing}
        />
      )}
    </EnvironmentFrame>
  );
}

/** When an SDK last reported the flag in the environment: "Last seen 3 minutes ago" (the exact time on hover), or never. */
function LastSeen({ at }: { at: string | null }) {
  return (
    <Text size="sm" c="gray.7">
      Last seen{' '}
      {at ? <TimeAgo at={at} /> : 'never'}
    </Text>
  );
}
