import { Group, Stack, Text } from '@mantine/core';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { SegmentDialog } from '../components/segment-form';
import { describeConstraint } from '../lib/constraints.js';
import { useChange, useSegments } from '../queries';
import { useSession } from '../session';

export default function Segments() {
  const session = useSession();
  const segments = useSegments();
  const remove = useChange((segmentId: number) => ok(api.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId } } })), ['segments']);
  return (
    <Page
      title="Segments"
      description="Sets of constraints that strategies of any flag can share."
      actions={<NewButton label="New segment" allowed={session.canSomewhere('createSegment')} dialog={(close) => <SegmentDialog onClose={close} />} />}
    >
      <ListTable
        label="Segments"
        query={segments}
        rowKey={(s) => s.id}
        empty="No segments yet — create one to reuse a set of constraints in many flags' strategies."
        columns={[
          { label: 'Name', cell: (s) => <strong>{s.name}</strong> },
          { label: 'Description', cell: (s) => s.description },
          { label: 'Project', cell: (s) => s.project ?? 'all' },
          {
            label: 'Constraints',
            cell: (s) => (
              <Stack gap={2}>
                {s.constraints.map((c, i) => (
                  <Text key={i} size="sm" ff="monospace">
                    {describeConstraint(c)}
                  </Text>
                ))}
              </Stack>
            ),
          },
          { label: 'Used by strategies', cell: (s) => s.usedInFeatures },
          {
            label: 'Actions',
            cell: (s) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateSegment', { project: s.project ?? undefined }) && (
                  <DialogButton label="Edit" ariaLabel={`Edit ${s.name}`} dialog={(close) => <SegmentDialog segment={s} onClose={close} />} />
                )}
                {session.can('deleteSegment', { project: s.project ?? undefined }) && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${s.name}?`} done={`${s.name} deleted.`} onConfirm={() => remove.mutateAsync(s.id)}>
                    A segment can be deleted once no strategy uses it.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
