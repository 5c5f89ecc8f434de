import { Badge, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { RoleDialog } from '../components/role-form';
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
      actions={<NewButton label="New role" allowed={session.can('createRole')} dialog={(close) => <RoleDialog onClose={close} />} />}
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
              // Built-in roles cannot change.
              (r.type === 'custom' || r.type === 'root-custom') && (
                <Group gap="xs" wrap="nowrap">
                  {session.can('updateRole') && <DialogButton label="Edit" ariaLabel={`Edit ${r.name}`} dialog={(close) => <RoleDialog role={r} onClose={close} />} />}
                  {session.can('deleteRole') && (
                    <ConfirmButton label="Delete" size="xs" title={`Delete ${r.name}?`} done={`${r.name} deleted.`} onConfirm={() => remove.mutateAsync(r.id)}>
                      A role can be deleted once no user or group holds it.
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
