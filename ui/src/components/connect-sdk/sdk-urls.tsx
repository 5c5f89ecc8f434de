// The addresses an SDK is given to reach this service, each with a copy button: the client API, the frontend API and
// OpenFeature's OFREP base, at the address the browser reaches the service at.
import { Code, Group, Stack, Text } from '@mantine/core';
import { Section } from '../page';
import { CopyValue } from './copy-code';
import { sdkUrls } from './snippets';

export function SdkUrls() {
  return (
    <Section title="Connect an SDK">
      <Text size="sm" c="gray.7">
        Give an SDK one of these addresses and a token of the matching kind.
      </Text>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="SDK addresses">
        {sdkUrls(window.location.origin).map((entry) => (
          <li key={entry.id}>
            <Group gap="xs" wrap="wrap" align="center" justify="space-between">
              <div style={{ flex: '1 1 260px' }}>
                <Text size="sm" fw={600}>
                  {entry.label}
                </Text>
                <Text size="sm" c="gray.7">
                  {entry.use}
                </Text>
              </div>
              <Group gap="xs" wrap="nowrap" style={{ flex: '0 1 auto', minWidth: 0 }}>
                <Code data-url={entry.id} style={{ overflowWrap: 'anywhere' }}>
                  {entry.url}
                </Code>
                <CopyValue value={entry.url} what={`the ${entry.label} URL`} />
              </Group>
            </Group>
          </li>
        ))}
      </Stack>
    </Section>
  );
}
