// After a token is created: a first snippet per SDK of the token's kind, with this service's URL and the new secret
// filled in, each copyable, in tabs.
import { Code, Stack, Tabs, Text, Title } from '@mantine/core';
import { CopyCode } from './copy-code';
import { snippetsFor, type Snippet, type TokenKind } from './snippets';

export function TokenSnippets({ kind, secret, appName }: { kind: TokenKind; secret: string; appName: string }) {
  const snippets = snippetsFor(kind, { origin: window.location.origin, secret, appName });
  const title = kind === 'admin' ? 'Call the admin API' : 'Connect an SDK';
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {snippets.length === 1 ? (
        <SnippetPanel snippet={snippets[0]!} />
      ) : (
        <Tabs defaultValue={snippets[0]!.id} keepMounted={false}>
          <Tabs.List aria-label="SDKs">
            {snippets.map((s) => (
              <Tabs.Tab key={s.id} value={s.id}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {snippets.map((s) => (
            <Tabs.Panel key={s.id} value={s.id} pt="xs">
              <SnippetPanel snippet={s} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      {kind === 'frontend' && (
        <Text size="sm" c="gray.7">
          Browsers may call the frontend API from the origins in <Code>UNLEASH_FRONTEND_API_ORIGINS</Code> (any, unless it is set).
        </Text>
      )}
    </Stack>
  );
}

function SnippetPanel({ snippet }: { snippet: Snippet }) {
  return (
    <Stack gap={6}>
      {snippet.install && (
        <Text size="sm">
          Install: <Code>{snippet.install}</Code>
        </Text>
      )}
      <CopyCode code={snippet.code} what={`the ${snippet.label} snippet`} />
    </Stack>
  );
}
