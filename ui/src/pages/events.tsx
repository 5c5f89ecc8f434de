import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { components } from '../../../generated/api.js';
import { eventMeaning } from '../../../generated/events.js';
import { api, ok } from '../api';
import { Loaded } from '../components/feedback';
import { EventTable } from '../components/flag/flag-events';
import { Page } from '../components/page';
import { useProjects } from '../queries';

const PAGE_SIZE = 50;

/** Every event type of the contract, for the type filter. */
const eventTypes = (Object.keys(eventMeaning) as components['schemas']['EventType'][]).sort();

/** The log's search, filters and page, kept in the address (`?q=&type=&project=&page=`). */
function useLogState() {
  const [params, setParams] = useSearchParams();
  const state = { q: params.get('q') ?? '', type: params.get('type'), project: params.get('project'), page: Math.max(1, Number(params.get('page')) || 1) };
  const update = (change: Partial<typeof state>) => {
    const next = { ...state, page: 1, ...change };
    const entries = Object.entries({ q: next.q, type: next.type, project: next.project, page: next.page > 1 ? String(next.page) : '' }).filter((entry): entry is [string, string] => !!entry[1]);
    setParams(new URLSearchParams(entries), { replace: true });
  };
  return [state, update] as const;
}

export default function Events() {
  const [state, update] = useLogState();
  const [text, setText] = useState(state.q);
  const search = useDebouncedCallback((q: string) => update({ q: q.trim() }), 300);
  const projects = useProjects();
  const projectNames = useMemo(() => new Map((projects.data ?? []).map((p) => [p.id, p.name])), [projects.data]);
  const offset = (state.page - 1) * PAGE_SIZE;
  const events = useQuery({
    queryKey: ['events', 'search', state],
    queryFn: () =>
      ok(
        api.GET('/api/admin/search/events', {
          params: {
            query: {
              ...(state.q && { query: state.q }),
              ...(state.type && { type: `IS:${state.type}` }),
              ...(state.project && { project: `IS:${state.project}` }),
              offset: String(offset),
              limit: String(PAGE_SIZE),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Event log" description="Every change, newest first. Open an event to see what it changed.">
      <Group gap="sm" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Flag, project, type, user or data"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            search(e.currentTarget.value);
          }}
          w={260}
        />
        <Select label="Type" placeholder="Any type" clearable searchable data={eventTypes} value={state.type} onChange={(type) => update({ type })} w={260} />
        <Select
          label="Project"
          placeholder="Any project"
          clearable
          searchable
          data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={state.project}
          onChange={(project) => update({ project })}
          w={200}
        />
      </Group>
      <Loaded query={events} empty={state.q || state.type || state.project ? 'No event matches.' : 'No events yet.'} isEmpty={(data) => data.events.length === 0 && offset === 0}>
        {(data) => (
          <>
            <EventTable events={data.events} showFlag projectNames={projectNames} />
            <Group component="nav" aria-label="Event pages" justify="space-between">
              <Text size="sm" aria-live="polite">
                {data.events.length === 0 ? `None of ${data.total}` : `${offset + 1}–${offset + data.events.length} of ${data.total}`}
              </Text>
              <Group gap="xs">
                <Button variant="default" size="sm" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={state.page <= 1} onClick={() => update({ page: state.page - 1 })}>
                  Previous
                </Button>
                <Button variant="default" size="sm" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={offset + data.events.length >= data.total} onClick={() => update({ page: state.page + 1 })}>
                  Next
                </Button>
              </Group>
            </Group>
          </>
        )}
      </Loaded>
    </Page>
  );
}
