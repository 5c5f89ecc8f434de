import { Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { ConstraintEditor } from '../components/flag/constraint-editor';
import { FormDialog, NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { constraintBody, constraintProblem, describeConstraint, type Constraint } from '../lib/constraints.js';
import { useChange, useProjects, useSegments } from '../queries';
import { useSession } from '../session';

export default function Segments() {
  const session = useSession();
  const segments = useSegments();
  const remove = useChange((segmentId: number) => ok(api.DELETE('/api/admin/segments/{segmentId}', { params: { path: { segmentId } } })), ['segments']);
  return (
    <Page
      title="Segments"
      description="Sets of constraints that strategies of any flag can share."
      actions={<NewButton label="New segment" allowed={session.canSomewhere('createSegment')} dialog={(close) => <CreateSegment onClose={close} />} />}
    >
      <ListTable
        label="Segments"
        query={segments}
        rowKey={(s) => s.id}
        empty="No segments."
        columns={[
          { label: 'Name', cell: (s) => <strong>{s.name}</strong> },
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
            cell: (s) =>
              session.can('deleteSegment', { project: s.project ?? undefined }) && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${s.name}?`} onConfirm={() => remove.mutateAsync(s.id)}>
                  A segment can be deleted once no strategy uses it.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateSegment({ onClose }: { onClose: () => void }) {
  const projects = useProjects();
  const [name, setName] = useState('');
  const [project, setProject] = useState<string | null>(null);
  const [constraints, setConstraints] = useState<Constraint[]>([]);
  const create = useChange(() => ok(api.POST('/api/admin/segments', { body: { name: name.trim(), project, constraints: constraints.map(constraintBody) } })), ['segments']);
  return (
    <FormDialog
      title="New segment"
      submitLabel="Create segment"
      size="56rem"
      onClose={onClose}
      onSubmit={() => create.mutateAsync()}
      disabled={constraints.some((c) => constraintProblem(c) !== undefined)}
    >
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Select label="Project" placeholder="Every project" clearable data={(projects.data ?? []).map((p) => p.id)} value={project} onChange={setProject} />
      <ConstraintEditor constraints={constraints} onChange={setConstraints} />
    </FormDialog>
  );
}
