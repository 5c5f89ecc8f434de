// The signed-in user's own page: who they are (GET /api/admin/user, their root role by getRole), their password, and
// their personal access tokens (listed without secrets; a new one's secret shown once; deleted behind a confirmation).
import { Button, Group, Table } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton, Empty } from '../components/feedback';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page, Section } from '../components/page';
import { OwnPasswordDialog, PERSONAL_TOKENS_KEY, PersonalTokenDialog } from '../components/profile-dialogs';
import { SecretOnceDialog } from '../components/secret-once';
import { useChange } from '../queries';
import { useSession } from '../session';

type User = components['schemas']['User'];

export default function Profile() {
  const { user } = useSession();
  return (
    <Page title="Your profile" description="Your account, your password and your personal access tokens.">
      {user ? (
        <>
          <Section title="Account">
            <Account user={user} />
          </Section>
          <Section title="Personal access tokens">
            <PersonalTokens />
          </Section>
        </>
      ) : (
        <Empty>The service runs without authentication: there is no user, and so no profile.</Empty>
      )}
    </Page>
  );
}

function Account({ user }: { user: User }) {
  const session = useSession();
  const role = useQuery({
    queryKey: ['roles', user.rootRole],
    queryFn: () => ok(api.GET('/api/admin/roles/{roleId}', { params: { path: { roleId: user.rootRole } } })),
  });
  const rows: [string, ReactNode][] = [
    ['Name', user.name ?? '—'],
    ['Username', user.username ?? '—'],
    ['Email', user.email ?? '—'],
    ['Root role', role.data?.name ?? (role.isError ? `Role ${user.rootRole}` : '…')],
  ];
  return (
    <>
      <Table aria-label="Account" variant="vertical" withTableBorder maw={560}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={140}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {session.can('changeOwnPassword') && (
        <Group>
          <DialogButton label="Change password" dialog={(close) => <OwnPasswordDialog onClose={close} />} />
        </Group>
      )}
    </>
  );
}

function PersonalTokens() {
  const session = useSession();
  const tokens = useQuery({ queryKey: PERSONAL_TOKENS_KEY, queryFn: async () => (await ok(api.GET('/api/admin/user/tokens'))).pats });
  const remove = useChange((tokenId: number) => ok(api.DELETE('/api/admin/user/tokens/{tokenId}', { params: { path: { tokenId } } })), PERSONAL_TOKENS_KEY);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      {session.can('createPersonalAccessToken') && (
        <Group>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New token
          </Button>
        </Group>
      )}
      <ListTable
        label="Personal access tokens"
        query={tokens}
        rowKey={(t) => t.id}
        empty="No personal access tokens yet — create one to call the admin API as yourself from a script."
        columns={[
          { label: 'Description', cell: (t) => t.description },
          { label: 'Created', cell: (t) => when(t.createdAt) },
          { label: 'Expires', cell: (t) => when(t.expiresAt) },
          { label: 'Last seen', cell: (t) => when(t.seenAt) || 'never' },
          session.can('deletePersonalAccessToken') && {
            label: 'Actions',
            cell: (t) => (
              <ConfirmButton label="Delete" size="xs" title={`Delete ${t.description}?`} done={`${t.description} deleted.`} onConfirm={() => remove.mutateAsync(t.id)}>
                Every script using this token is refused from now on.
              </ConfirmButton>
            ),
          },
        ]}
      />
      {creating && <PersonalTokenDialog onClose={() => setCreating(false)} onCreated={(token) => setSecret(token.secret)} />}
      <SecretOnceDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
