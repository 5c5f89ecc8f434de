// The SAML 2.0 settings as a form (getSamlSettings), saved whole (setSamlSettings) or removed (deleteSamlSettings).
// The identity provider's certificate is public: the service answers it as stored, and the form shows it.
import { Alert, Anchor, Group, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { components } from '../../../generated/api.js';
import { api, errorMessage, ok } from '../api';
import { useSession } from '../session';
import { ConfiguredBadge, NewUserFields, rootRoleFields, rootRoleOf, SettingsActions, StoredSettings, useDraft, useSettingsChanges } from './sso-fields';

type Stored = components['schemas']['SamlSettings'];
type Settings = components['schemas']['SetSamlSettings'];

const SAML_KEY = ['saml-settings'];

interface Draft {
  displayName: string;
  entityId: string;
  signOnUrl: string;
  certificate: string;
  signOutUrl: string;
  autoCreate: boolean;
  /** A built-in role's name, or a custom root role's id. */
  rootRole: string | null;
  emailDomains: string;
  enableGroupSyncing: boolean;
  groupJsonPath: string;
}

const draftOf = (stored: Stored): Draft => ({
  displayName: stored.displayName ?? '',
  entityId: stored.entityId ?? '',
  signOnUrl: stored.signOnUrl ?? '',
  certificate: stored.certificate ?? '',
  signOutUrl: stored.signOutUrl ?? '',
  autoCreate: stored.autoCreate ?? false,
  rootRole: rootRoleOf(stored),
  emailDomains: stored.emailDomains ?? '',
  enableGroupSyncing: stored.enableGroupSyncing ?? false,
  groupJsonPath: stored.groupJsonPath ?? '',
});

/** The settings to send; an empty optional text is left out. */
function settingsOf(draft: Draft): Settings {
  const text = (value: string) => value.trim() || undefined;
  return {
    enabled: true,
    displayName: text(draft.displayName),
    entityId: draft.entityId.trim(),
    signOnUrl: draft.signOnUrl.trim(),
    certificate: draft.certificate.trim(),
    signOutUrl: text(draft.signOutUrl),
    autoCreate: draft.autoCreate,
    ...rootRoleFields(draft.rootRole),
    emailDomains: text(draft.emailDomains),
    enableGroupSyncing: draft.enableGroupSyncing,
    groupJsonPath: text(draft.groupJsonPath),
  };
}

export function SamlSettings() {
  return (
    <StoredSettings queryKey={SAML_KEY} read={() => ok(api.GET('/api/admin/auth/saml/settings'))}>
      {(stored) => <SamlForm stored={stored} />}
    </StoredSettings>
  );
}

function SamlForm({ stored }: { stored: Stored }) {
  const session = useSession();
  const configured = stored.entityId !== undefined;
  const { draft, update, text, toggle } = useDraft(() => draftOf(stored));
  const { save, remove, submit } = useSettingsChanges(
    SAML_KEY,
    { save: () => ok(api.POST('/api/admin/auth/saml/settings', { body: settingsOf(draft) })), remove: () => ok(api.DELETE('/api/admin/auth/saml/settings')) },
    'The SAML settings are saved.',
  );
  return (
    <form onSubmit={submit} aria-label="SAML settings">
      <Stack gap="sm" maw={720}>
        <ConfiguredBadge configured={configured} />
        <Text size="sm">
          The identity provider needs{' '}
          <Anchor href="/auth/saml/metadata" target="_blank">
            this service's SAML metadata
          </Anchor>
          : its entity id and where the provider sends signed assertions.
        </Text>
        {save.isError && (
          <Alert color="red" role="alert" title="The settings were not saved">
            {errorMessage(save.error)}
          </Alert>
        )}
        <TextInput label="Entity id" description="The identity provider's entity id: the issuer its responses name" required maxLength={2000} {...text('entityId')} />
        <TextInput label="Single sign-on URL" description="Where the provider takes sign-in requests (HTTP-Redirect binding)" required maxLength={2000} {...text('signOnUrl')} />
        <Textarea
          label="X.509 certificate"
          description="The provider's signing certificate, PEM or its base64 body: assertions must be signed by it"
          required
          autosize
          minRows={4}
          maxRows={12}
          maxLength={20000}
          styles={{ input: { fontFamily: 'monospace' } }}
          {...text('certificate')}
        />
        <Group grow align="flex-start">
          <TextInput label="Sign-out URL" description="Where signing out here goes next (the provider's single logout)" maxLength={2000} {...text('signOutUrl')} />
          <TextInput label="Display name" description='What the sign-in button names: "Sign in with …" (SAML when empty)' maxLength={100} {...text('displayName')} />
        </Group>
        <NewUserFields draft={draft} update={update} />
        <Switch label="Sync groups" description="Put users in the groups whose SSO mappings the provider names" {...toggle('enableGroupSyncing')} />
        <TextInput label="Groups attribute" description="The assertion's attribute holding the groups (groups when empty)" maxLength={500} {...text('groupJsonPath')} />
        <SettingsActions
          mayChange={session.can('setSamlSettings')}
          mayRemove={configured && session.can('deleteSamlSettings')}
          saving={save.isPending}
          removal={{ title: 'Remove the SAML settings?', text: 'Nobody can sign in through SAML any more, and the stored settings are deleted.' }}
          onRemove={remove}
        />
      </Stack>
    </form>
  );
}
