// A release template's dialog: its name, description and milestones in order, each with an optional time after
// which it hands over to the next and its strategies (edited with the flag's own strategy form).
import { ActionIcon, Badge, Button, Group, NumberInput, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { StrategyForm, type StrategyFields } from '../flag/strategy-form';
import { FormDialog } from '../forms';
import { useSaveTemplate, type Template } from './queries';

interface MilestoneDraft {
  key: number;
  name: string;
  interval: number | string;
  strategies: StrategyFields[];
}

let nextKey = 0;

const draftsOf = (template: Template | undefined): MilestoneDraft[] =>
  template
    ? template.milestones.map((m) => ({
        key: nextKey++,
        name: m.name,
        interval: m.transitionCondition?.intervalMinutes ?? '',
        strategies: m.strategies.map((s) => ({ name: s.name, title: s.title ?? undefined, disabled: s.disabled ?? false, parameters: s.parameters, constraints: s.constraints, segments: s.segments })),
      }))
    : [{ key: nextKey++, name: '', interval: '', strategies: [] }];

export function TemplateDialog({ template, onClose }: { template?: Template; onClose: () => void }) {
  const [name, setName] = useState(template?.name ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [milestones, setMilestones] = useState(() => draftsOf(template));
  const save = useSaveTemplate(template);
  const submit = () =>
    save.mutateAsync({
      name: name.trim(),
      description: description.trim() || null,
      milestones: milestones.map((m) => ({
        name: m.name.trim(),
        ...(typeof m.interval === 'number' && m.interval > 0 ? { transitionCondition: { intervalMinutes: m.interval } } : {}),
        strategies: m.strategies,
      })),
    });
  const set = (index: number, change: Partial<MilestoneDraft>) => setMilestones((all) => all.map((m, i) => (i === index ? { ...m, ...change } : m)));
  const move = (index: number, by: number) =>
    setMilestones((all) => {
      const moved = [...all];
      const [milestone] = moved.splice(index, 1);
      moved.splice(index + by, 0, milestone!);
      return moved;
    });
  return (
    <FormDialog
      title={template ? `Edit template ${template.name}` : 'New release template'}
      submitLabel={template ? 'Save template' : 'Create template'}
      size="56rem"
      onClose={onClose}
      onSubmit={submit}
      done={template ? `Template ${name.trim()} saved.` : `Template ${name.trim()} created.`}
      disabled={milestones.length === 0}
    >
      <TextInput label="Name" required data-autofocus maxLength={200} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" maxLength={10000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Text size="sm" fw={500}>
        Milestones, in the order they run
      </Text>
      {milestones.map((milestone, index) => (
        <MilestoneEditor
          key={milestone.key}
          index={index}
          milestone={milestone}
          onChange={(change) => set(index, change)}
          onMoveUp={index > 0 ? () => move(index, -1) : undefined}
          onMoveDown={index < milestones.length - 1 ? () => move(index, 1) : undefined}
          onRemove={milestones.length > 1 ? () => setMilestones((all) => all.filter((_, i) => i !== index)) : undefined}
        />
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setMilestones((all) => [...all, { key: nextKey++, name: '', interval: '', strategies: [] }])}>
          Add milestone
        </Button>
      </Group>
    </FormDialog>
  );
}

interface EditorProps {
  index: number;
  milestone: MilestoneDraft;
  onChange: (change: Partial<MilestoneDraft>) => void;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  onRemove?: () => void;
}

function MilestoneEditor({ index, milestone, onChange, onMoveUp, onMoveDown, onRemove }: EditorProps) {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const label = milestone.name.trim() || `${index + 1}`;
  const keep = (fields: StrategyFields) =>
    onChange({ strategies: editing === 'new' ? [...milestone.strategies, fields] : milestone.strategies.map((s, i) => (i === editing ? fields : s)) });
  return (
    <Paper withBorder p="sm" role="group" aria-label={`Milestone ${index + 1}`}>
      <Stack gap="xs">
        <Group align="flex-end" wrap="nowrap">
          <TextInput label={`Milestone ${index + 1} name`} required maxLength={200} value={milestone.name} onChange={(e) => onChange({ name: e.currentTarget.value })} flex={1} />
          <NumberInput
            label="Advance after (minutes)"
            description="Empty: waits for someone to start the next"
            min={0}
            max={525600}
            value={milestone.interval}
            onChange={(interval) => onChange({ interval })}
            w={220}
          />
          <Group gap={4} mb={4} wrap="nowrap">
            {onMoveUp && (
              <ActionIcon variant="default" aria-label={`Move milestone ${label} earlier`} onClick={onMoveUp}>
                <IconArrowUp size={14} />
              </ActionIcon>
            )}
            {onMoveDown && (
              <ActionIcon variant="default" aria-label={`Move milestone ${label} later`} onClick={onMoveDown}>
                <IconArrowDown size={14} />
              </ActionIcon>
            )}
            {onRemove && (
              <ActionIcon variant="subtle" color="red" aria-label={`Remove milestone ${label}`} onClick={onRemove}>
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        </Group>
        {milestone.strategies.length === 0 && (
          <Text size="sm" c="dimmed">
            No strategy yet.
          </Text>
        )}
        {milestone.strategies.map((strategy, i) => (
          <Group key={i} gap="xs" justify="space-between" data-testid="milestone-strategy">
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {strategy.title || strategy.name}
              </Text>
              {strategy.name === 'flexibleRollout' && <Badge variant="light">{strategy.parameters.rollout ?? '100'} %</Badge>}
              {strategy.constraints.length > 0 && <Text size="sm">{strategy.constraints.length} constraints</Text>}
            </Group>
            <Group gap="xs">
              <Button variant="default" size="compact-xs" aria-label={`Edit strategy ${i + 1} of milestone ${label}`} onClick={() => setEditing(i)}>
                Edit
              </Button>
              <Button
                variant="subtle"
                color="red"
                size="compact-xs"
                aria-label={`Remove strategy ${i + 1} of milestone ${label}`}
                onClick={() => onChange({ strategies: milestone.strategies.filter((_, j) => j !== i) })}
              >
                Remove
              </Button>
            </Group>
          </Group>
        ))}
        <Group>
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setEditing('new')}>
            Add strategy to milestone {label}
          </Button>
        </Group>
      </Stack>
      {editing !== null && (
        <StrategyForm milestone={label} strategy={editing === 'new' ? undefined : milestone.strategies[editing]} opened onClose={() => setEditing(null)} onSave={keep} />
      )}
    </Paper>
  );
}
