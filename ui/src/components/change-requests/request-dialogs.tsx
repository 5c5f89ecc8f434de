// The dialogs that change a request as a whole: its title (updateChangeRequestTitle), a rejection with its reason,
// and a schedule (updateChangeRequestState to `Scheduled` with `scheduledAt`).
import { Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../../api';
import { isoToLocalInput, localInputToIso } from '../../lib/constraints';
import { FormDialog } from '../forms';
import { requestPath, useRequestChange, type ChangeRequest } from './request-access';

type StateBody = { state: ChangeRequest['state']; comment?: string; scheduledAt?: string };

/** Moves the request to another state (updateChangeRequestState). */
export function useMoveRequest(request: ChangeRequest) {
  return useRequestChange((body: StateBody) => ok(api.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/state', { params: { path: requestPath(request) }, body })));
}

export function RenameDialog({ request, onClose }: { request: ChangeRequest; onClose: () => void }) {
  const [title, setTitle] = useState(request.title);
  const rename = useRequestChange((text: string) =>
    ok(api.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/title', { params: { path: requestPath(request) }, body: { title: text } })),
  );
  return (
    <FormDialog title={`Rename change request #${request.id}`} submitLabel="Rename" onClose={onClose} disabled={title.trim() === ''} onSubmit={() => rename.mutateAsync(title.trim())} done="Change request renamed.">
      <TextInput label="Title" required maxLength={250} data-autofocus value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
    </FormDialog>
  );
}

export function RejectDialog({ request, onClose }: { request: ChangeRequest; onClose: () => void }) {
  const [comment, setComment] = useState('');
  const move = useMoveRequest(request);
  return (
    <FormDialog
      title={`Reject change request #${request.id}`}
      submitLabel="Reject"
      onClose={onClose}
      onSubmit={() => move.mutateAsync({ state: 'Rejected', ...(comment.trim() && { comment: comment.trim() }) })}
      done={`Change request #${request.id} rejected.`}
    >
      <Text size="sm">A rejected request is closed: none of its changes will be applied.</Text>
      <Textarea label="Reason" description="Optional; shown with the rejection" maxLength={10000} autosize minRows={2} data-autofocus value={comment} onChange={(e) => setComment(e.currentTarget.value)} />
    </FormDialog>
  );
}

/** A minute from now, as a `datetime-local` value: the earliest time the service takes. */
const soonest = () => isoToLocalInput(new Date(Date.now() + 60_000).toISOString());

export function ScheduleDialog({ request, onClose }: { request: ChangeRequest; onClose: () => void }) {
  const [at, setAt] = useState(request.state === 'Scheduled' && request.schedule ? isoToLocalInput(request.schedule.scheduledAt) : '');
  const move = useMoveRequest(request);
  const scheduledAt = localInputToIso(at);
  return (
    <FormDialog
      title={`Schedule change request #${request.id}`}
      submitLabel="Schedule"
      onClose={onClose}
      disabled={!scheduledAt}
      onSubmit={() => move.mutateAsync({ state: 'Scheduled', scheduledAt })}
      done={`Change request #${request.id} scheduled for ${scheduledAt ? new Date(scheduledAt).toLocaleString() : ''}.`}
    >
      <Text size="sm">
        Its changes are applied in {request.environment} at this time, as you. If a flag it changes is archived or a strategy it changes is changed meanwhile,
        the schedule is suspended instead.
      </Text>
      <TextInput label="Apply at" description="Your local time" type="datetime-local" required min={soonest()} data-autofocus value={at} onChange={(e) => setAt(e.currentTarget.value)} />
    </FormDialog>
  );
}
