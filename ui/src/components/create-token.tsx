// The New API token dialog: a name (not blank, at most 100 characters; names need not be unique), a kind the user
// may create, and for SDK tokens an environment and projects. A refusal is said on the field it names.
import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { FREE_TEXT_NAME, useFieldErrors, useNameField } from '../lib/field-errors';
import { holdsSomewhere } from '../lib/permissions.js';
import { useEnvironments, useProjects } from '../queries';
import { useSession } from '../session';
import { confirmDone } from './confirm-done';

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
  const name = useNameField({ rule: FREE_TEXT_NAME });
  const [kind, setKind] = useState<TokenKind>(kinds[0]?.value ?? 'client');
  const [environment, setEnvironment] = useState<string | null>('development');
  const [chosenProjects, setChosenProjects] = useState<string[]>([]);

  const refusals = useFieldErrors({ tokenName: name, type: undefined, environment: undefined, projects: undefined });
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/admin/api-tokens', {
          body:
            kind === 'admin'
              ? { tokenName: name.value.trim(), type: 'admin' }
              : { tokenName: name.value.trim(), type: kind, environment: environment ?? 'development', projects: chosenProjects.length > 0 ? chosenProjects : ['*'] },
        }),
      ).catch(refusals.take),
    // A refusal (400) is said on the field it names.
    meta: { errorsOnFields: true },
    onSuccess: async (token) => {
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
      confirmDone(`Token ${token.tokenName} created.`);
      onCreated(token);
    },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    refusals.clear();
    // Nothing is sent while the name is refused (the field says why).
    if (await name.check()) create.mutate();
  };

  return (
    <Modal opened onClose={onClose} title="New API token">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" description="For people; several tokens may share a name" data-autofocus {...name.inputProps} />
          <Select
            label="Kind"
            data={kinds.map(({ value, label }) => ({ value, label }))}
            value={kind}
            onChange={(v) => v && setKind(v as TokenKind)}
            allowDeselect={false}
            error={refusals.of('type')}
          />
          {kind !== 'admin' && (
            <>
              <Select
                label="Environment"
                data={(environments.data ?? []).map((e) => e.name)}
                value={environment}
                onChange={setEnvironment}
                allowDeselect={false}
                error={refusals.of('environment')}
              />
              <MultiSelect
                label="Projects"
                placeholder={chosenProjects.length === 0 ? 'All projects' : undefined}
                data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={chosenProjects}
                onChange={setChosenProjects}
                searchable
                error={refusals.of('projects')}
              />
            </>
          )}
          {refusals.form && (
            <Alert color="red" role="alert">
              {refusals.form}
            </Alert>
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
