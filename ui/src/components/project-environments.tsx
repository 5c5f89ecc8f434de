import { Badge, Button, CloseButton, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../api';
import { useChange, useEnvironments } from '../queries';
import { confirmDone } from './confirm-done';
import { AddPopover } from './forms';

/** A project's environments; added and removed in place when the user may, each change confirmed. `name` is the project's name (its id when absent). */
export function ProjectEnvironments({
  project,
  name = project,
  environments,
  canAdd,
  canRemove,
}: {
  project: string;
  name?: string;
  environments: string[];
  canAdd: boolean;
  canRemove: boolean;
}) {
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = useChange(
    (environment: string) => ok(api.DELETE('/api/admin/projects/{projectId}/environments/{environment}', { params: { path: { projectId: project, environment } } })),
    ['projects'],
    ['flag', project],
  );
  return (
    <Group gap={4} role="group" aria-label={`Environments of ${name}`}>
      {environments.map((e) => (
        <Badge
          key={e}
          variant="default"
          tt="none"
          rightSection={canRemove && <CloseButton size="xs" aria-label={`Remove ${e} from ${name}`} onClick={() => setRemoving(e)} />}
        >
          {e}
        </Badge>
      ))}
      {canAdd && <AddEnvironment project={project} name={name} enabled={environments} />}
      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title={`Remove ${removing ?? ''} from ${name}?`}>
        <Stack>
          <Text>The project's flags lose their state, strategies and variants in {removing}.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() =>
                removing &&
                remove.mutateAsync(removing).then(
                  () => {
                    setRemoving(null);
                    confirmDone(`${removing} removed from ${name}.`);
                  },
                  () => {},
                )
              }>
              Remove
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function AddEnvironment({ project, name, enabled }: { project: string; name: string; enabled: string[] }) {
  const [environment, setEnvironment] = useState<string | null>(null);
  const all = useEnvironments();
  const add = useChange(
    (name: string) => ok(api.POST('/api/admin/projects/{projectId}/environments', { params: { path: { projectId: project } }, body: { environment: name } })),
    ['projects'],
    ['flag', project],
  );
  const options = (all.data ?? []).map((e) => e.name).filter((name) => !enabled.includes(name));
  return (
    <AddPopover
      label="Add"
      ariaLabel={`Add an environment to ${name}`}
      compact
      width={220}
      disabled={!environment}
      done={environment ? `${environment} added to ${name}.` : undefined}
      onSubmit={async () => {
        if (!environment) return;
        await add.mutateAsync(environment);
        setEnvironment(null);
      }}
    >
      <Select label="Environment" data={options} value={environment} onChange={setEnvironment} comboboxProps={{ withinPortal: false }} required />
    </AddPopover>
  );
}
