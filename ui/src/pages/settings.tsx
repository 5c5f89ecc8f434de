// The instance's settings: single sign-on through OpenID Connect, and the export and import of the instance's
// state. Each section is shown only to who may use it (their operations' x-permission).
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { Empty } from '../components/feedback';
import { OidcSettings } from '../components/oidc-settings';
import { Page } from '../components/page';
import { StateExport, StateImport } from '../components/state-transfer';
import { useSession } from '../session';

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id={headingId}>
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

export default function Settings() {
  const session = useSession();
  const sso = session.can('getOidcSettings');
  const exporting = session.can('exportState');
  const importing = session.can('importState');
  return (
    <Page title="Settings">
      {sso && (
        <Section title="Single sign-on" description="OpenID Connect as a way to sign in: the identity provider and what happens to the users it signs in.">
          <OidcSettings />
        </Section>
      )}
      {exporting && (
        <Section title="Export" description="The instance's flag configuration as a file; users, API tokens, passwords, integrations and events are never exported.">
          <StateExport />
        </Section>
      )}
      {importing && (
        <Section title="Import" description="A file exported here or by Unleash, JSON or YAML. It is checked whole first: an invalid file changes nothing.">
          <StateImport />
        </Section>
      )}
      {!sso && !exporting && !importing && <Empty>You may not change any of the settings.</Empty>}
    </Page>
  );
}
