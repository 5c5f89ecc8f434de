// One change request: its title, state, reviews and schedule, the state moves the signed-in user may make (submit,
// approve, reject, apply, schedule, cancel), its changes and its comments.
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DialogButton } from '../dialog-button';
import { ConfirmButton } from '../feedback';
import { when } from '../forms';
import { useRequestRights, type ChangeRequest, type RequestRights } from './request-access';
import { RequestChanges } from './request-changes';
import { RequestComments } from './request-comments';
import { RejectDialog, RenameDialog, ScheduleDialog, useMoveRequest } from './request-dialogs';
import { confirmDone } from '../confirm-done';

/** The address of a request's own view. */
export const requestHref = (request: Pick<ChangeRequest, 'project' | 'id'>) => `/change-requests?project=${encodeURIComponent(request.project)}&request=${request.id}`;

export function RequestCard({ request, linked = true }: { request: ChangeRequest; linked?: boolean }) {
  const rights = useRequestRights(request);
  const title = `#${request.id} ${request.title}`;
  // Under the list's h2, or the page's own h1 when it is shown alone; its parts' headings one below.
  const [level, partLevel] = linked ? ([3, 4] as const) : ([2, 3] as const);
  return (
    <Card withBorder component="article" aria-label={`Change request ${request.id}`}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={level} size="h4">
              {linked ? (
                <Anchor component={Link} to={requestHref(request)} inherit>
                  {title}
                </Anchor>
              ) : (
                title
              )}
            </Title>
            <Badge variant="light" tt="none">
              {request.state}
            </Badge>
            {rights.edit && <DialogButton label="Rename" ariaLabel={`Rename change request #${request.id}`} dialog={(close) => <RenameDialog request={request} onClose={close} />} />}
          </Group>
          <Text size="sm">
            {request.environment} · by {request.createdBy.username} · {when(request.createdAt)} · {request.approvals.length} of {request.minApprovals} approvals
          </Text>
          <Reviews request={request} />
        </Stack>
        <StateActions request={request} rights={rights} />
      </Group>
      <Stack gap="sm" mt="sm">
        {request.state === 'Scheduled' && <Schedule request={request} />}
        <RequestChanges request={request} rights={rights} level={partLevel} />
        <RequestComments request={request} canComment={rights.comment} level={partLevel} />
      </Stack>
    </Card>
  );
}

function Reviews({ request }: { request: ChangeRequest }) {
  const reviews = [
    ...request.approvals.map((review) => ({ ...review, verb: 'Approved' })),
    ...request.rejections.map((review) => ({ ...review, verb: 'Rejected' })),
  ];
  if (reviews.length === 0) return null;
  return (
    <Stack gap={0}>
      {reviews.map((review) => (
        <Text key={`${review.verb} ${review.createdBy.id}`} size="sm">
          {review.verb} by {review.createdBy.username} · {when(review.createdAt)}
          {review.comment && `: ${review.comment}`}
        </Text>
      ))}
    </Stack>
  );
}

/** When a scheduled request is applied; why it will not be, when the service suspended it or applying it failed. */
function Schedule({ request }: { request: ChangeRequest }) {
  const schedule = request.schedule;
  if (!schedule) return null;
  if (schedule.status === 'pending') {
    return (
      <Text size="sm" fw={600}>
        Scheduled for {when(schedule.scheduledAt)}
      </Text>
    );
  }
  const failed = schedule.status === 'failed';
  return (
    <Alert color={failed ? 'red' : 'yellow'} title={failed ? `Applying it at ${when(schedule.scheduledAt)} failed` : `Its schedule for ${when(schedule.scheduledAt)} is suspended`}>
      {schedule.reason ?? 'The service gave no reason.'} Apply it now, schedule it again or cancel it.
    </Alert>
  );
}

function StateActions({ request, rights }: { request: ChangeRequest; rights: RequestRights }) {
  const move = useMoveRequest(request);
  const moving = (state: ChangeRequest['state']) => move.isPending && move.variables?.state === state;
  const id = `#${request.id}`;
  const moveTo = (state: 'In review' | 'Approved' | 'Applied', said: string) => move.mutate({ state }, { onSuccess: () => confirmDone(`Change request ${id} ${said}.`) });
  return (
    <Group gap="xs">
      {rights.submit && (
        <Button size="xs" loading={moving('In review')} onClick={() => moveTo('In review', 'sent for review')}>
          Submit for review
        </Button>
      )}
      {rights.review && (
        <>
          <Button size="xs" loading={moving('Approved')} onClick={() => moveTo('Approved', 'approved')}>
            Approve
          </Button>
          <DialogButton label="Reject" dialog={(close) => <RejectDialog request={request} onClose={close} />} />
        </>
      )}
      {rights.apply && (
        <Button size="xs" loading={moving('Applied')} onClick={() => moveTo('Applied', 'applied')}>
          {request.state === 'Scheduled' ? 'Apply now' : 'Apply'}
        </Button>
      )}
      {rights.schedule && (
        <DialogButton label={request.state === 'Scheduled' ? 'Reschedule' : 'Schedule'} dialog={(close) => <ScheduleDialog request={request} onClose={close} />} />
      )}
      {rights.cancel && (
        <ConfirmButton
          label="Cancel request"
          title={`Cancel change request ${id}?`}
          confirmLabel="Cancel request"
          size="xs"
          variant="default"
          done={`Change request ${id} cancelled.`}
          onConfirm={() => move.mutateAsync({ state: 'Cancelled' })}
        >
          <Text size="sm">It is closed, and none of its changes will be applied.</Text>
        </ConfirmButton>
      )}
    </Group>
  );
}
