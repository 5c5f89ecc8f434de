// The dialog that shows a token's secret the one time the service answers it, with a button to copy it. Whoever
// opens it forgets the secret when it closes: nothing shows it again.
import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export function SecretOnceDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Token created" size="lg">
      {secret !== null && (
        <Stack>
          <Alert color="blue" title="Copy it now">
            This is the only time the secret is shown: the service keeps only a hash of it.
          </Alert>
          <Code block data-testid="token-secret" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <Group justify="space-between">
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button variant="light" leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy the secret'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
