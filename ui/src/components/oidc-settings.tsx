// The OpenID Connect settings as a form (getOidcSettings), saved whole (setOidcSettings) or removed
// (deleteOidcSettings). The service answers the client secret masked, and a save replaces the settings whole with
// the secret required: the form never shows the stored secret, and asks for it again on every save.
import { Badge, Button, Group, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { useSession } from '../session';
import { ConfirmButton, PageLoader, QueryError } from './feedback';

type Stored = components['schemas']['OidcSettings'];
type Settings = components['schemas']['SetOidcSettings'];
type BuiltInRole = NonNullable<Settings['defaultRootRole']>;
type Algorithm = NonNullable<Settings['idTokenSigningAlgorithm']>;

const OIDC_KEY = ['oidc-settings'];
const BUILT_IN_ROLES: BuiltInRole[] = ['Viewer', 'Editor', 'Admin'];
const ALGORITHMS: Algorithm[] = ['RS256', 'RS384', 'RS512'];

const isBuiltInRole = (value: string): value is BuiltInRole => (BUILT_IN_ROLES as string[]).includes(value);
const isAlgorithm = (value: string | null): value is Algorithm => (ALGORITHMS as (string | null)[]).includes(value);

/** The root roles users can be given at their first sign-in: built-in ones by name, custom ones by id. */
function useRootRoleOptions() {
  const roles = useQuery({ queryKey: ['roles'], queryFn: async () => (await ok(api.GET('/api/admin/roles'))).roles });
  const custom = (roles.data ?? []).filter((role) => role.type === 'root-custom').map((role) => ({ value: String(role.id), label: role.name }));
  return [...BUILT_IN_ROLES.map((name) => ({ value: name, label: name })), ...custom];
}

interface Draft {
  clientId: string;
  secret: string;
  discoverUrl: string;
  autoCreate: boolean;
  enableSingleSignOut: boolean;
  /** A built-in role's name, or a custom root role's id. */
  rootRole: string | null;
  emailDomains: string;
  acrValues: string;
  idTokenSigningAlgorithm: string | null;
  enableGroupSyncing: boolean;
  groupJsonPath: string;
  addGroupsScope: boolean;
}

const draftOf = (stored: Stored): Draft => ({
  clientId: stored.clientId ?? '',
  secret: '',
  discoverUrl: stored.discoverUrl ?? '',
  autoCreate: stored.autoCreate ?? false,
  enableSingleSignOut: stored.enableSingleSignOut ?? false,
  rootRole: stored.defaultRootRole ?? (stored.defaultRootRoleId === undefined ? null : String(stored.defaultRootRoleId)),
  emailDomains: stored.emailDomains ?? '',
  acrValues: stored.acrValues ?? '',
  idTokenSigningAlgorithm: stored.idTokenSigningAlgorithm ?? null,
  enableGroupSyncing: stored.enableGroupSyncing ?? false,
  groupJsonPath: stored.groupJsonPath ?? '',
  addGroupsScope: stored.addGroupsScope ?? false,
});

/** The settings to send; an empty text is left out. */
function settingsOf(draft: Draft): Settings {
  const text = (value: string) => value.trim() || undefined;
  const role = draft.rootRole;
  return {
    enabled: true,
    clientId: draft.clientId.trim(),
    secret: draft.secret,
    discoverUrl: text(draft.discoverUrl),
    autoCreate: draft.autoCreate,
    enableSingleSignOut: draft.enableSingleSignOut,
    ...(role !== null && (isBuiltInRole(role) ? { defaultRootRole: role } : { defaultRootRoleId: Number(role) })),
    emailDomains: text(draft.emailDomains),
    acrValues: text(draft.acrValues),
    idTokenSigningAlgorithm: isAlgorithm(draft.idTokenSigningAlgorithm) ? draft.idTokenSigningAlgorithm : undefined,
    enableGroupSyncing: draft.enableGroupSyncing,
    groupJsonPath: text(draft.groupJsonPath),
    addGroupsScope: draft.addGroupsScope,
  };
}

export function OidcSettings() {
  const stored = useQuery({ queryKey: OIDC_KEY, queryFn: () => ok(api.GET('/api/admin/auth/oidc/settings')) });
  if (stored.isPending) return <PageLoader />;
  if (stored.isError) return <QueryError error={stored.error} />;
  // Read afresh whenever the stored settings change (saved, removed), the secret field empty again.
  return <OidcForm key={JSON.stringify(stored.data)} stored={stored.data} />;
}

function OidcForm({ stored }: { stored: Stored }) {
  const session = useSession();
  const configured = stored.clientId !== undefined;
  const mayChange = session.can('setOidcSettings');
  const roleOptions = useRootRoleOptions();
  const [draft, setDraft] = useState(() => draftOf(stored));
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: 'clientId' | 'secret' | 'discoverUrl' | 'emailDomains' | 'acrValues' | 'groupJsonPath') => ({
    value: draft[key],
    onChange: (e: { currentTarget: { value: string } }) => set(key)(e.currentTarget.value),
  });
  const toggle = (key: 'autoCreate' | 'enableSingleSignOut' | 'enableGroupSyncing' | 'addGroupsScope') => ({
    checked: draft[key],
    onChange: (e: { currentTarget: { checked: boolean } }) => set(key)(e.currentTarget.checked),
  });
  const save = useChange(() => ok(api.POST('/api/admin/auth/oidc/settings', { body: settingsOf(draft) })), OIDC_KEY);
  const remove = useChange(() => ok(api.DELETE('/api/admin/auth/oidc/settings')), OIDC_KEY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(undefined, {
      onSuccess: () => {
        set('secret')('');
        notifications.show({ color: 'green', message: 'The single sign-on settings are saved.' });
      },
    });
  };
  return (
    <form onSubmit={submit} aria-label="Single sign-on settings">
      <Stack gap="sm" maw={720}>
        <Group gap="xs">
          <Badge color={configured ? 'teal.9' : 'gray.7'} variant={configured ? 'filled' : 'outline'}>
            {configured ? 'Configured' : 'Not configured'}
          </Badge>
        </Group>
        <Switch label="Enabled" description="Stored settings are always enabled: to turn single sign-on off, remove them." checked disabled />
        <TextInput label="Discovery URL" description="The provider's .well-known/openid-configuration address" {...text('discoverUrl')} />
        <Group grow align="flex-start">
          <TextInput label="Client id" required maxLength={500} {...text('clientId')} />
          <PasswordInput
            label="Client secret"
            required
            maxLength={2000}
            autoComplete="new-password"
            description={configured ? 'The stored secret is never shown: type it again to save' : "The provider's secret for this client"}
            {...text('secret')}
          />
        </Group>
        <Switch label="Create users at their first sign-in" {...toggle('autoCreate')} />
        <Group grow align="flex-start">
          <Select
            label="Default root role"
            description="The root role of the users created"
            placeholder="None"
            clearable
            data={roleOptions}
            value={draft.rootRole}
            onChange={set('rootRole')}
          />
          <TextInput label="Email domains" description="Comma-separated; only users of these are created" maxLength={2000} {...text('emailDomains')} />
        </Group>
        <Switch label="Single sign-out" description="Signing out here signs out of the provider too" {...toggle('enableSingleSignOut')} />
        <Group grow align="flex-start">
          <TextInput label="ACR values" description="Space-separated values of the acr claim" maxLength={2000} {...text('acrValues')} />
          <Select label="ID token signing algorithm" placeholder="The provider's default" clearable data={ALGORITHMS} value={draft.idTokenSigningAlgorithm} onChange={set('idTokenSigningAlgorithm')} />
        </Group>
        <Switch label="Sync groups" description="Put users in the groups whose SSO mappings the provider names" {...toggle('enableGroupSyncing')} />
        <TextInput label="Group JSON path" description="Where the token response holds the groups" maxLength={500} {...text('groupJsonPath')} />
        <Switch label="Request the groups scope" {...toggle('addGroupsScope')} />
        {mayChange && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save settings
            </Button>
            {configured && session.can('deleteOidcSettings') && (
              <ConfirmButton label="Remove" title="Remove the single sign-on settings?" confirmLabel="Remove settings" onConfirm={() => remove.mutateAsync(undefined)}>
                Nobody can sign in through OpenID Connect any more, and the stored settings, the secret among them, are deleted.
              </ConfirmButton>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
