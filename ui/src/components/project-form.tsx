// A project's dialog: empty to create one (createProject), or prefilled with a project to change its name,
// description, mode and default stickiness (updateProject; every field is sent). The id is chosen once: checked when
// it is left (its format, then whether a project has it); a refusal is said on the field it names.
import { Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { FREE_TEXT_NAME, optional, takenBecause, URL_SAFE_NAME, useFieldErrors, useFormChange, useNameField } from '../lib/field-errors';
import { useContextFields } from '../queries';
import { FormDialog } from './forms';

type Project = components['schemas']['Project'];
type ProjectMode = components['schemas']['ProjectMode'];

const MODES: { value: ProjectMode; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'protected', label: 'Protected' },
  { value: 'private', label: 'Private' },
];

export function ProjectDialog({ project, onClose }: { project?: Project; onClose: () => void }) {
  const fields = useContextFields();
  const id = useNameField({
    rule: URL_SAFE_NAME,
    initial: project?.id ?? '',
    unchanged: project?.id,
    taken: (candidate) => takenBecause(() => ok(api.POST('/api/admin/projects/validate', { body: { id: candidate } })), URL_SAFE_NAME, 'id'),
  });
  // Optional when creating (the id is the name then); several projects may share a name.
  const name = useNameField({ rule: project ? FREE_TEXT_NAME : optional(FREE_TEXT_NAME), initial: project?.name ?? '' });
  const [description, setDescription] = useState(project?.description ?? '');
  const [mode, setMode] = useState<ProjectMode>(project?.mode ?? 'open');
  const [stickiness, setStickiness] = useState(project?.defaultStickiness ?? 'default');
  const stickinessOptions = [...new Set(['default', 'userId', 'sessionId', 'random', ...(fields.data ?? []).filter((f) => f.stickiness).map((f) => f.name), stickiness])];
  const refusals = useFieldErrors({ id, name, description: undefined, defaultStickiness: undefined });
  const shownName = name.value.trim() || id.value.trim();
  const save = useFormChange(() => {
    const body = { name: shownName, description: description.trim() || null, mode, defaultStickiness: stickiness };
    return (
      project
        ? ok(api.PUT('/api/admin/projects/{projectId}', { params: { path: { projectId: project.id } }, body }))
        : ok(api.POST('/api/admin/projects', { body: { id: id.value.trim(), ...body } }))
    ).catch(refusals.take);
  }, ['projects']);
  const submit = async () => {
    refusals.clear();
    // Nothing is sent while a field is refused (it says why); the rejection keeps the dialog open.
    const checked = await Promise.all([project ? true : id.check(), name.check()]);
    if (checked.includes(false)) throw new Error('A field is refused');
    return save.mutateAsync();
  };
  return (
    <FormDialog
      title={project ? `Edit project ${project.name}` : 'New project'}
      submitLabel={project ? 'Save project' : 'Create project'}
      done={project ? `Project ${shownName} saved.` : `Project ${shownName} created.`}
      onClose={onClose}
      onSubmit={submit}
      error={refusals.form}
    >
      {project ? (
        <TextInput label="Id" description="Used in API paths and tokens; cannot change" value={id.value} readOnly />
      ) : (
        <TextInput label="Id" description="Letters, digits and _ . ! ~ * ' ( ) -; used in API paths and tokens; cannot change" data-autofocus {...id.inputProps} />
      )}
      <TextInput label="Name" data-autofocus={project ? true : undefined} placeholder={id.value} {...name.inputProps} />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={refusals.of('description')} />
      <Select label="Mode" description="Stored and shown; access is granted by roles whatever the mode" data={MODES} value={mode} onChange={(v) => v && setMode(v as ProjectMode)} allowDeselect={false} />
      <Select
        label="Default stickiness"
        description="For gradual rollouts and variants of the project's flags that name none"
        data={stickinessOptions}
        value={stickiness}
        onChange={(v) => v && setStickiness(v)}
        allowDeselect={false}
        error={refusals.of('defaultStickiness')}
      />
    </FormDialog>
  );
}
