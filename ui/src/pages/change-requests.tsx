import { Badge, Button, Card, Code, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { Loaded } from '../components/feedback';
import { when } from '../components/forms';
import { Page } from '../components/page';
import { holdsIn } from '../lib/permissions.js';
import { useChange, useProjects } from '../queries';
import { useSession } from '../session';

type ChangeRequest = components['schemas']['ChangeRequest'];
type State = components['schemas']['ChangeRequestState'];

const states: State[] = ['Draft', 'In review', 'Approved', 'Scheduled', 'Applied', 'Rejected', 'Cancelled'];

export default function ChangeRequests() {
  const projects = useProjects();
  const [project, setProject] = useState<string>('default');
  const [state, setState] = useState<string | null>(null);
  const requests = useQuery({
    queryKey: ['change-requests', project, state],
    queryFn: () =>
      ok(api.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId: project }, query: state ? { state: state as State } : {} } })),
  });
  return (
    <Page title="Change requests" description="Flag changes in protected environments wait here for their approvals.">
      <Group>
        <Select label="Project" data={(projects.data ?? []).map((p) => p.id)} value={project} onChange={(p) => p && setProject(p)} allowDeselect={false} w={220} />
        <Select label="State" placeholder="Any" clearable data={states} value={state} onChange={setState} w={180} />
      </Group>
      <Loaded query={requests} empty="No change requests." isEmpty={(data) => data.length === 0}>
        {(data) => data.map((request) => <RequestCard key={request.id} request={request} />)}
      </Loaded>
    </Page>
  );
}

function RequestCard({ request }: { request: ChangeRequest }) {
  const session = useSession();
  const scope = { project: request.project, environment: request.environment };
  const mine = session.user?.id === request.createdBy.id;
  const move = useChange(
    (state: State) =>
      ok(
        api.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', {
          params: { path: { projectId: request.project, changeRequestId: request.id } },
          body: { state },
        }),
      ),
    ['change-requests'],
  );
  const actions: { label: string; state: State; allowed: boolean }[] = [
    { label: 'Submit for review', state: 'In review', allowed: mine && request.state === 'Draft' },
    { label: 'Approve', state: 'Approved', allowed: !mine && request.state === 'In review' && holdsIn(session.caller, 'APPROVE_CHANGE_REQUEST', scope) },
    { label: 'Reject', state: 'Rejected', allowed: !mine && request.state === 'In review' && holdsIn(session.caller, 'APPROVE_CHANGE_REQUEST', scope) },
    { label: 'Apply', state: 'Applied', allowed: request.state === 'Approved' && holdsIn(session.caller, 'APPLY_CHANGE_REQUEST', scope) },
    { label: 'Cancel', state: 'Cancelled', allowed: mine && !['Applied', 'Cancelled', 'Rejected'].includes(request.state) },
  ];
  return (
    <Card withBorder component="article" aria-label={`Change request ${request.id}`}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={2} size="h4">
              #{request.id} {request.title}
            </Title>
            <Badge variant="light" tt="none">
              {request.state}
            </Badge>
          </Group>
          <Text size="sm">
            {request.environment} · by {request.createdBy.username} · {when(request.createdAt)} · {request.approvals.length} of {request.minApprovals} approvals
          </Text>
        </Stack>
        <Group gap="xs">
          {actions
            .filter((a) => a.allowed)
            .map((a) => (
              <Button key={a.label} size="xs" variant={a.state === 'Cancelled' || a.state === 'Rejected' ? 'default' : 'filled'} loading={move.isPending && move.variables === a.state} onClick={() => move.mutate(a.state)}>
                {a.label}
              </Button>
            ))}
        </Group>
      </Group>
      <Stack gap="xs" mt="sm">
        {request.features.map((feature) => (
          <div key={feature.name}>
            <Text fw={600} size="sm">
              {feature.name}
            </Text>
            {feature.changes.map((change) => (
              <Group key={change.id} gap="xs" align="flex-start" wrap="nowrap">
                <Badge variant="default" tt="none">
                  {change.action}
                </Badge>
                <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{JSON.stringify(change.payload)}</Code>
              </Group>
            ))}
          </div>
        ))}
        {request.comments.map((comment, i) => (
          <Text key={i} size="sm">
            {comment.createdBy.username}: {comment.text}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
