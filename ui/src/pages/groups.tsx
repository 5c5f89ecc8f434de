import { MultiSelect, Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange, useGroups, usersQuery } from '../queries';
import { useSession } from '../session';

export default function Groups() {
  const session = useSession();
  const groups = useGroups();
  const remove = useChange((groupId: number) => ok(api.DELETE('/api/admin/groups/{groupId}', { params: { path: { groupId } } })), ['groups']);
  return (
    <Page title="Groups" actions={<NewButton label="New group" allowed={session.can('createGroup')} dialog={(close) => <CreateGroup onClose={close} />} />}>
      <ListTable
        label="Groups"
        query={groups}
        rowKey={(g) => g.id}
        empty="No groups."
        columns={[
          { label: 'Name', cell: (g) => <strong>{g.name}</strong> },
          { label: 'Description', cell: (g) => g.description },
          { label: 'Members', cell: (g) => g.users.map((m) => m.user.name ?? m.user.username ?? m.user.email).join(', ') },
          {
            label: 'Actions',
            cell: (g) =>
              session.can('deleteGroup') && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${g.name}?`} onConfirm={() => remove.mutateAsync(g.id)}>
                  Its members lose the roles the group gave them.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateGroup({ onClose }: { onClose: () => void }) {
  const users = useQuery(usersQuery);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [rootRole, setRootRole] = useState<string | null>(null);
  const [members, setMembers] = useState<string[]>([]);
  const create = useChange(
    () =>
      ok(
        api.POST('/api/admin/groups', {
          body: {
            name: name.trim(),
            ...(description.trim() && { description: description.trim() }),
            rootRole: rootRole ? Number(rootRole) : null,
            users: members.map((id) => ({ user: { id: Number(id) } })),
          },
        }),
      ),
    ['groups'],
  );
  return (
    <FormDialog title="New group" submitLabel="Create group" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select
        label="Root role"
        placeholder="None"
        clearable
        data={(users.data?.rootRoles ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
        value={rootRole}
        onChange={setRootRole}
      />
      <MultiSelect
        label="Members"
        searchable
        data={(users.data?.users ?? []).map((u) => ({ value: String(u.id), label: u.name ?? u.username ?? u.email ?? `#${u.id}` }))}
        value={members}
        onChange={setMembers}
      />
    </FormDialog>
  );
}
