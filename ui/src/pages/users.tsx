import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton, when } from '../components/forms';
import { InviteLinks } from '../components/invite-links';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { PasswordDialog, UserDialog } from '../components/user-dialogs';
import { userName } from '../components/user-picker';
import { useChange, usersQuery } from '../queries';
import { useSession } from '../session';


export default function Users() {
  const session = useSession();
  // One answer, read twice: the users, and the root roles they can have.
  const users = useQuery({ ...usersQuery, select: (answer) => answer.users });
  const roles = useQuery({ ...usersQuery, select: (answer) => answer.rootRoles });
  const remove = useChange((id: number) => ok(api.DELETE('/api/admin/user-admin/{id}', { params: { path: { id } } })), ['users']);
  const roleName = (id: number) => roles.data?.find((r) => r.id === id)?.name ?? `#${id}`;
  const rootRoles = roles.data ?? [];
  return (
    <Page title="Users" actions={<NewButton label="New user" allowed={session.can('createUser')} dialog={(close) => <UserDialog onClose={close} roles={rootRoles} />} />}>
      <ListTable
        label="Users"
        query={users}
        rowKey={(u) => u.id}
        empty="No users."
        columns={[
          { label: 'Name', cell: (u) => <strong>{userName(u)}</strong> },
          { label: 'Username', cell: (u) => u.username ?? '' },
          { label: 'Email', cell: (u) => u.email ?? '' },
          { label: 'Root role', cell: (u) => roleName(u.rootRole) },
          { label: 'Last seen', cell: (u) => when(u.seenAt) || 'never' },
          {
            label: 'Actions',
            cell: (u) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateUser') && <DialogButton label="Edit" ariaLabel={`Edit ${userName(u)}`} dialog={(close) => <UserDialog user={u} roles={rootRoles} onClose={close} />} />}
                {session.can('changeUserPassword') && (
                  <DialogButton label="Set password" ariaLabel={`Set password for ${userName(u)}`} dialog={(close) => <PasswordDialog user={u} onClose={close} />} />
                )}
                {session.can('deleteUser') && u.id !== session.user?.id && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${userName(u)}?`} done={`${userName(u)} deleted.`} onConfirm={() => remove.mutateAsync(u.id)}>
                    Their sessions and personal access tokens end at once.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
      <InviteLinks />
    </Page>
  );
}
