// A project's members, as its page's Members tab shows them: the users and groups holding roles there (changed in
// place and removed when the user may), Add members, and the project roles there are.
import { Group, Text } from '@mantine/core';
import { Loaded } from '../feedback';
import { NewButton } from '../forms';
import { ListTable } from '../list';
import { Section } from '../page';
import { AddProjectAccess, ProjectGroups, ProjectUsers, useProjectAccess } from '../project-access';
import { useSession } from '../../session';

export function ProjectMembers({ project, name }: { project: string; name: string }) {
  const session = useSession();
  const access = useProjectAccess(project);
  return (
    <Loaded query={access} empty="" isEmpty={() => false}>
      {(data) => (
        <>
          <Group justify="space-between">
            <Text c="gray.7">Who holds which roles in {name}.</Text>
            <NewButton label="Add members" allowed={session.can('addProjectAccess', { project })} dialog={(close) => <AddProjectAccess project={project} name={name} access={data} onClose={close} />} />
          </Group>
          <Section title="Users">
            <ProjectUsers project={project} name={name} access={data} />
          </Section>
          <Section title="Groups">
            <ProjectGroups project={project} name={name} access={data} />
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
  );
}
