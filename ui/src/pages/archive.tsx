// The archive: a project's archived flags (`?project=`, `default` unless said), a page at a time, each brought
// back or deleted for good. Listed by the search's archive filter, which the contract prefers to getArchivedFeatures.
import { Group, Pagination, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { api, ok } from '../api';
import { ArchivedFlags } from '../components/archived-flags';
import { Page } from '../components/page';
import { pageCount, PAGE_SIZE } from '../lib/flag-search.js';
import { useProjects } from '../queries';

export default function Archive() {
  const [params, setParams] = useSearchParams();
  const project = params.get('project') ?? 'default';
  const asked = Number(params.get('page'));
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1;
  const projects = useProjects();
  const archived = useQuery({
    queryKey: ['flags', 'archive', project, page],
    queryFn: () =>
      ok(
        api.GET('/api/admin/search/features', {
          params: {
            query: { project: `IS:${project}`, archived: 'IS:true', sortBy: 'name', sortOrder: 'asc', offset: String((page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE) },
          },
        }),
      ),
  });
  const total = archived.data?.total;
  const show = (next: { project?: string; page?: number }) => {
    const p = next.page ?? 1;
    setParams({ project: next.project ?? project, ...(p > 1 && { page: String(p) }) });
  };

  // Reviving or deleting the last flags of the last page leaves it empty: show the page before it.
  useEffect(() => {
    if (total !== undefined && page > pageCount(total)) setParams({ project, ...(pageCount(total) > 1 && { page: String(pageCount(total)) }) }, { replace: true });
  }, [total, page, project, setParams]);

  return (
    <Page title="Archive" description="Archived flags are hidden from SDKs. Revive one to bring it back as it was, or delete it for good.">
      <Group>
        <Select label="Project" data={(projects.data ?? []).map((p) => p.id)} value={project} onChange={(p) => p && show({ project: p })} allowDeselect={false} w={220} />
      </Group>
      <ArchivedFlags key={`${project}/${page}`} project={project} flags={{ ...archived, data: archived.data?.features }} />
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
