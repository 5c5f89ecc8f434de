// A custom strategy's dialog: empty to create one (createStrategy), or prefilled with a strategy to change its
// title, description and parameters (updateStrategy; every field is sent, the parameters as the whole new list).
// The name is chosen once, and the built-in strategies cannot change (the service refuses them with 409).
import { ActionIcon, Button, Checkbox, Group, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { FormDialog } from './forms';

type Strategy = components['schemas']['Strategy'];
type Parameter = components['schemas']['StrategyParameterDefinition'];

const TYPES: Parameter['type'][] = ['string', 'percentage', 'list', 'number', 'boolean'];

/** What the service would refuse in the parameters, in words; undefined when it will take them. */
function parametersProblem(parameters: Parameter[]): string | undefined {
  const names = parameters.map((p) => p.name.trim());
  const repeated = names.find((name, index) => name !== '' && names.indexOf(name) !== index);
  return repeated === undefined ? undefined : `The parameter "${repeated}" is defined twice.`;
}

export function StrategyDialog({ strategy, onClose }: { strategy?: Strategy; onClose: () => void }) {
  const [name, setName] = useState(strategy?.name ?? '');
  const [title, setTitle] = useState(strategy?.title ?? '');
  const [description, setDescription] = useState(strategy?.description ?? '');
  const [parameters, setParameters] = useState<Parameter[]>(strategy?.parameters ?? []);
  const problem = parametersProblem(parameters);
  const save = useChange(() => {
    const body = {
      name: strategy?.name ?? name.trim(),
      title: title.trim() || null,
      description: description.trim() || null,
      parameters: parameters.map((p) => ({ ...p, name: p.name.trim(), description: p.description?.trim() ?? '' })),
    };
    return strategy
      ? ok(api.PUT('/api/admin/strategies/{strategyName}', { params: { path: { strategyName: strategy.name } }, body }))
      : ok(api.POST('/api/admin/strategies', { body }));
  }, ['strategies']);
  return (
    <FormDialog
      title={strategy ? `Edit strategy ${strategy.name}` : 'New strategy'}
      submitLabel={strategy ? 'Save strategy' : 'Create strategy'}
      size="xl"
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      done={strategy ? `Strategy ${name.trim()} saved.` : `Strategy ${name.trim()} created.`}
      disabled={problem !== undefined}
    >
      {strategy ? (
        <TextInput label="Name" description="A strategy cannot be renamed" value={name} readOnly />
      ) : (
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      )}
      <TextInput label="Title" maxLength={100} data-autofocus={strategy ? true : undefined} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <ParametersEditor parameters={parameters} onChange={setParameters} problem={problem} />
    </FormDialog>
  );
}

function ParametersEditor({ parameters, onChange, problem }: { parameters: Parameter[]; onChange: (parameters: Parameter[]) => void; problem: string | undefined }) {
  const set = (index: number, change: Partial<Parameter>) => onChange(parameters.map((p, i) => (i === index ? { ...p, ...change } : p)));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Parameters
      </Text>
      {parameters.map((p, index) => (
        <Paper key={index} withBorder p="xs" role="group" aria-label={`Parameter ${index + 1}`}>
          <Group align="flex-end" wrap="nowrap">
            <TextInput label="Parameter" required maxLength={100} value={p.name} onChange={(e) => set(index, { name: e.currentTarget.value })} />
            <Select label="Type" data={TYPES} value={p.type} onChange={(type) => type && set(index, { type: type as Parameter['type'] })} allowDeselect={false} w={130} />
            <TextInput label="Parameter description" maxLength={1000} value={p.description ?? ''} onChange={(e) => set(index, { description: e.currentTarget.value })} flex={1} />
            <Checkbox label="Required" checked={p.required ?? false} onChange={(e) => set(index, { required: e.currentTarget.checked })} mb={8} />
            <ActionIcon variant="subtle" color="red" aria-label={`Remove parameter ${p.name || index + 1}`} onClick={() => onChange(parameters.filter((_, i) => i !== index))} mb={4}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
      {problem && (
        <Text size="sm" c="red.8" role="status">
          {problem}
        </Text>
      )}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...parameters, { name: '', type: 'string', required: false }])}>
          Add parameter
        </Button>
      </Group>
    </Stack>
  );
}
