// A segment's dialog: empty to create one (createSegment), or prefilled with a segment to replace it whole
// (updateSegment: a field left out is cleared, so every field is sent).
import { Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { constraintBody, constraintProblem, type Constraint } from '../lib/constraints.js';
import { useChange, useProjects } from '../queries';
import { ConstraintEditor } from './flag/constraint-editor';
import { FormDialog } from './forms';

type Segment = components['schemas']['Segment'];
type UpsertSegment = components['schemas']['UpsertSegment'];

export function SegmentDialog({ segment, onClose }: { segment?: Segment; onClose: () => void }) {
  const projects = useProjects();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [project, setProject] = useState<string | null>(segment?.project ?? null);
  const [constraints, setConstraints] = useState<Constraint[]>(segment?.constraints ?? []);
  const save = useChange(() => {
    const body: UpsertSegment = { name: name.trim(), description: description.trim() || null, project, constraints: constraints.map(constraintBody) };
    return segment
      ? ok(api.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } }, body }))
      : ok(api.POST('/api/admin/segments', { body }));
  }, ['segments']);
  return (
    <FormDialog
      title={segment ? `Edit segment ${segment.name}` : 'New segment'}
      submitLabel={segment ? 'Save segment' : 'Create segment'}
      size="56rem"
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      disabled={constraints.some((c) => constraintProblem(c) !== undefined)}
    >
      <TextInput label="Name" required data-autofocus maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select
        label="Project"
        description={segment && segment.usedInFeatures > 0 ? 'Limited to one project only when every flag using it is in that project' : undefined}
        placeholder="Every project"
        clearable
        data={(projects.data ?? []).map((p) => p.id)}
        value={project}
        onChange={setProject}
      />
      <ConstraintEditor constraints={constraints} onChange={setConstraints} />
    </FormDialog>
  );
}
