// The Users page's invite links (public signup tokens): listed (getSignupTokens), created with a name and an expiry
// (createSignupToken; whoever joins gets the Viewer root role, the contract offers no other), their link copied,
// their expiry changed, disabled or enabled again (updateSignupToken). Shown only to who may list them.
import { Button, Code, CopyButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { isoToLocalInput, localInputToIso } from '../lib/constraints';
import { useChange } from '../queries';
import { useSession } from '../session';
import { DialogButton } from './dialog-button';
import { ConfirmButton } from './feedback';
import { FormDialog, NewButton, when } from './forms';
import { ListTable } from './list';
import { confirmDone } from './confirm-done';

type SignupToken = components['schemas']['SignupToken'];
type TokenChange = components['schemas']['UpdateSignupToken'];

const TOKENS_KEY = ['invite-links'];
const WEEK_MS = 7 * 24 * 3_600_000;

const isExpired = (token: SignupToken) => Date.parse(token.expiresAt) <= Date.now();

function useUpdateToken() {
  return useChange(
    ({ secret, change }: { secret: string; change: TokenChange }) => ok(api.PUT('/api/admin/invite-link/tokens/{token}', { params: { path: { token: secret } }, body: change })),
    TOKENS_KEY,
  );
}

export function InviteLinks() {
  const session = useSession();
  const tokens = useQuery({
    queryKey: TOKENS_KEY,
    queryFn: async () => (await ok(api.GET('/api/admin/invite-link/tokens'))).tokens,
    enabled: session.can('getSignupTokens'),
  });
  const update = useUpdateToken();
  if (!session.can('getSignupTokens')) return null;
  const mayUpdate = session.can('updateSignupToken');
  return (
    <Stack gap={4} component="section" aria-label="Invite links" mt="lg">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Invite links
        </Title>
        <NewButton label="New invite link" allowed={session.can('createSignupToken')} dialog={(close) => <NewInviteLinkDialog onClose={close} />} />
      </Group>
      <Text size="sm" c="gray.7">
        Whoever opens a usable link (enabled and not expired) can create an account, which gets the link's root role.
      </Text>
      <ListTable
        label="Invite links"
        query={tokens}
        rowKey={(t) => t.secret}
        empty="No invite links yet — create one to let people sign up themselves."
        columns={[
          { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
          { label: 'Root role', cell: (t) => t.role.name },
          { label: 'Link', cell: (t) => <InviteLink token={t} /> },
          { label: 'Expires', cell: (t) => when(t.expiresAt) },
          { label: 'Status', cell: (t) => <Status token={t} /> },
          { label: 'Joined', cell: (t) => t.users?.length ?? 0 },
          { label: 'Created by', cell: (t) => t.createdBy ?? '' },
          mayUpdate && {
            label: 'Actions',
            cell: (t) => (
              <Group gap="xs" wrap="nowrap">
                <DialogButton label="Change expiry" ariaLabel={`Change expiry of ${t.name}`} dialog={(close) => <ExpiryDialog token={t} onClose={close} />} />
                {t.enabled ? (
                  <ConfirmButton
                    label="Disable"
                    size="xs"
                    title={`Disable ${t.name}?`}
                    done={`${t.name} disabled.`}
                    onConfirm={() => update.mutateAsync({ secret: t.secret, change: { enabled: false } })}
                  >
                    Nobody can sign up with this link any more, until it is enabled again.
                  </ConfirmButton>
                ) : (
                  !isExpired(t) && (
                    <Button variant="light" size="xs" aria-label={`Enable ${t.name}`} loading={update.isPending && update.variables?.secret === t.secret} onClick={() => update.mutate({ secret: t.secret, change: { enabled: true } }, { onSuccess: () => confirmDone(`${t.name} enabled.`) })}>
                      Enable
                    </Button>
                  )
                )}
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

function Status({ token }: { token: SignupToken }) {
  return (
    <Text size="sm" fw={token.enabled ? 600 : undefined}>
      {token.enabled ? 'Usable' : isExpired(token) ? 'Expired' : 'Disabled'}
    </Text>
  );
}

/** The link to share (or, when the service has no public address to build one, the secret it would carry). */
function InviteLink({ token }: { token: SignupToken }) {
  const value = token.url ?? token.secret;
  return (
    <Stack gap={4} align="flex-start">
      <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="subtle"
            size="compact-xs"
            aria-label={`${copied ? 'Copied' : 'Copy'} the link of ${token.name}`}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={copy}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Stack>
  );
}

function ExpiryInput({ value, onChange, autoFocus }: { value: string; onChange: (value: string) => void; autoFocus?: boolean }) {
  return (
    <TextInput label="Expires at" description="Your local time" type="datetime-local" required data-autofocus={autoFocus} value={value} onChange={(e) => onChange(e.currentTarget.value)} />
  );
}

function NewInviteLinkDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(() => isoToLocalInput(new Date(Date.now() + WEEK_MS).toISOString()));
  const expiresAt = localInputToIso(expiry);
  const create = useChange(() => ok(api.POST('/api/admin/invite-link/tokens', { body: { name: name.trim(), expiresAt } })), TOKENS_KEY);
  return (
    <FormDialog title="New invite link" submitLabel="Create invite link" onClose={onClose} disabled={name.trim() === '' || !expiresAt} onSubmit={() => create.mutateAsync()} done={`Invite link ${name.trim()} created.`}>
      <TextInput label="Name" description="Says what the link is for" required maxLength={255} data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Root role" description="Everyone who joins with an invite link gets the Viewer root role" value="Viewer" readOnly />
      <ExpiryInput value={expiry} onChange={setExpiry} />
    </FormDialog>
  );
}

function ExpiryDialog({ token, onClose }: { token: SignupToken; onClose: () => void }) {
  const [expiry, setExpiry] = useState(isoToLocalInput(token.expiresAt));
  const expiresAt = localInputToIso(expiry);
  const update = useUpdateToken();
  return (
    <FormDialog title={`Change the expiry of ${token.name}`} submitLabel="Save expiry" onClose={onClose} disabled={!expiresAt} onSubmit={() => update.mutateAsync({ secret: token.secret, change: { expiresAt } })} done={`Expiry of ${token.name} saved.`}>
      <Text size="sm">The link can be used until this time, while it is enabled. A time in the past ends it at once.</Text>
      <ExpiryInput value={expiry} onChange={setExpiry} autoFocus />
    </FormDialog>
  );
}
