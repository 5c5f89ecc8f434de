// Whether people may sign in with a password (getPasswordAuthSettings, setPasswordAuthSettings). Turning it off needs
// an identity provider: the service refuses with 400 otherwise, which the switch explains in plain words.
import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, errorMessage, ok } from '../api';
import { useChange } from '../queries';
import { useSession } from '../session';
import { PageLoader, QueryError } from './feedback';
import { PASSWORD_KEY } from './sso-fields';

/** Why a change was refused: a 400 here can only mean no identity provider is configured. */
const refusalOf = (error: unknown) =>
  error instanceof ApiError && error.status === 400
    ? 'Password sign-in can only be turned off once an identity provider (OpenID Connect or SAML) is configured: configure one above first.'
    : errorMessage(error);

export function PasswordSignInSetting() {
  const session = useSession();
  const stored = useQuery({ queryKey: PASSWORD_KEY, queryFn: () => ok(api.GET('/api/admin/auth/simple/settings')) });
  const change = useChange((disabled: boolean) => ok(api.POST('/api/admin/auth/simple/settings', { body: { disabled } })), PASSWORD_KEY);
  if (stored.isPending) return <PageLoader />;
  if (stored.isError) return <QueryError error={stored.error} />;
  return (
    <Stack gap="xs">
      <Switch
        label="Password sign-in"
        description="Root Admins keep signing in with their password either way, and API tokens keep working."
        checked={!stored.data.disabled}
        disabled={!session.can('setPasswordAuthSettings') || change.isPending}
        onChange={(e) => change.mutate(!e.currentTarget.checked)}
      />
      {change.isError && (
        <Alert color="red" role="alert" title="Not changed">
          {refusalOf(change.error)}
        </Alert>
      )}
      {change.isSuccess && (
        <Text size="sm" role="status">
          Saved: password sign-in is {change.data.disabled ? 'off for everyone but root Admins' : 'on'}.
        </Text>
      )}
    </Stack>
  );
}
