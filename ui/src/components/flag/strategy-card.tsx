// One strategy of a flag, read as a sentence: its human name, then its segments AND constraints AND rollout (each
// segment opening to show its own constraints), its variants as a weight bar, and the actions the user may take.
import { ActionIcon, Badge, Button, Group, Paper, Popover, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil } from '@tabler/icons-react';
import { Fragment } from 'react';
import type { components } from '../../../../generated/api.js';
import { describeConstraint } from '../../lib/constraints.js';
import { strategyClauses, strategyKind } from '../../lib/strategy-words.js';
import { useSegments, useStrategies } from '../../queries';
import { ConfirmButton } from '../feedback';
import { WeightBar } from './weight-bar';

type FeatureStrategy = components['schemas']['FeatureStrategy'];
type Segment = components['schemas']['Segment'];

export interface StrategyActions {
  onEdit?: () => void;
  onDelete?: () => Promise<unknown>;
  /** Said once the deletion worked; nothing when the deletion is only proposed. */
  deleted?: string;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
}

/** The name a strategy goes by on its card and its buttons: its title, else its kind ("Gradual rollout"). */
export function useStrategyLabel(strategy: Pick<FeatureStrategy, 'name' | 'title'>): { kind: string; label: string } {
  const definitions = useStrategies();
  const kind = strategyKind(strategy.name, definitions.data);
  return { kind, label: strategy.title || kind };
}

export function StrategyCard({ strategy, onEdit, onDelete, deleted, onMoveUp, onMoveDown }: { strategy: FeatureStrategy } & StrategyActions) {
  const { kind, label } = useStrategyLabel(strategy);
  return (
    <Paper withBorder p="sm" data-testid="strategy">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="xs">
          <Group gap="xs">
            <Text fw={600}>{label}</Text>
            {strategy.title && (
              <Text size="sm" c="gray.7">
                {kind}
              </Text>
            )}
            {strategy.disabled && <Badge variant="default">inactive</Badge>}
          </Group>
          <Group gap="xs" justify="flex-end">
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
              <ConfirmButton label="Delete" size="xs" title="Delete this strategy?" onConfirm={onDelete} done={deleted}>
                The strategy {label} and its constraints are removed from this environment.
              </ConfirmButton>
            )}
          </Group>
        </Group>
        <StrategySentence strategy={strategy} />
        {strategy.variants.length > 0 && <WeightBar variants={strategy.variants} label={`Variants of ${label}`} />}
      </Stack>
    </Paper>
  );
}

/** The strategy's conditions joined by AND: `Segment beta AND country is one of SE AND 25% of users, by userId`. */
export function StrategySentence({ strategy }: { strategy: Pick<FeatureStrategy, 'name' | 'parameters' | 'constraints' | 'segments'> }) {
  const definitions = useStrategies();
  const segments = useSegments();
  const clauses = strategyClauses(strategy, definitions.data);
  return (
    <Group gap={6} data-testid="strategy-sentence" style={{ rowGap: 4 }}>
      {clauses.map((clause, index) => (
        <Fragment key={index}>
          {index > 0 && (
            <Text size="xs" fw={700} c="gray.7" component="span">
              AND
            </Text>
          )}
          {clause.kind === 'segment' ? (
            <SegmentPreview id={clause.id} segment={segments.data?.find((s) => s.id === clause.id)} />
          ) : (
            <Text size="sm" component="span" style={{ overflowWrap: 'anywhere' }}>
              {clause.text}
            </Text>
          )}
        </Fragment>
      ))}
    </Group>
  );
}

/** A segment on a strategy's card: its name, opening to what it holds. */
function SegmentPreview({ id, segment }: { id: number; segment: Segment | undefined }) {
  const name = segment?.name ?? `#${id}`;
  return (
    <Popover position="bottom-start" withArrow shadow="md" width={320} trapFocus returnFocus>
      <Popover.Target>
        <Button variant="light" size="compact-sm" tt="none">
          Segment {name}
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label={`Segment ${name}`}>
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            Segment {name}
          </Text>
          {segment?.description && (
            <Text size="sm" c="gray.7">
              {segment.description}
            </Text>
          )}
          {!segment ? (
            <Text size="sm">This segment could not be read.</Text>
          ) : segment.constraints.length === 0 ? (
            <Text size="sm">No constraints: everyone is in it.</Text>
          ) : (
            <>
              <Text size="sm">Applies when all of these hold:</Text>
              {segment.constraints.map((c, i) => (
                <Text key={i} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {i > 0 ? 'AND ' : ''}
                  {describeConstraint(c)}
                </Text>
              ))}
            </>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
