import { Badge, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { SecretOnceDialog } from '../components/secret-once';
import { holdsSomewhere } from '../lib/permissions.js';
import { useChange, useEnvironments, useProjects } from '../queries';
import { useSession } from '../session';

type TokenKind = 'client' | 'frontend' | 'admin';
type CreatedToken = components['schemas']['ApiTokenWithSecret'];

export default function ApiTokens() {
  const session = useSession();
  const tokens = useQuery({ queryKey: ['api-tokens'], queryFn: async () => (await ok(api.GET('/api/admin/api-tokens'))).tokens });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const remove = useChange((id: number) => ok(api.DELETE('/api/admin/api-tokens/{token}', { params: { path: { token: String(id) } } })), ['api-tokens']);
  const mayDelete = session.can('deleteApiToken');

  return (
    <Page
      title="API tokens"
      description="SDKs read flags with client (backend) and frontend tokens; admin tokens call the admin API."
      actions={
        session.canSomewhere('createApiToken') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New token
          </Button>
        )
      }
    >
      <ListTable
        label="API tokens"
        query={tokens}
        rowKey={(t) => t.id}
        empty="No tokens yet."
        columns={[
          { label: 'Name', cell: (t) => t.tokenName },
          {
            label: 'Kind',
            cell: (t) => (
              <Badge variant="default" tt="none">
                {t.type}
              </Badge>
            ),
          },
          { label: 'Projects', cell: (t) => t.projects.join(', ') },
          { label: 'Environment', cell: (t) => t.environment },
          { label: 'Created', cell: (t) => when(t.createdAt) },
          { label: 'Last used', cell: (t) => when(t.seenAt) || 'never' },
          mayDelete && {
            label: 'Actions',
            cell: (t) => (
              <ConfirmButton label="Revoke" size="xs" title={`Revoke ${t.tokenName}?`} onConfirm={() => remove.mutateAsync(t.id)}>
                Every SDK or script using this token is refused from now on.
              </ConfirmButton>
            ),
          },
        ]}
      />
      {creating && (
        <CreateToken
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
          }}
        />
      )}
      <SecretOnceDialog secret={created?.secret ?? null} onClose={() => setCreated(null)} />
    </Page>
  );
}

function CreateToken({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedToken) => void }) {
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
