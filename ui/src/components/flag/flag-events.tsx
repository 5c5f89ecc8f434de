import { Code, Spoiler, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { Loaded } from '../feedback';

/** What happened to a flag, in whichever project it was at the time. */
export function FlagEvents({ feature }: { feature: string }) {
  const events = useQuery({
    queryKey: ['events', 'flag', feature],
    queryFn: async () => (await ok(api.GET('/api/admin/events/{featureName}', { params: { path: { featureName: feature } } }))).events,
  });
  return (
    <Loaded query={events} empty="No events." isEmpty={(data) => data.length === 0}>
      {(data) => <EventTable events={data} />}
    </Loaded>
  );
}

type Event = components['schemas']['Event'];

export function EventTable({ events, showFlag = false }: { events: Event[]; showFlag?: boolean }) {
  return (
    <Table striped aria-label="Events" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Event</Table.Th>
          {showFlag && <Table.Th>Flag</Table.Th>}
          <Table.Th>Environment</Table.Th>
          <Table.Th>By</Table.Th>
          <Table.Th>Data</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {events.map((event) => (
          <Table.Tr key={event.id}>
            <Table.Td>{new Date(event.createdAt).toLocaleString()}</Table.Td>
            <Table.Td>{event.type}</Table.Td>
            {showFlag && <Table.Td>{event.featureName ?? ''}</Table.Td>}
            <Table.Td>{event.environment ?? ''}</Table.Td>
            <Table.Td>{event.createdBy}</Table.Td>
            <Table.Td maw={420}>
              {event.data && (
                // Each Spoiler's content is a region landmark: named apart, one per event (axe-core landmark-unique).
                <Spoiler maxHeight={40} showLabel="More" hideLabel="Less" attributes={{ content: { 'aria-label': `Data of event ${event.id}` } }}>
                  <Code block>{JSON.stringify(event.data, null, 1)}</Code>
                </Spoiler>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
