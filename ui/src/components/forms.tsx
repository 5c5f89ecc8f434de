// The dialog every "New …" form uses: fields, Cancel, and a submit that waits for the service (its refusal is
// shown by the mutation's notification, and the dialog stays open to fix it).
import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';

export function FormDialog(props: {
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => Promise<unknown>;
  disabled?: boolean;
  size?: string;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit();
      props.onClose();
    } catch {
      // The notification says why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={props.title} size={props.size ?? 'md'}>
      <form onSubmit={submit}>
        <Stack>
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={props.disabled}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A "New …" button that opens its dialog; nothing at all when the user may not create. */
export function NewButton({ label, allowed, dialog }: { label: string; allowed: boolean; dialog: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}

export const when = (date: string | null | undefined) => (date ? new Date(date).toLocaleString() : '');
