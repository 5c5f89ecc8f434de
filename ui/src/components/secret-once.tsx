// The dialog that shows a token's secret the one time the service answers it, with a button to copy it, and below it
// what the caller adds (the API tokens page: how to connect an SDK with it). Whoever opens it forgets the secret when it
// closes: nothing shows it again.
import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function SecretOnceDialog({ secret, onClose, children }: { secret: string | null; onClose: () => void; children?: ReactNode }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Token created" size={children ? 'xl' : 'lg'}>
      {secret !== null && (
        <Stack>
          <Alert color="blue" title="Copy it now">
            This is the only time the secret is shown: the service keeps only a hash of it.
          </Alert>
          <Code block data-testid="token-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
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
            {!children && <Button onClick={onClose}>Done</Button>}
          </Group>
          {children}
          {children && (
            <Group justify="flex-end">
              <Button onClick={onClose}>Done</Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
