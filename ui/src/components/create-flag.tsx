import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, ok } from '../api';
import { takenBecause, URL_SAFE_NAME, useFieldErrors, useNameField } from '../lib/field-errors';
import { projectsWhere } from '../lib/permissions.js';
import { flagPath } from '../paths';
import { projectOptions, useFeatureTypes, useProjects } from '../queries';
import { useSession } from '../session';
import { confirmDone } from './confirm-done';

/**
 * "New flag": a name (checked when it is left: its format, then whether a flag, archived ones included, has it), a
 * project the user may create flags in (the one being viewed, else `default`), a type; then the new flag's page.
 */
export function CreateFlag({ trigger, project: viewed }: { trigger: (open: () => void) => ReactNode; project?: string | null }) {
  const [opened, setOpened] = useState(false);
  const session = useSession();
  const projects = useProjects();
  const types = useFeatureTypes();
  const allowed = projectsWhere(session.caller, 'createFeature', (projects.data ?? []).map((p) => p.id));
  const name = useNameField({
    rule: URL_SAFE_NAME,
    taken: (candidate) => takenBecause(() => ok(api.POST('/api/admin/features/validate', { body: { name: candidate } })), URL_SAFE_NAME, 'name'),
  });
  const [project, setProject] = useState<string | null>(null);
  const [type, setType] = useState<string | null>('release');
  const [description, setDescription] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const refusals = useFieldErrors({ name, description: undefined, type: undefined });
  const create = useMutation({
    mutationFn: (projectId: string) =>
      ok(
        api.POST('/api/admin/projects/{projectId}/features', {
          params: { path: { projectId } },
          body: { name: name.value.trim(), type: type ?? 'release', ...(description.trim() && { description: description.trim() }) },
        }),
      ).catch(refusals.take),
    // A refusal (400) is said on the field it names.
    meta: { errorsOnFields: true },
    onSuccess: async (flag) => {
      await queryClient.invalidateQueries({ queryKey: ['flags'] });
      setOpened(false);
      confirmDone(`Flag ${flag.name} created.`);
      navigate(flagPath(flag.project, flag.name));
    },
  });

  const preferred = [viewed, 'default'].find((id) => id && allowed.includes(id));
  const chosenProject = project ?? preferred ?? allowed[0] ?? null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    refusals.clear();
    // Nothing is sent while the name is refused (the field says why).
    if (chosenProject && (await name.check())) create.mutate(chosenProject);
  };

  return (
    <>
      {trigger(() => setOpened(true))}
      <Modal opened={opened} onClose={() => setOpened(false)} title="New flag">
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" description="Letters, digits and _ . ! ~ * ' ( ) -; unique, archived flags included" data-autofocus {...name.inputProps} />
            <Select label="Project" required data={projectOptions(projects.data?.filter((p) => allowed.includes(p.id)))} value={chosenProject} onChange={setProject} allowDeselect={false} />
            <Select
              label="Type"
              data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              value={type}
              onChange={setType}
              allowDeselect={false}
              error={refusals.of('type')}
            />
            <Textarea
              label="Description"
              autosize
              minRows={2}
              maxLength={1000}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={refusals.of('description')}
            />
            {refusals.form && (
              <Alert color="red" role="alert">
                {refusals.form}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} disabled={!chosenProject}>
                Create flag
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
