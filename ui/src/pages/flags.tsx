import { Anchor, Button, Group, Select, Stack, Switch, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconFilterOff, IconPlus, IconSearch, IconSelector } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ok } from '../api';
import { Empty, PageLoader, QueryError } from '../components/feedback';
import { Page } from '../components/page';
import { CreateFlag } from '../components/create-flag';
import { FlagCreatedCell, FlagEnvironmentsCell, FlagNameCell, FlagTableFooter } from '../components/flag-cells';
import { describeStage } from '../lib/lifecycle.js';
import { flagStates, readListState, searchQuery, writeListState, type FlagListState } from '../lib/flag-search.js';
import { optionsOf, projectOptions, useFeatureTypes, useProjects, useTags } from '../queries';
import { projectPath } from '../paths';
import { useSession } from '../session';

export default function Flags() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const state = readListState(params);
  const update = (change: Partial<FlagListState>) => setParams(writeListState({ ...state, page: 1, ...change }), { replace: true });
  const [text, setText] = useState(state.q);
  const search = useDebouncedCallback((q: string) => update({ q }), 300);

  const flags = useQuery({
    queryKey: ['flags', 'search', state],
    queryFn: () => ok(api.GET('/api/admin/search/features', { params: { query: searchQuery(state) } })),
    placeholderData: keepPreviousData,
  });
  const projects = useProjects();
  const types = useFeatureTypes();
  const tags = useTags();

  const sortable = (field: string, label: string) => {
    const active = state.sort === field;
    const Icon = active ? (state.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
    return (
      <Table.Th aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <UnstyledButton onClick={() => update({ sort: field, order: active && state.order === 'desc' ? 'asc' : 'desc' })}>
          <Group gap={4} wrap="nowrap">
            <Text fw={600} size="sm">
              {label}
            </Text>
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  const mayCreate = session.canSomewhere('createFeature');
  /** A search or filter narrows the list (the order and favourites-first do not). */
  const filtered = Boolean(state.q.trim() || state.project || state.type || state.state || state.tag);
  const clearFilters = () => {
    setText('');
    search.cancel();
    update({ q: '', project: null, type: null, state: null, tag: null });
  };

  return (
    <Page title="Flags" actions={mayCreate && <CreateFlag project={state.project} trigger={(open) => <Button leftSection={<IconPlus size={16} />} onClick={open}>New flag</Button>} />}>
      <Group gap="sm" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name, description or tag"
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            search(e.currentTarget.value);
          }}
          w={260}
        />
        <Select label="Project" placeholder="Any" clearable data={projectOptions(projects.data)} value={state.project} onChange={(project) => update({ project })} w={170} />
        <Select label="Type" placeholder="Any" clearable data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))} value={state.type} onChange={(type) => update({ type })} w={170} />
        <Select label="State" placeholder="Any" clearable data={[...flagStates]} value={state.state} onChange={(value) => update({ state: value })} w={170} />
        <Select
          label="Tag"
          placeholder="Any"
          clearable
          searchable
          data={optionsOf(tags.data?.map((t) => `${t.type}:${t.value}`))}
          value={state.tag}
          onChange={(tag) => update({ tag })}
          w={190}
        />
        <Switch label="Favourites first" checked={state.favoritesFirst} onChange={(e) => update({ favoritesFirst: e.currentTarget.checked })} mb={8} />
      </Group>
      {flags.isPending ? (
        <PageLoader />
      ) : flags.isError ? (
        <QueryError error={flags.error} />
      ) : flags.data.features.length === 0 ? (
        filtered || flags.data.total > 0 ? (
          <Group gap="sm" py="md">
            <Text c="gray.7">No flag matches. Try other words or filters, or clear them.</Text>
            <Button variant="light" leftSection={<IconFilterOff size={16} />} onClick={clearFilters}>
              Clear the filters
            </Button>
          </Group>
        ) : mayCreate ? (
          <Stack gap="xs" align="flex-start" py="md">
            <Text c="gray.7">No flags yet — create your first flag, then turn it on in an environment and read it from an SDK.</Text>
            <CreateFlag trigger={(open) => <Button variant="light" leftSection={<IconPlus size={16} />} onClick={open}>Create your first flag</Button>} />
          </Stack>
        ) : (
          <Empty>No flags yet. Someone allowed to create flags can add the first one.</Empty>
        )
      ) : (
        <>
          <Table striped highlightOnHover aria-label="Flags">
            <Table.Thead>
              <Table.Tr>
                {sortable('name', 'Name')}
                {sortable('project', 'Project')}
                {sortable('type', 'Type')}
                <Table.Th>Environments</Table.Th>
                <Table.Th>Stage</Table.Th>
                {sortable('createdAt', 'Created')}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {flags.data.features.map((flag) => (
                <Table.Tr key={flag.name}>
                  <FlagNameCell flag={flag} />
                  <Table.Td>
                    <Anchor component={Link} to={projectPath(flag.project)}>
                      {projects.data?.find((p) => p.id === flag.project)?.name ?? flag.project}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{flag.type}</Table.Td>
                  <FlagEnvironmentsCell flag={flag} />
                  <Table.Td>{flag.lifecycle ? describeStage(flag.lifecycle) : ''}</Table.Td>
                  <FlagCreatedCell flag={flag} />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <FlagTableFooter total={flags.data.total} page={state.page} onPage={(page) => update({ page })} />
        </>
      )}
    </Page>
  );
}
