import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, ok } from '../api';
import { projectsWhere } from '../lib/permissions.js';
import { flagPath } from '../paths';
import { useFeatureTypes, useProjects } from '../queries';
import { useSession } from '../session';

/**
 * The contract's flag name pattern as the browser reads a `pattern` attribute: with the `v` flag, where `(`, `)` and
 * `-` in a class must be escaped. Not `.` or `..` (they would name the parent in a URL).
 */
const NAME_PATTERN = String.raw`(?!\.{1,2}$)[A-Za-z0-9_.!~*'\(\)\-]+`;
const NAME_RULE = "Use only letters, digits and _ . ! ~ * ' ( ) -, with no spaces, and not just . or ..";

/**
 * "New flag": a name, a project the user may create flags in (the one being viewed, else `default`), a type; then the
 * new flag's page.
 */
export function CreateFlag({ trigger, project: viewed }: { trigger: (open: () => void) => ReactNode; project?: string | null }) {
  const [opened, setOpened] = useState(false);
  const session = useSession();
  const projects = useProjects();
  const types = useFeatureTypes();
  const allowed = projectsWhere(session.caller, 'createFeature', (projects.data ?? []).map((p) => p.id));
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [project, setProject] = useState<string | null>(null);
  const [type, setType] = useState<string | null>('release');
  const [description, setDescription] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const create = useMutation({
    mutationFn: (projectId: string) =>
      ok(
        api.POST('/api/admin/projects/{projectId}/features', {
          params: { path: { projectId } },
          body: { name: name.trim(), type: type ?? 'release', ...(description.trim() && { description: description.trim() }) },
        }),
      ),
    onSuccess: async (flag) => {
      await queryClient.invalidateQueries({ queryKey: ['flags'] });
      setOpened(false);
      navigate(flagPath(flag.project, flag.name));
    },
  });

  const preferred = [viewed, 'default'].find((id) => id && allowed.includes(id));
  const chosenProject = project ?? preferred ?? allowed[0] ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosenProject) create.mutate(chosenProject);
  };

  return (
    <>
      {trigger(() => setOpened(true))}
      <Modal opened={opened} onClose={() => setOpened(false)} title="New flag">
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              description="Letters, digits and _ . ! ~ * ' ( ) -"
              required
              data-autofocus
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setNameError(null);
              }}
              pattern={NAME_PATTERN}
              error={nameError}
              onInvalid={(e) => {
                // The field says what is wrong instead of the browser's bubble.
                e.preventDefault();
                setNameError(e.currentTarget.validity.valueMissing ? 'A name is required' : NAME_RULE);
              }}
            />
            <Select label="Project" required data={allowed} value={chosenProject} onChange={setProject} allowDeselect={false} />
            <Select
              label="Type"
              data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              value={type}
              onChange={setType}
              allowDeselect={false}
            />
            <Textarea label="Description" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
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
