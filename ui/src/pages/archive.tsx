// The archive: every project's archived flags by default, or one project's (`?project=`), a page at a time, each
// brought back or deleted for good. Listed by the search's archive filter, which the contract prefers to
// getArchivedFeatures.
import { Group, Pagination, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok } from '../api';
import { ArchivedFlags } from '../components/archived-flags';
import { Page } from '../components/page';
import { pageCount, PAGE_SIZE } from '../lib/flag-search.js';
import { useProjects } from '../queries';

/** The filter's "All projects": no project id has a space in it. */
const ALL = ' all';

export default function Archive() {
  const [params, setParams] = useSearchParams();
  const project = params.get('project') || null;
  const asked = Number(params.get('page'));
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1;
  const projects = useProjects();
  const archived = useQuery({
    queryKey: ['flags', 'archive', project, page],
    queryFn: () =>
      ok(
        api.GET('/api/admin/search/features', {
          params: {
            query: {
              ...(project && { project: `IS:${project}` }),
              archived: 'IS:true',
              sortBy: project ? 'name' : 'project',
              sortOrder: 'asc',
              offset: String((page - 1) * PAGE_SIZE),
              limit: String(PAGE_SIZE),
            },
          },
        }),
      ),
  });
  const total = archived.data?.total;
  const address = (p: string | null, n: number) => ({ ...(p && { project: p }), ...(n > 1 && { page: String(n) }) });
  const show = (next: { project?: string | null; page?: number }) => setParams(address(next.project === undefined ? project : next.project, next.page ?? 1));

  // Reviving or deleting the last flags of the last page leaves it empty: show the page before it.
  useEffect(() => {
    if (total !== undefined && page > pageCount(total)) setParams(address(project, pageCount(total)), { replace: true });
  }, [total, page, project, setParams]);

  const names = new Map((projects.data ?? []).map((p) => [p.id, p.name]));
  return (
    <Page title="Archive" description="Archived flags are hidden from SDKs. Revive one to bring it back as it was, or delete it for good.">
      <Group>
        <Select
          label="Project"
          data={[{ value: ALL, label: 'All projects' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
          value={project ?? ALL}
          onChange={(p) => p && show({ project: p === ALL ? null : p })}
          allowDeselect={false}
          searchable
          w={240}
        />
      </Group>
      <ArchivedFlags key={`${project}/${page}`} project={project} projectNames={names} flags={{ ...archived, data: archived.data?.features }} />
      {total !== undefined && total > 0 && (
        <Group justify="space-between">
          <Text size="sm">
            {total} archived flag{total === 1 ? '' : 's'}
          </Text>
          <Pagination
            total={pageCount(total)}
            value={page}
            onChange={(p) => show({ page: p })}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            hidden={total <= PAGE_SIZE}
          />
        </Group>
      )}
    </Page>
  );
}
