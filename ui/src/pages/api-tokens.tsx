import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { SecretOnceDialog } from '../components/secret-once';
import { CreateToken, type CreatedToken } from '../components/create-token';
import { useChange } from '../queries';
import { useSession } from '../session';


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
