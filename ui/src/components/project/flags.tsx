// A project's flags, as its page's Flags tab shows them: a page at a time by name, each linking to its page, with its
// type, its state in each environment, when an SDK last reported it and when it was created.
import { Anchor, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ok } from '../../api';
import { PAGE_SIZE } from '../../lib/flag-search.js';
import { Empty, PageLoader, QueryError } from '../feedback';
import { FlagCreatedCell, FlagEnvironmentsCell, FlagNameCell, FlagTableFooter } from '../flag-cells';
import { when } from '../forms';

/** The query key of a project's flags: under ['flags'], which creating, archiving and reviving a flag read again. */
export const projectFlagsKey = (project: string, page: number) => ['flags', 'project', project, page];

export function ProjectFlags({ project, name, page, onPage }: { project: string; name: string; page: number; onPage: (page: number) => void }) {
  const flags = useQuery({
    queryKey: projectFlagsKey(project, page),
    queryFn: () =>
      ok(
        api.GET('/api/admin/search/features', {
          params: { query: { project: `IS:${project}`, sortBy: 'name', sortOrder: 'asc', offset: String((page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  if (flags.isPending) return <PageLoader />;
  if (flags.isError) return <QueryError error={flags.error} />;
  const { features, total } = flags.data;
  if (total === 0) return <Empty>No flags in {name} yet — create the first one with New flag.</Empty>;
  return (
    <>
      <Table striped highlightOnHover aria-label={`Flags of ${name}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Environments</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {features.map((flag) => (
            <Table.Tr key={flag.name}>
              <FlagNameCell flag={flag} />
              <Table.Td>{flag.type}</Table.Td>
              <FlagEnvironmentsCell flag={flag} />
              <Table.Td>{flag.lastSeenAt ? when(flag.lastSeenAt) : 'Never'}</Table.Td>
              <FlagCreatedCell flag={flag} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <FlagTableFooter total={total} page={page} onPage={onPage}>
        {' · '}
        <Anchor component={Link} to={`/flags?project=${encodeURIComponent(project)}`} underline="always">
          search and filter them in the flag list
        </Anchor>
      </FlagTableFooter>
    </>
  );
}
