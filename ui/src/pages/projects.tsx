import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ProjectFavoriteStar } from '../components/favorite-star';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { ProjectDialog } from '../components/project-form';
import { ProjectEnvironments } from '../components/project-environments';
import { projectPath } from '../paths';
import { useChange, useProjects } from '../queries';
import { useSession } from '../session';

export default function Projects() {
  const session = useSession();
  const projects = useProjects();
  const remove = useChange((projectId: string) => ok(api.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId } } })), ['projects']);
  return (
    <Page title="Projects" actions={<NewButton label="New project" allowed={session.can('createProject')} dialog={(close) => <ProjectDialog onClose={close} />} />}>
      <ListTable
        label="Projects"
        query={projects}
        rowKey={(p) => p.id}
        empty="No projects."
        columns={[
          {
            label: 'Project',
            cell: (p) => (
              <Group gap={4} wrap="nowrap">
                <ProjectFavoriteStar project={p.id} name={p.name} favorite={p.favorite ?? false} />
                <Anchor component={Link} to={projectPath(p.id)} fw={600}>
                  {p.name}
                </Anchor>
              </Group>
            ),
          },
          { label: 'Id', cell: (p) => p.id },
          {
            label: 'Flags',
            cell: (p) => (
              <Anchor component={Link} to={`/flags?project=${encodeURIComponent(p.id)}`} aria-label={`${p.featureCount} flags of ${p.name} in the flag list`}>
                {p.featureCount}
              </Anchor>
            ),
          },
          {
            label: 'Environments',
            cell: (p) => <ProjectEnvironments project={p.id} name={p.name} environments={p.environments} canAdd={session.can('addEnvironmentToProject', { project: p.id })} canRemove={session.can('removeEnvironmentFromProject', { project: p.id })} />,
          },
          { label: 'Health', cell: (p) => `${p.health} %` },
          {
            label: 'Actions',
            cell: (p) => (
              <Group gap="xs" wrap="nowrap">
                <Button component={Link} to={projectPath(p.id, 'members')} size="xs" variant="light" aria-label={`Members of ${p.name}`}>
                  Members
                </Button>
                {session.can('updateProject', { project: p.id }) && (
                  <DialogButton label="Edit" ariaLabel={`Edit ${p.name}`} dialog={(close) => <ProjectDialog project={p} onClose={close} />} />
                )}
                {session.can('deleteProject', { project: p.id }) && p.id !== 'default' && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${p.name}?`} onConfirm={() => remove.mutateAsync(p.id)} done={`Project ${p.name} deleted.`}>
                    A project can be deleted once it has no flags left, archived ones included.
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
