// The dialog every "New …" form uses: fields, Cancel, and a submit that waits for the service (its refusal is
// shown by the mutation's notification, or on the fields it names, and the dialog stays open to fix it).
import { Alert, Button, Group, Modal, Popover, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { confirmDone } from './confirm-done';

/**
 * A form's submit that waits for the service: busy meanwhile, `done` once `action` resolves (and `said` confirmed in a
 * notification); when it rejects nothing more (the mutation's notification says why, and the form stays open to fix it).
 */
export function useSubmit(action: () => Promise<unknown>, done: () => void, said?: string): [busy: boolean, submit: (event?: FormEvent) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    try {
      await action();
      done();
      if (said) confirmDone(said);
    } catch {
      // The notification says why.
    } finally {
      setBusy(false);
    }
  };
  return [busy, submit];
}

export function FormDialog(props: {
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => Promise<unknown>;
  /** What is said once it worked ("Segment beta saved."). */
  done?: string;
  disabled?: boolean;
  size?: string;
  /** A refusal of the service that names none of the form's fields (`useFieldErrors().form`), in words. */
  error?: string | null;
  children: ReactNode;
}) {
  const [busy, submit] = useSubmit(props.onSubmit, props.onClose, props.done);
  return (
    <Modal opened onClose={props.onClose} title={props.title} size={props.size ?? 'md'}>
      <form onSubmit={submit}>
        <Stack>
          {props.children}
          {props.error && (
            <Alert color="red" role="alert">
              {props.error}
            </Alert>
          )}
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

/**
 * A small "Add …" button opening a form in place (a tag, a dependency, an environment). The form closes once
 * `onSubmit` resolves; when it rejects it stays open to fix (the mutation's notification says why).
 */
export function AddPopover(props: {
  label: string;
  ariaLabel?: string;
  compact?: boolean;
  width: number;
  disabled?: boolean;
  onSubmit: () => Promise<unknown>;
  /** What is said once it worked ("Tag added."). */
  done?: string;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  const [busy, submit] = useSubmit(props.onSubmit, () => setOpened(false), props.done);
  return (
    <Popover opened={opened} onChange={setOpened} trapFocus position="bottom-start" withArrow>
      <Popover.Target>
        <Button
          variant="subtle"
          size={props.compact ? 'compact-xs' : 'xs'}
          leftSection={<IconPlus size={props.compact ? 12 : 14} />}
          aria-label={props.ariaLabel}
          onClick={() => setOpened((o) => !o)}
        >
          {props.label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form onSubmit={submit}>
          <Stack gap="xs" w={props.width}>
            {props.children}
            <Button type="submit" size="xs" loading={busy} disabled={props.disabled}>
              Add
            </Button>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}

export const when = (date: string | null | undefined) => (date ? new Date(date).toLocaleString() : '');
