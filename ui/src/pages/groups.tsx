import { Group } from '@mantine/core';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { GroupDialog } from '../components/group-form';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { userName } from '../components/user-picker';
import { useChange, useGroups } from '../queries';
import { useSession } from '../session';

export default function Groups() {
  const session = useSession();
  const groups = useGroups();
  const remove = useChange((groupId: number) => ok(api.DELETE('/api/admin/groups/{groupId}', { params: { path: { groupId } } })), ['groups']);
  return (
    <Page title="Groups" actions={<NewButton label="New group" allowed={session.can('createGroup')} dialog={(close) => <GroupDialog onClose={close} />} />}>
      <ListTable
        label="Groups"
        query={groups}
        rowKey={(g) => g.id}
        empty="No groups yet — create one to give several people the same roles at once."
        columns={[
          { label: 'Name', cell: (g) => <strong>{g.name}</strong> },
          { label: 'Description', cell: (g) => g.description },
          { label: 'Members', cell: (g) => g.users.map((m) => userName(m.user)).join(', ') },
          {
            label: 'Actions',
            cell: (g) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateGroup') && <DialogButton label="Edit" ariaLabel={`Edit ${g.name}`} dialog={(close) => <GroupDialog group={g} onClose={close} />} />}
                {session.can('deleteGroup') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${g.name}?`} done={`${g.name} deleted.`} onConfirm={() => remove.mutateAsync(g.id)}>
                    Its members lose the roles the group gave them.
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
