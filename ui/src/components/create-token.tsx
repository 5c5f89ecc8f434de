// The New API token dialog: a name, a kind the user may create, and for SDK tokens an environment and projects.
import { Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { holdsSomewhere } from '../lib/permissions.js';
import { useEnvironments, useProjects } from '../queries';
import { useSession } from '../session';

type TokenKind = 'client' | 'frontend' | 'admin';
export type CreatedToken = components['schemas']['ApiTokenWithSecret'];

export function CreateToken({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedToken) => void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const projects = useProjects();
  const environments = useEnvironments();
  const kinds = (
    [
      { value: 'client', label: 'Client (backend SDKs)', permission: 'CREATE_CLIENT_API_TOKEN' },
      { value: 'frontend', label: 'Frontend (browser and mobile SDKs)', permission: 'CREATE_FRONTEND_API_TOKEN' },
      { value: 'admin', label: 'Admin (the admin API)', permission: 'ADMIN' },
    ] as const
  ).filter((kind) => holdsSomewhere(session.caller, kind.permission));
  const [name, setName] = useState('');
  const [kind, setKind] = useState<TokenKind>(kinds[0]?.value ?? 'client');
  const [environment, setEnvironment] = useState<string | null>('development');
  const [chosenProjects, setChosenProjects] = useState<string[]>([]);

  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/admin/api-tokens', {
          body:
            kind === 'admin'
              ? { tokenName: name.trim(), type: 'admin' }
              : { tokenName: name.trim(), type: kind, environment: environment ?? 'development', projects: chosenProjects.length > 0 ? chosenProjects : ['*'] },
        }),
      ),
    onSuccess: async (token) => {
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
      onCreated(token);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Modal opened onClose={onClose} title="New API token">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Select label="Kind" data={kinds.map(({ value, label }) => ({ value, label }))} value={kind} onChange={(v) => v && setKind(v as TokenKind)} allowDeselect={false} />
          {kind !== 'admin' && (
            <>
              <Select label="Environment" data={(environments.data ?? []).map((e) => e.name)} value={environment} onChange={setEnvironment} allowDeselect={false} />
              <MultiSelect
                label="Projects"
                placeholder={chosenProjects.length === 0 ? 'All projects' : undefined}
                data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={chosenProjects}
                onChange={setChosenProjects}
                searchable
              />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
