// The instance's settings: single sign-on through OpenID Connect or SAML, whether passwords still sign in, and the
// export and import of the instance's state. Each section is shown only to who may use it (their operations'
// x-permission).
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ComponentType } from 'react';
import type { OperationId } from '../../../generated/operations.js';
import { Empty } from '../components/feedback';
import { OidcSettings } from '../components/oidc-settings';
import { Page } from '../components/page';
import { PasswordSignInSetting } from '../components/password-sign-in-setting';
import { SamlSettings } from '../components/saml-settings';
import { StateExport, StateImport } from '../components/state-transfer';
import { useSession } from '../session';

interface SectionOf {
  title: string;
  description: string;
  /** The operation whose permission shows the section. */
  shownTo: OperationId;
  Content: ComponentType;
}

const PROVIDER = 'as a way to sign in: the identity provider and what happens to the users it signs in.';

const sections: SectionOf[] = [
  { title: 'Single sign-on', description: `OpenID Connect ${PROVIDER}`, shownTo: 'getOidcSettings', Content: OidcSettings },
  { title: 'SAML', description: `SAML 2.0 ${PROVIDER}`, shownTo: 'getSamlSettings', Content: SamlSettings },
  {
    title: 'Password sign-in',
    description: 'Whether the sign-in page offers the password form once an identity provider is configured.',
    shownTo: 'getPasswordAuthSettings',
    Content: PasswordSignInSetting,
  },
  {
    title: 'Export',
    description: "The instance's flag configuration as a file; users, API tokens, passwords, integrations and events are never exported.",
    shownTo: 'exportState',
    Content: StateExport,
  },
  {
    title: 'Import',
    description: 'A file exported here or by Unleash, JSON or YAML. It is checked whole first: an invalid file changes nothing.',
    shownTo: 'importState',
    Content: StateImport,
  },
];

function Section({ title, description, Content }: SectionOf) {
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
        <Content />
      </Stack>
    </Paper>
  );
}

export default function Settings() {
  const session = useSession();
  const shown = sections.filter((section) => session.can(section.shownTo));
  return (
    <Page title="Settings">
      {shown.map((section) => (
        <Section key={section.title} {...section} />
      ))}
      {shown.length === 0 && <Empty>You may not change any of the settings.</Empty>}
    </Page>
  );
}
