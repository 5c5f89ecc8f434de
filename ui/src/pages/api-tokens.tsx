import { Badge, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { SdkUrls } from '../components/connect-sdk/sdk-urls';
import { TokenSnippets } from '../components/connect-sdk/token-snippets';
import { ConfirmButton } from '../components/feedback';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page, Section } from '../components/page';
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
  const mayCreate = session.canSomewhere('createApiToken');

  return (
    <Page
      title="API tokens"
      description="SDKs read flags with client (backend) and frontend tokens; admin tokens call the admin API."
      actions={
        mayCreate && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New token
          </Button>
        )
      }
    >
      <SdkUrls />
      <Section title="Tokens">
        {tokens.data?.length === 0 ? (
          <Stack gap="xs" align="flex-start" py="md">
            <Text c="gray.7">
              {mayCreate
                ? 'No tokens yet — create a client token to connect a backend SDK, or a frontend token for a browser or mobile app.'
                : 'No tokens yet. Someone allowed to create API tokens can make one for each application.'}
            </Text>
            {mayCreate && (
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                Create your first token
              </Button>
            )}
          </Stack>
        ) : (
          <ListTable
            label="API tokens"
            query={tokens}
            rowKey={(t) => t.id}
            empty=""
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
                  <ConfirmButton label="Revoke" size="xs" title={`Revoke ${t.tokenName}?`} done={`Token ${t.tokenName} revoked.`} onConfirm={() => remove.mutateAsync(t.id)}>
                    Every SDK or script using this token is refused from now on.
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </Section>
      {creating && (
        <CreateToken
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
          }}
        />
      )}
      <SecretOnceDialog secret={created?.secret ?? null} onClose={() => setCreated(null)}>
        {created && <TokenSnippets kind={created.type} secret={created.secret} appName={created.tokenName} />}
      </SecretOnceDialog>
    </Page>
  );
}
