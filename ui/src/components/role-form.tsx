// A custom role's dialog: empty to create one (createRole), or prefilled with a role to replace its name,
// description and permissions (updateRole, which takes the role whole). Its kind is chosen once: a root role holds
// root permissions, a project role project permissions and environment permissions in chosen environments.
import { MultiSelect, Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { FormDialog } from './forms';

type Role = components['schemas']['Role'];
type Permission = components['schemas']['Permission'];
type Kind = components['schemas']['UpsertRole']['type'];

const KINDS: { value: Kind; label: string }[] = [
  { value: 'custom', label: 'Project role' },
  { value: 'root-custom', label: 'Root role' },
];

/** A permission as one option's value: its name, and for an environment permission the environment after a colon. */
const valueOf = (p: { name: string; environment?: string }) => (p.environment === undefined ? p.name : `${p.name}:${p.environment}`);

function grantOf(value: string) {
  const [name, environment] = value.split(':') as [string, string | undefined];
  return environment === undefined ? { name } : { name, environment };
}

const optionsOf = (permissions: Permission[]) => permissions.map((p) => ({ value: valueOf(p), label: p.environment === undefined ? p.displayName : `${p.displayName} in ${p.environment}` }));

/** The permissions a role of the kind may hold, as grouped options. */
function usePermissionOptions(kind: Kind) {
  const listing = useQuery({ queryKey: ['permissions'], queryFn: async () => (await ok(api.GET('/api/admin/permissions'))).permissions });
  if (!listing.data) return [];
  if (kind === 'root-custom') return [{ group: 'Root', items: optionsOf(listing.data.root) }];
  return [
    { group: 'Project', items: optionsOf(listing.data.project) },
    ...listing.data.environments.map((e) => ({ group: `Environment ${e.name}`, items: optionsOf(e.permissions) })),
  ];
}

/** A custom role, from the list: the role's permissions are read when it is edited (the list has none). */
export function RoleDialog({ role, onClose }: { role?: Role; onClose: () => void }) {
  const current = useQuery({
    queryKey: ['roles', role?.id],
    queryFn: () => ok(api.GET('/api/admin/roles/{roleId}', { params: { path: { roleId: role!.id } } })),
    enabled: role !== undefined,
  });
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [kind, setKind] = useState<Kind>(role?.type === 'root-custom' ? 'root-custom' : 'custom');
  // Undefined until changed: the role's current permissions once they are read.
  const [chosen, setChosen] = useState<string[] | undefined>(role ? undefined : []);
  const permissions = chosen ?? current.data?.permissions.map(valueOf) ?? [];
  const options = usePermissionOptions(kind);
  const save = useChange(() => {
    const body = { name: name.trim(), description: description.trim(), type: kind, permissions: permissions.map(grantOf) };
    return role ? ok(api.PUT('/api/admin/roles/{roleId}', { params: { path: { roleId: role.id } }, body })) : ok(api.POST('/api/admin/roles', { body }));
  }, ['roles']);
  return (
    <FormDialog
      title={role ? `Edit role ${role.name}` : 'New role'}
      submitLabel={role ? 'Save role' : 'Create role'}
      size="lg"
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      done={role ? `Role ${name.trim()} saved.` : `Role ${name.trim()} created.`}
      disabled={chosen === undefined && !current.data}
    >
      <TextInput label="Name" required data-autofocus maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" maxLength={255} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select
        label="Kind"
        description={role ? "A role's kind cannot change" : undefined}
        data={KINDS}
        value={kind}
        onChange={(v) => {
          if (v) setKind(v as Kind);
          setChosen([]);
        }}
        readOnly={Boolean(role)}
        allowDeselect={false}
      />
      <MultiSelect
        label="Permissions"
        description={current.isError ? `Its permissions could not be read: ${current.error.message}` : undefined}
        searchable
        data={options}
        value={permissions}
        onChange={setChosen}
      />
    </FormDialog>
  );
}
