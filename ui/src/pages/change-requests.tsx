import { Anchor, Group, Select, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ok } from '../api';
import { ChangeRequestConfig } from '../components/change-requests/change-request-config';
import type { ChangeRequestState } from '../components/change-requests/request-access';
import { RequestCard } from '../components/change-requests/request-card';
import { Loaded } from '../components/feedback';
import { Page } from '../components/page';
import { projectOptions, useProjects } from '../queries';

const states: ChangeRequestState[] = ['Draft', 'In review', 'Approved', 'Scheduled', 'Applied', 'Rejected', 'Cancelled'];

/** A project's change requests and its configuration; `?request=<id>` shows one request alone. */
export default function ChangeRequests() {
  const [params, setParams] = useSearchParams();
  const project = params.get('project') ?? 'default';
  const request = Number(params.get('request'));
  if (Number.isInteger(request) && request > 0) return <OneRequest project={project} id={request} />;
  return <AllRequests project={project} setProject={(p) => setParams({ project: p })} />;
}

function AllRequests({ project, setProject }: { project: string; setProject: (project: string) => void }) {
  const projects = useProjects();
  const [state, setState] = useState<string | null>(null);
  const requests = useQuery({
    queryKey: ['change-requests', project, 'list', state],
    queryFn: () =>
      ok(
        api.GET('/api/admin/projects/{projectId}/change-requests', {
          params: { path: { projectId: project }, query: state ? { state: state as ChangeRequestState } : {} },
        }),
      ),
  });
  return (
    <Page title="Change requests" description="Flag changes in protected environments wait here for their approvals.">
      <Group>
        <Select label="Project" data={projectOptions(projects.data)} value={project} onChange={(p) => p && setProject(p)} allowDeselect={false} w={220} />
      </Group>
      <Stack gap="xs" component="section" aria-labelledby="change-request-config">
        <Title order={2} size="h4" id="change-request-config">
          Configuration
        </Title>
        <ChangeRequestConfig project={project} />
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="change-request-list">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4" id="change-request-list">
            Requests
          </Title>
          <Select label="State" placeholder="Any" clearable data={states} value={state} onChange={setState} w={180} />
        </Group>
        <Loaded query={requests} empty="No change requests. They are made when someone changes a flag in an environment whose project requires approval (a project's change request settings)." isEmpty={(data) => data.length === 0}>
          {(data) => data.map((r) => <RequestCard key={r.id} request={r} />)}
        </Loaded>
      </Stack>
    </Page>
  );
}

function OneRequest({ project, id }: { project: string; id: number }) {
  const request = useQuery({
    queryKey: ['change-requests', project, 'request', id],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/change-requests/{changeRequestId}', { params: { path: { projectId: project, changeRequestId: id } } })),
  });
  return (
    <Page title={`Change request #${id}`} description={`In the project ${project}.`}>
      <Anchor component={Link} to={`/change-requests?project=${encodeURIComponent(project)}`}>
        All change requests of {project}
      </Anchor>
      <Loaded query={request} empty="" isEmpty={() => false}>
        {(data) => <RequestCard request={data} linked={false} />}
      </Loaded>
    </Page>
  );
}
