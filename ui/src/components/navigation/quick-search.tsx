// The flag search of the header (Ctrl+K or ⌘K): a dialog with one field that lists the flags matching what is typed
// (their name, description or a tag), in the combobox pattern: the arrows move through the flags, Enter opens the
// one chosen, Escape closes. Loaded only when first opened.
import { Box, Loader, Modal, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, ok } from '../../api';
import { flagPath } from '../../paths';
import { useProjects } from '../../queries';

const LIMIT = 10;

export default function QuickSearch({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Search flags" size="lg" yOffset="10vh">
      <FlagFinder onOpen={onClose} />
    </Modal>
  );
}

function FlagFinder({ onOpen }: { onOpen: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [query] = useDebouncedValue(text.trim(), 200);
  const [active, setActive] = useState(-1);
  const found = useQuery({
    queryKey: ['flags', 'quick-search', query],
    queryFn: async () => (await ok(api.GET('/api/admin/search/features', { params: { query: { query, limit: String(LIMIT), sortBy: 'name', sortOrder: 'asc' } } }))).features,
    enabled: query !== '',
    placeholderData: keepPreviousData,
  });
  const projects = useProjects();
  const projectName = (project: string) => projects.data?.find((p) => p.id === project)?.name ?? project;
  const flags = query === '' ? [] : (found.data ?? []);
  const listbox = `${id}-flags`;
  const optionId = (index: number) => `${id}-flag-${index}`;

  const open = (index: number) => {
    const flag = flags[index];
    if (!flag) return;
    onOpen();
    void navigate(flagPath(flag.project, flag.name));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (flags.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current === -1 && step === -1 ? flags.length - 1 : (current + step + flags.length) % flags.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Enter without a flag chosen opens the first one found.
      open(active === -1 ? 0 : active);
    }
  };

  const status =
    query === '' ? 'Type part of a flag’s name, its description or a tag.' : found.isPending ? 'Searching…' : flags.length === 0 ? `No flag matches “${query}”.` : undefined;
  return (
    <>
      <TextInput
        data-autofocus
        label="Flag"
        placeholder="Name or part of a name"
        leftSection={found.isFetching ? <Loader size={14} aria-hidden /> : <IconSearch size={16} aria-hidden />}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={flags.length > 0}
        aria-controls={flags.length > 0 ? listbox : undefined}
        aria-activedescendant={active >= 0 && active < flags.length ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      <Text size="sm" c="gray.7" mt="sm" role="status">
        {status ?? `${found.data?.length === LIMIT ? `The first ${LIMIT} flags found` : `${flags.length} ${flags.length === 1 ? 'flag' : 'flags'} found`}: ↑ ↓ to choose, Enter to open.`}
      </Text>
      {flags.length > 0 && (
        <Box component="ul" role="listbox" id={listbox} aria-label="Flags found" m={0} mt="xs" p={0} style={{ listStyle: 'none' }}>
          {flags.map((flag, index) => (
            <Box
              component="li"
              key={`${flag.project}/${flag.name}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              px="sm"
              py={6}
              bg={index === active ? 'blue.0' : undefined}
              style={{ cursor: 'pointer', borderRadius: 'var(--mantine-radius-sm)' }}
              // The field keeps the focus: a click chooses without leaving it.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(index)}
              onClick={() => open(index)}
            >
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {flag.name}
              </Text>
              <Text size="xs" c="gray.7">
                in {projectName(flag.project)}
              </Text>
            </Box>
          ))}
        </Box>
      )}
    </>
  );
}
