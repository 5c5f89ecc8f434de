// A request's conversation: its comments, oldest first, and a box to add one (addChangeRequestComment).
import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../../api';
import { useSubmit, when } from '../forms';
import { requestPath, useRequestChange, type ChangeRequest } from './request-access';

export function RequestComments({ request, canComment, level }: { request: ChangeRequest; canComment: boolean; level: 3 | 4 }) {
  const [text, setText] = useState('');
  const add = useRequestChange((comment: string) =>
    ok(api.POST('/api/admin/projects/{projectId}/change-requests/{changeRequestId}/comments', { params: { path: requestPath(request) }, body: { text: comment } })),
  );
  const [busy, submit] = useSubmit(
    () => add.mutateAsync(text.trim()),
    () => setText(''),
    'Comment added.',
  );
  if (request.comments.length === 0 && !canComment) return null;
  const headingId = `change-request-${request.id}-comments`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={level} size="sm" id={headingId}>
        Comments
      </Title>
      {request.comments.map((comment) => (
        <Paper key={comment.id} withBorder p="xs">
          <Text size="xs" c="gray.7">
            {comment.createdBy.username} · {when(comment.createdAt)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {comment.text}
          </Text>
        </Paper>
      ))}
      {canComment && (
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs">
            <Textarea
              label="Comment"
              autosize
              minRows={1}
              maxLength={10000}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" variant="light" loading={busy} disabled={text.trim() === ''}>
              Add comment
            </Button>
          </Group>
        </form>
      )}
    </Stack>
  );
}
