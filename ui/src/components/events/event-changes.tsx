// An event's before/after, as lines: removed in red with "−", added in green with "+", unchanged folded.
import { Box, Button, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { diff, type DiffLine } from './diff';

const look = {
  removed: { sign: '−', word: 'removed', bg: 'var(--mantine-color-red-0)', border: 'var(--mantine-color-red-7)', sign_c: 'red.9' },
  added: { sign: '+', word: 'added', bg: 'var(--mantine-color-green-0)', border: 'var(--mantine-color-green-8)', sign_c: 'teal.9' },
  unchanged: { sign: ' ', word: 'unchanged', bg: undefined, border: 'transparent', sign_c: 'gray.7' },
} as const;

function Line({ line }: { line: DiffLine }) {
  const style = look[line.kind];
  return (
    <Box
      component="li"
      px={6}
      py={1}
      style={{ background: style.bg, borderLeft: `3px solid ${style.border}`, fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      c={line.kind === 'unchanged' ? 'gray.7' : undefined}
    >
      <Text span inherit fw={700} c={style.sign_c} aria-hidden>
        {style.sign}{' '}
      </Text>
      <VisuallyHidden>{style.word}: </VisuallyHidden>
      {line.path || '(value)'}: {line.value}
    </Box>
  );
}

const listStyle = { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' as const, gap: 1 };

/** What an event changed: its preData against its data, the unchanged fields folded behind a button. */
export function EventChanges({ id, preData, data }: { id: number; preData: unknown; data: unknown }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const lines = diff(preData, data);
  const changed = lines.filter((line) => line.kind !== 'unchanged');
  const unchanged = lines.filter((line) => line.kind === 'unchanged');
  if (lines.length === 0) return <Text size="sm" c="gray.7">This event carries no data.</Text>;
  return (
    <Stack gap={4}>
      {changed.length === 0 ? (
        <Text size="sm" c="gray.7">Nothing changed in the data.</Text>
      ) : (
        <ul style={listStyle} aria-label={`Changes of event ${id}`}>
          {changed.map((line, i) => (
            <Line key={i} line={line} />
          ))}
        </ul>
      )}
      {unchanged.length > 0 && (
        <>
          <Button variant="subtle" size="compact-xs" w="fit-content" aria-expanded={showUnchanged} onClick={() => setShowUnchanged((shown) => !shown)}>
            {showUnchanged ? 'Hide' : 'Show'} {unchanged.length} unchanged field{unchanged.length === 1 ? '' : 's'}
          </Button>
          {showUnchanged && (
            <ul style={listStyle} aria-label={`Unchanged fields of event ${id}`}>
              {unchanged.map((line, i) => (
                <Line key={i} line={line} />
              ))}
            </ul>
          )}
        </>
      )}
    </Stack>
  );
}

/** How many fields an event changed (a created resource's fields count as added). */
export const changeCount = (preData: unknown, data: unknown) => new Set(diff(preData, data).filter((line) => line.kind !== 'unchanged').map((line) => line.path)).size;
