// A project's dialog: empty to create one (createProject), or prefilled with a project to change its name,
// description, mode and default stickiness (updateProject; every field is sent). The id is chosen once.
import { Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange, useContextFields } from '../queries';
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
  const [id, setId] = useState(project?.id ?? '');
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [mode, setMode] = useState<ProjectMode>(project?.mode ?? 'open');
  const [stickiness, setStickiness] = useState(project?.defaultStickiness ?? 'default');
  const stickinessOptions = [...new Set(['default', 'userId', 'sessionId', 'random', ...(fields.data ?? []).filter((f) => f.stickiness).map((f) => f.name), stickiness])];
  const save = useChange(() => {
    const body = { name: name.trim() || id.trim(), description: description.trim() || null, mode, defaultStickiness: stickiness };
    return project
      ? ok(api.PUT('/api/admin/projects/{projectId}', { params: { path: { projectId: project.id } }, body }))
      : ok(api.POST('/api/admin/projects', { body: { id: id.trim(), ...body } }));
  }, ['projects']);
  return (
    <FormDialog title={project ? `Edit project ${project.name}` : 'New project'} submitLabel={project ? 'Save project' : 'Create project'} onClose={onClose} onSubmit={() => save.mutateAsync()}>
      {project ? (
        <TextInput label="Id" description="Used in API paths and tokens; cannot change" value={id} readOnly />
      ) : (
        <TextInput label="Id" description="Used in API paths and tokens; cannot change" required data-autofocus value={id} onChange={(e) => setId(e.currentTarget.value)} />
      )}
      <TextInput
        label="Name"
        required={Boolean(project)}
        data-autofocus={project ? true : undefined}
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        placeholder={id}
      />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select label="Mode" description="Stored and shown; access is granted by roles whatever the mode" data={MODES} value={mode} onChange={(v) => v && setMode(v as ProjectMode)} allowDeselect={false} />
      <Select
        label="Default stickiness"
        description="For gradual rollouts and variants of the project's flags that name none"
        data={stickinessOptions}
        value={stickiness}
        onChange={(v) => v && setStickiness(v)}
        allowDeselect={false}
      />
    </FormDialog>
  );
}
