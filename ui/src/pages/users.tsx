import { PasswordInput, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton, when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange } from '../queries';
import { useSession } from '../session';

const usersQuery = { queryKey: ['users'], queryFn: () => ok(api.GET('/api/admin/user-admin')) };

export default function Users() {
  const session = useSession();
  // One answer, read twice: the users, and the root roles they can have.
  const users = useQuery({ ...usersQuery, select: (answer) => answer.users });
  const roles = useQuery({ ...usersQuery, select: (answer) => answer.rootRoles });
  const remove = useChange((id: number) => ok(api.DELETE('/api/admin/user-admin/{id}', { params: { path: { id } } })), ['users']);
  const roleName = (id: number) => roles.data?.find((r) => r.id === id)?.name ?? `#${id}`;
  return (
    <Page title="Users" actions={<NewButton label="New user" allowed={session.can('createUser')} dialog={(close) => <CreateUser onClose={close} roles={(roles.data ?? []).map((r) => r.name)} />} />}>
      <ListTable
        label="Users"
        query={users}
        rowKey={(u) => u.id}
        empty="No users."
        columns={[
          { label: 'Name', cell: (u) => <strong>{u.name ?? u.username ?? u.email}</strong> },
          { label: 'Username', cell: (u) => u.username ?? '' },
          { label: 'Email', cell: (u) => u.email ?? '' },
          { label: 'Root role', cell: (u) => roleName(u.rootRole) },
          { label: 'Last seen', cell: (u) => when(u.seenAt) || 'never' },
          {
            label: 'Actions',
            cell: (u) =>
              session.can('deleteUser') &&
              u.id !== session.user?.id && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${u.name ?? u.username ?? u.email}?`} onConfirm={() => remove.mutateAsync(u.id)}>
                  Their sessions and personal access tokens end at once.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateUser({ onClose, roles }: { onClose: () => void; roles: string[] }) {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string | null>('Viewer');
  const create = useChange(
    () =>
      ok(
        api.POST('/api/admin/user-admin', {
          body: {
            rootRole: role ?? 'Viewer',
            ...(username.trim() && { username: username.trim() }),
            ...(email.trim() && { email: email.trim() }),
            ...(name.trim() && { name: name.trim() }),
            ...(password && { password }),
          },
        }),
      ),
    ['users'],
  );
  return (
    <FormDialog title="New user" submitLabel="Create user" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Username" data-autofocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
      <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <PasswordInput label="Password" description="At least 10 characters, not a common one" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Select label="Root role" data={roles} value={role} onChange={setRole} allowDeselect={false} />
    </FormDialog>
  );
}
