import { Anchor } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { Loaded } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page, Section } from '../components/page';
import { AddProjectAccess, ProjectGroups, ProjectUsers, useProjectAccess } from '../components/project-access';
import { useProjects } from '../queries';
import { useSession } from '../session';

/** A project's members: the users and groups holding roles there, and the project roles there are. */
export default function ProjectMembers() {
  const { projectId = '' } = useParams();
  const session = useSession();
  const access = useProjectAccess(projectId);
  const name = useProjects().data?.find((p) => p.id === projectId)?.name ?? projectId;
  return (
    <Page
      title={`Members of ${name}`}
      description={
        <>
          Who holds which roles in the project. <Anchor component={Link} to="/projects" underline="always">
            All projects
          </Anchor>
        </>
      }
      actions={
        access.data && (
          <NewButton label="Add members" allowed={session.can('addProjectAccess', { project: projectId })} dialog={(close) => <AddProjectAccess project={projectId} access={access.data} onClose={close} />} />
        )
      }
    >
      <Loaded query={access} empty="" isEmpty={() => false}>
        {(data) => (
          <>
            <Section title="Users">
              <ProjectUsers project={projectId} access={data} />
            </Section>
            <Section title="Groups">
              <ProjectGroups project={projectId} access={data} />
            </Section>
            <Section title="Project roles">
              <ListTable
                label="Project roles"
                query={{ data: data.roles }}
                rowKey={(r) => r.id}
                empty="No project roles."
                columns={[
                  { label: 'Role', cell: (r) => <strong>{r.name}</strong> },
                  { label: 'Description', cell: (r) => r.description },
                ]}
              />
            </Section>
          </>
        )}
      </Loaded>
    </Page>
  );
}
