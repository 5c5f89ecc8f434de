// A row's small button ("Edit", "Set password") that opens its dialog; the dialog closes itself through `close`.
import { Button } from '@mantine/core';
import { useState, type ReactNode } from 'react';

export function DialogButton({ label, ariaLabel, dialog }: { label: string; ariaLabel?: string; dialog: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" size="xs" aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}
