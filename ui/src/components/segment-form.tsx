// A segment's dialog: empty to create one (createSegment), or prefilled with a segment to replace it whole
// (updateSegment: a field left out is cleared, so every field is sent). The name is checked when it is left (not blank,
// then whether another segment has it); a refusal is said on the field it names.
import { Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { constraintBody, constraintProblem, type Constraint } from '../lib/constraints.js';
import { FREE_TEXT_NAME, takenBecause, useFieldErrors, useFormChange, useNameField } from '../lib/field-errors';
import { useProjects } from '../queries';
import { ConstraintEditor } from './flag/constraint-editor';
import { FormDialog } from './forms';

type Segment = components['schemas']['Segment'];
type UpsertSegment = components['schemas']['UpsertSegment'];

export function SegmentDialog({ segment, onClose }: { segment?: Segment; onClose: () => void }) {
  const projects = useProjects();
  const name = useNameField({
    rule: FREE_TEXT_NAME,
    initial: segment?.name ?? '',
    unchanged: segment?.name,
    taken: (candidate) => takenBecause(() => ok(api.POST('/api/admin/segments/validate', { body: { name: candidate } })), FREE_TEXT_NAME, 'name'),
  });
  const [description, setDescription] = useState(segment?.description ?? '');
  const [project, setProject] = useState<string | null>(segment?.project ?? null);
  const [constraints, setConstraints] = useState<Constraint[]>(segment?.constraints ?? []);
  const refusals = useFieldErrors({ name, description: undefined, project: undefined });
  const save = useFormChange(() => {
    const body: UpsertSegment = { name: name.value.trim(), description: description.trim() || null, project, constraints: constraints.map(constraintBody) };
    return (
      segment
        ? ok(api.PUT('/api/admin/segments/{segmentId}', { params: { path: { segmentId: segment.id } }, body }))
        : ok(api.POST('/api/admin/segments', { body }))
    ).catch(refusals.take);
  }, ['segments']);
  const submit = async () => {
    refusals.clear();
    // Nothing is sent while the name is refused (the field says why); the rejection keeps the dialog open.
    if (!(await name.check())) throw new Error('The name is refused');
    return save.mutateAsync();
  };
  return (
    <FormDialog
      title={segment ? `Edit segment ${segment.name}` : 'New segment'}
      submitLabel={segment ? 'Save segment' : 'Create segment'}
      done={`Segment ${name.value.trim()} ${segment ? 'saved' : 'created'}.`}
      size="56rem"
      onClose={onClose}
      onSubmit={submit}
      disabled={constraints.some((c) => constraintProblem(c) !== undefined)}
      error={refusals.form}
    >
      <TextInput label="Name" data-autofocus {...name.inputProps} />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={refusals.of('description')} />
      <Select
        label="Project"
        description={segment && segment.usedInFeatures > 0 ? 'Limited to one project only when every flag using it is in that project' : undefined}
        placeholder="Every project"
        clearable
        data={(projects.data ?? []).map((p) => p.id)}
        value={project}
        onChange={setProject}
        error={refusals.of('project')}
      />
      <ConstraintEditor constraints={constraints} onChange={setConstraints} />
    </FormDialog>
  );
}
