// A project's settings, as its page's Settings tab shows them: its details (changed in the project dialog), its
// environments (added and removed in place), and deleting it once it holds no flags.
import { Button, Group, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useSession } from '../../session';
import { confirmDone } from '../confirm-done';
import { ConfirmButton } from '../feedback';
import { when } from '../forms';
import { Section } from '../page';
import { ProjectDialog } from '../project-form';
import { ProjectEnvironments } from '../project-environments';

type Project = components['schemas']['Project'];

export function ProjectSettings({ project }: { project: Project }) {
  const session = useSession();
  const scope = { project: project.id };
  const [editing, setEditing] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Leaves the page first: read again while it shows, the project would be missing from it.
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: project.id } } })),
    onSuccess: () => {
      void navigate('/projects');
      confirmDone(`Project ${project.name} deleted.`);
      return queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const details: [string, string][] = [
    ['Name', project.name],
    ['Id', project.id],
    ['Description', project.description ?? '—'],
    ['Mode', project.mode],
    ['Default stickiness', project.defaultStickiness],
    ['Created', when(project.createdAt)],
  ];
  return (
    <>
      <Section title="Details">
        <Table aria-label={`Details of ${project.name}`} variant="vertical" maw={640} withTableBorder>
          <Table.Tbody>
            {details.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={180}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {session.can('updateProject', scope) && (
          <Group>
            <Button variant="light" onClick={() => setEditing(true)}>
              Edit project
            </Button>
          </Group>
        )}
        {editing && <ProjectDialog project={project} onClose={() => setEditing(false)} />}
      </Section>
      <Section title="Environments">
        <Text c="gray.7" size="sm">
          The environments the project's flags are configured in.
        </Text>
        <ProjectEnvironments
          project={project.id}
          name={project.name}
          environments={project.environments}
          canAdd={session.can('addEnvironmentToProject', scope)}
          canRemove={session.can('removeEnvironmentFromProject', scope)}
        />
      </Section>
      {session.can('deleteProject', scope) && project.id !== 'default' && (
        <Section title="Delete project">
          <Text c="gray.7" size="sm">
            A project can be deleted once it has no flags left, archived ones included.
          </Text>
          <Group>
            <ConfirmButton label="Delete project" title={`Delete ${project.name}?`} onConfirm={() => remove.mutateAsync()}>
              {project.name} will be gone for good, with its environments' settings and its members' roles in it.
            </ConfirmButton>
          </Group>
        </Section>
      )}
    </>
  );
}
