import { ActionIcon, Badge, Button, Checkbox, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange, useStrategies } from '../queries';
import { useSession } from '../session';

type Parameter = components['schemas']['StrategyParameterDefinition'];

export default function Strategies() {
  const session = useSession();
  const strategies = useStrategies();
  const path = (strategyName: string) => ({ params: { path: { strategyName } } });
  const deprecate = useChange(
    ({ name, deprecated }: { name: string; deprecated: boolean }) =>
      deprecated ? ok(api.POST('/api/admin/strategies/{strategyName}/reactivate', path(name))) : ok(api.POST('/api/admin/strategies/{strategyName}/deprecate', path(name))),
    ['strategies'],
  );
  const remove = useChange((name: string) => ok(api.DELETE('/api/admin/strategies/{strategyName}', path(name))), ['strategies']);
  return (
    <Page
      title="Strategies"
      description="How a flag decides who gets it; custom strategies are evaluated by SDKs that implement them."
      actions={<NewButton label="New strategy" allowed={session.can('createStrategy')} dialog={(close) => <CreateStrategy onClose={close} />} />}
    >
      <ListTable
        label="Strategies"
        query={strategies}
        rowKey={(s) => s.name}
        empty="No strategies."
        columns={[
          {
            label: 'Strategy',
            cell: (s) => (
              <Group gap="xs">
                <Text fw={600}>{s.displayName ?? s.title ?? s.name}</Text>
                {!s.editable && <Badge variant="default">built in</Badge>}
                {s.deprecated && (
                  <Badge color="red" variant="outline">
                    deprecated
                  </Badge>
                )}
              </Group>
            ),
          },
          { label: 'Name', cell: (s) => s.name },
          { label: 'Parameters', cell: (s) => s.parameters.map((p) => `${p.name} (${p.type})`).join(', ') },
          {
            label: 'Actions',
            cell: (s) => (
              <Group gap="xs">
                {session.can('deprecateStrategy') && (
                  <Button size="xs" variant="default" onClick={() => deprecate.mutate({ name: s.name, deprecated: s.deprecated })}>
                    {s.deprecated ? 'Reactivate' : 'Deprecate'}
                  </Button>
                )}
                {s.editable && session.can('deleteStrategy') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${s.name}?`} onConfirm={() => remove.mutateAsync(s.name)}>
                    A strategy can be deleted once no flag uses it.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}

function CreateStrategy({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [title, setTitle] = useState('');
  const [parameters, setParameters] = useState<Parameter[]>([]);
  const set = (index: number, change: Partial<Parameter>) => setParameters(parameters.map((p, i) => (i === index ? { ...p, ...change } : p)));
  const create = useChange(() => ok(api.POST('/api/admin/strategies', { body: { name: name.trim(), title: title.trim() || null, parameters } })), ['strategies']);
  return (
    <FormDialog title="New strategy" submitLabel="Create strategy" size="lg" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
      <Stack gap="xs">
        {parameters.map((p, index) => (
          <Group key={index} align="flex-end" role="group" aria-label={`Parameter ${index + 1}`}>
            <TextInput label="Parameter" required value={p.name} onChange={(e) => set(index, { name: e.currentTarget.value })} />
            <Select label="Type" data={['string', 'percentage', 'list', 'number', 'boolean']} value={p.type} onChange={(type) => type && set(index, { type: type as Parameter['type'] })} allowDeselect={false} w={130} />
            <Checkbox label="Required" checked={p.required ?? false} onChange={(e) => set(index, { required: e.currentTarget.checked })} mb={8} />
            <ActionIcon variant="subtle" color="red" aria-label={`Remove parameter ${index + 1}`} onClick={() => setParameters(parameters.filter((_, i) => i !== index))} mb={4}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setParameters([...parameters, { name: '', type: 'string', required: false }])}>
            Add parameter
          </Button>
        </Group>
      </Stack>
    </FormDialog>
  );
}
