import { Badge, MultiSelect, Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange } from '../queries';
import { useSession } from '../session';

export default function Roles() {
  const session = useSession();
  const roles = useQuery({ queryKey: ['roles'], queryFn: async () => (await ok(api.GET('/api/admin/roles'))).roles });
  const remove = useChange((roleId: number) => ok(api.DELETE('/api/admin/roles/{roleId}', { params: { path: { roleId } } })), ['roles']);
  return (
    <Page
      title="Roles"
      description="Root roles hold everywhere; project roles in the projects they are given in."
      actions={<NewButton label="New role" allowed={session.can('createRole')} dialog={(close) => <CreateRole onClose={close} />} />}
    >
      <ListTable
        label="Roles"
        query={roles}
        rowKey={(r) => r.id}
        empty="No roles."
        columns={[
          { label: 'Name', cell: (r) => <strong>{r.name}</strong> },
          {
            label: 'Kind',
            cell: (r) => (
              <Badge variant="default" tt="none">
                {r.type}
              </Badge>
            ),
          },
          { label: 'Description', cell: (r) => r.description },
          {
            label: 'Actions',
            cell: (r) =>
              session.can('deleteRole') &&
              (r.type === 'custom' || r.type === 'root-custom') && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${r.name}?`} onConfirm={() => remove.mutateAsync(r.id)}>
                  A role can be deleted once no user or group holds it.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateRole({ onClose }: { onClose: () => void }) {
  const permissions = useQuery({ queryKey: ['permissions'], queryFn: async () => (await ok(api.GET('/api/admin/permissions'))).permissions });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<'root-custom' | 'custom'>('custom');
  const [chosen, setChosen] = useState<string[]>([]);
  const available = type === 'root-custom' ? (permissions.data?.root ?? []) : (permissions.data?.project ?? []);
  const create = useChange(
    () =>
      ok(api.POST('/api/admin/roles', { body: { name: name.trim(), type, ...(description.trim() && { description: description.trim() }), permissions: chosen.map((p) => ({ name: p })) } })),
    ['roles'],
  );
  return (
    <FormDialog title="New role" submitLabel="Create role" size="lg" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select
        label="Kind"
        data={[
          { value: 'custom', label: 'Project role' },
          { value: 'root-custom', label: 'Root role' },
        ]}
        value={type}
        onChange={(v) => {
          if (v) setType(v as typeof type);
          setChosen([]);
        }}
        allowDeselect={false}
      />
      <MultiSelect label="Permissions" searchable data={available.map((p) => ({ value: p.name, label: p.displayName }))} value={chosen} onChange={setChosen} />
    </FormDialog>
  );
}
