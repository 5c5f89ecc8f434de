// Text to paste somewhere else (a URL, a snippet), shown as code with a button that copies it exactly.
import { Button, Code, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** The copy button of `value`; `what` names it for screen readers ("the client API URL"). */
export function CopyValue({ value, what }: { value: string; what: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button variant="light" size="compact-sm" aria-label={`${copied ? 'Copied' : 'Copy'} ${what}`} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * A block of code, wrapped rather than scrolled (nothing overflows the dialog or the page at 800 px, and no region
 * needs a keyboard to scroll), with its copy button.
 */
export function CopyCode({ code, what }: { code: string; what: string }) {
  return (
    <div style={{ position: 'relative' }}>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', paddingRight: 96 }} data-snippet={what}>
        {code}
      </Code>
      <div style={{ position: 'absolute', top: 8, right: 8 }}>
        <CopyValue value={code} what={what} />
      </div>
    </div>
  );
}
