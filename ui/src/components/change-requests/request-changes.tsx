// A request's changes, by flag; while it is a draft or in review its author edits a change's payload
// (updateChangeRequestChange, as JSON checked before it is sent) or discards it (discardChangeRequestChange).
import { Anchor, Badge, Code, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../../api';
import { flagPath } from '../../paths';
import { DialogButton } from '../dialog-button';
import { ConfirmButton } from '../feedback';
import { FormDialog } from '../forms';
import { requestPath, useRequestChange, type ChangeRequest, type ChangeRequestChange, type RequestRights } from './request-access';

const describe = (change: ChangeRequestChange, feature: string) => `change ${change.id} (${change.action} of ${feature})`;

/** What editing a request in review costs: the approvals it has so far. */
const withdrawn = (request: ChangeRequest) => (request.state === 'In review' && request.approvals.length > 0 ? ' The approvals given so far are withdrawn.' : '');

export function RequestChanges({ request, rights, level }: { request: ChangeRequest; rights: RequestRights; level: 3 | 4 }) {
  const discard = useRequestChange((change: ChangeRequestChange) =>
    ok(
      api.DELETE('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/changes/{changeId}', {
        params: { path: { ...requestPath(request), changeId: change.id } },
      }),
    ),
  );
  if (request.features.length === 0) return <Text size="sm">No changes yet.</Text>;
  return (
    <Stack gap="xs">
      {request.features.map((feature) => (
        <section key={feature.name} aria-label={`Changes to ${feature.name}`}>
          <Title order={level} size="sm">
            <Anchor component={Link} to={flagPath(request.project, feature.name)} inherit>
              {feature.name}
            </Anchor>
          </Title>
          <Stack gap={4} mt={4}>
            {feature.changes.map((change) => (
              <Group key={change.id} gap="xs" align="flex-start" wrap="nowrap" role="group" aria-label={`Change ${change.id}: ${change.action}`}>
                <Badge variant="default" tt="none">
                  {change.action}
                </Badge>
                <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', flex: 1 }}>{JSON.stringify(change.payload)}</Code>
                {rights.edit && (
                  <Group gap={4} wrap="nowrap">
                    <DialogButton
                      label="Edit"
                      ariaLabel={`Edit ${describe(change, feature.name)}`}
                      dialog={(close) => <EditChangeDialog request={request} feature={feature.name} change={change} onClose={close} />}
                    />
                    <ConfirmButton
                      label="Discard"
                      title={`Discard ${describe(change, feature.name)}?`}
                      size="xs"
                      variant="subtle"
                      done="Change discarded."
                      onConfirm={() => discard.mutateAsync(change)}
                    >
                      <Text size="sm">
                        The request no longer proposes it.{withdrawn(request)}
                      </Text>
                    </ConfirmButton>
                  </Group>
                )}
              </Group>
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}

/** The text as a payload (a JSON object or array), or why it is not one. */
function parsePayload(text: string): { payload: Record<string, unknown> | unknown[] } | { error: string } {
  try {
    const payload: unknown = JSON.parse(text);
    if (payload !== null && typeof payload === 'object') return { payload: payload as Record<string, unknown> | unknown[] };
    return { error: 'The payload is a JSON object or array.' };
  } catch (error) {
    return { error: `Not JSON: ${(error as Error).message}` };
  }
}

function EditChangeDialog({ request, feature, change, onClose }: { request: ChangeRequest; feature: string; change: ChangeRequestChange; onClose: () => void }) {
  const [text, setText] = useState(JSON.stringify(change.payload, null, 2));
  const parsed = parsePayload(text);
  const save = useRequestChange((payload: Record<string, unknown> | unknown[]) =>
    ok(
      api.PUT('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/changes/{changeId}', {
        params: { path: { ...requestPath(request), changeId: change.id } },
        body: { feature, action: change.action, payload },
      }),
    ),
  );
  return (
    <FormDialog
      title={`Edit ${describe(change, feature)}`}
      submitLabel="Save change"
      size="lg"
      onClose={onClose}
      disabled={'error' in parsed}
      done="Change saved."
      onSubmit={async () => {
        if ('payload' in parsed) await save.mutateAsync(parsed.payload);
      }}
    >
      <Text size="sm">
        The body {change.action} takes, as the direct operation would.{withdrawn(request)}
      </Text>
      <Textarea
        label="Payload (JSON)"
        autosize
        minRows={4}
        maxRows={16}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-autofocus
        value={text}
        error={'error' in parsed ? parsed.error : undefined}
        onChange={(e) => setText(e.currentTarget.value)}
      />
    </FormDialog>
  );
}
