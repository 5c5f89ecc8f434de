// The OpenID Connect settings as a form (getOidcSettings), saved whole (setOidcSettings) or removed
// (deleteOidcSettings). The service answers the client secret masked, and a save replaces the settings whole with
// the secret required: the form never shows the stored secret, and asks for it again on every save.
import { Group, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useSession } from '../session';
import { ConfiguredBadge, NewUserFields, rootRoleFields, rootRoleOf, SettingsActions, StoredSettings, useDraft, useSettingsChanges } from './sso-fields';

type Stored = components['schemas']['OidcSettings'];
type Settings = components['schemas']['SetOidcSettings'];
type Algorithm = NonNullable<Settings['idTokenSigningAlgorithm']>;

const OIDC_KEY = ['oidc-settings'];
const ALGORITHMS: Algorithm[] = ['RS256', 'RS384', 'RS512'];

const isAlgorithm = (value: string | null): value is Algorithm => (ALGORITHMS as (string | null)[]).includes(value);

interface Draft {
  displayName: string;
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
  displayName: stored.displayName ?? '',
  clientId: stored.clientId ?? '',
  secret: '',
  discoverUrl: stored.discoverUrl ?? '',
  autoCreate: stored.autoCreate ?? false,
  enableSingleSignOut: stored.enableSingleSignOut ?? false,
  rootRole: rootRoleOf(stored),
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
  return {
    enabled: true,
    displayName: text(draft.displayName),
    clientId: draft.clientId.trim(),
    secret: draft.secret,
    discoverUrl: text(draft.discoverUrl),
    autoCreate: draft.autoCreate,
    enableSingleSignOut: draft.enableSingleSignOut,
    ...rootRoleFields(draft.rootRole),
    emailDomains: text(draft.emailDomains),
    acrValues: text(draft.acrValues),
    idTokenSigningAlgorithm: isAlgorithm(draft.idTokenSigningAlgorithm) ? draft.idTokenSigningAlgorithm : undefined,
    enableGroupSyncing: draft.enableGroupSyncing,
    groupJsonPath: text(draft.groupJsonPath),
    addGroupsScope: draft.addGroupsScope,
  };
}

export function OidcSettings() {
  return (
    <StoredSettings queryKey={OIDC_KEY} read={() => ok(api.GET('/api/admin/auth/oidc/settings'))}>
      {(stored) => <OidcForm stored={stored} />}
    </StoredSettings>
  );
}

function OidcForm({ stored }: { stored: Stored }) {
  const session = useSession();
  const configured = stored.clientId !== undefined;
  const mayChange = session.can('setOidcSettings');
  const { draft, set, update, text, toggle } = useDraft(() => draftOf(stored));
  const { save, remove, submit } = useSettingsChanges(
    OIDC_KEY,
    { save: () => ok(api.POST('/api/admin/auth/oidc/settings', { body: settingsOf(draft) })), remove: () => ok(api.DELETE('/api/admin/auth/oidc/settings')) },
    'The single sign-on settings are saved.',
    // The secret is asked for again on every save, also when the stored settings read the same.
    () => set('secret')(''),
  );
  return (
    <form onSubmit={submit} aria-label="Single sign-on settings">
      <Stack gap="sm" maw={720}>
        <ConfiguredBadge configured={configured} />
        <Switch label="Enabled" description="Stored settings are always enabled: to turn single sign-on off, remove them." checked disabled />
        <TextInput label="Discovery URL" description="The provider's .well-known/openid-configuration address" {...text('discoverUrl')} />
        <TextInput label="Display name" description='What the sign-in button names: "Sign in with …" (OpenID Connect when empty)' maxLength={100} {...text('displayName')} />
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
        <NewUserFields draft={draft} update={update} />
        <Switch label="Single sign-out" description="Signing out here signs out of the provider too" {...toggle('enableSingleSignOut')} />
        <Group grow align="flex-start">
          <TextInput label="ACR values" description="Space-separated values of the acr claim" maxLength={2000} {...text('acrValues')} />
          <Select label="ID token signing algorithm" placeholder="The provider's default" clearable data={ALGORITHMS} value={draft.idTokenSigningAlgorithm} onChange={set('idTokenSigningAlgorithm')} />
        </Group>
        <Switch label="Sync groups" description="Put users in the groups whose SSO mappings the provider names" {...toggle('enableGroupSyncing')} />
        <TextInput label="Group JSON path" description="Where the token response holds the groups" maxLength={500} {...text('groupJsonPath')} />
        <Switch label="Request the groups scope" {...toggle('addGroupsScope')} />
        <SettingsActions
          mayChange={mayChange}
          mayRemove={configured && session.can('deleteOidcSettings')}
          saving={save.isPending}
          removal={{
            title: 'Remove the single sign-on settings?',
            text: 'Nobody can sign in through OpenID Connect any more, and the stored settings, the secret among them, are deleted.',
          }}
          onRemove={remove}
        />
      </Stack>
    </form>
  );
}
