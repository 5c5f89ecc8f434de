import { Anchor, Button, Table } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { flagPath, projectPath } from '../../paths';
import { changeCount, EventChanges } from '../events/event-changes';
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

/** Long creators (emails) break anywhere rather than widen the table; short ones stay whole. */
const breakable = { overflowWrap: 'anywhere' as const, minWidth: '6rem' };

/**
 * Events, newest first as given; each opens to what it changed (preData against data). With `showFlag`, the flag and
 * project of each event are links to their pages, projects by name when `projectNames` knows it.
 */
export function EventTable({ events, showFlag = false, projectNames }: { events: Event[]; showFlag?: boolean; projectNames?: ReadonlyMap<string, string> }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns = showFlag ? 7 : 5;
  return (
    <Table striped aria-label="Events" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Event</Table.Th>
          {showFlag && <Table.Th>Flag</Table.Th>}
          {showFlag && <Table.Th>Project</Table.Th>}
          <Table.Th>Environment</Table.Th>
          <Table.Th>By</Table.Th>
          <Table.Th>Changes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {events.map((event) => {
          const expanded = open.has(event.id);
          const count = changeCount(event.preData, event.data);
          const Icon = expanded ? IconChevronDown : IconChevronRight;
          return (
            <Fragment key={event.id}>
              <Table.Tr>
                <Table.Td>{new Date(event.createdAt).toLocaleString()}</Table.Td>
                <Table.Td>{event.type}</Table.Td>
                {showFlag && (
                  <Table.Td>
                    {event.featureName && event.project ? (
                      <Anchor component={Link} to={flagPath(event.project, event.featureName)}>
                        {event.featureName}
                      </Anchor>
                    ) : (
                      (event.featureName ?? '')
                    )}
                  </Table.Td>
                )}
                {showFlag && (
                  <Table.Td>
                    {event.project && (
                      <Anchor component={Link} to={projectPath(event.project)}>
                        {projectNames?.get(event.project) ?? event.project}
                      </Anchor>
                    )}
                  </Table.Td>
                )}
                <Table.Td>{event.environment ?? ''}</Table.Td>
                <Table.Td style={breakable}>{event.createdBy}</Table.Td>
                <Table.Td>
                  {(event.data !== null || event.preData !== null) && (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<Icon size={14} aria-hidden />}
                      aria-expanded={expanded}
                      aria-controls={`event-${event.id}-changes`}
                      onClick={() => toggle(event.id)}
                    >
                      {count === 0 ? 'No changes' : `${count} change${count === 1 ? '' : 's'}`}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
              {expanded && (
                <Table.Tr id={`event-${event.id}-changes`}>
                  <Table.Td colSpan={columns}>
                    <EventChanges id={event.id} preData={event.preData} data={event.data} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
