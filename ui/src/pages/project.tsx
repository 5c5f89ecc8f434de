// A project's page (`/projects/:projectId`): its name, where it sits, its description, and tabs chosen by the address
// (`?tab=flags|members|change-requests|settings`, flags unless said) for its flags, its members, its change-request
// configuration and its settings. New flag creates in this project.
import { Anchor, Button, Code, Stack, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ChangeRequestConfig } from '../components/change-requests/change-request-config';
import { CreateFlag } from '../components/create-flag';
import { ProjectFavoriteStar } from '../components/favorite-star';
import { PageLoader, QueryError } from '../components/feedback';
import { Page, Section } from '../components/page';
import { ProjectBreadcrumbs } from '../components/project/breadcrumbs';
import { ProjectFlags } from '../components/project/flags';
import { ProjectMembers } from '../components/project/members';
import { ProjectSettings } from '../components/project/settings';
import { useProjects } from '../queries';
import { useSession } from '../session';

const TABS = ['flags', 'members', 'change-requests', 'settings'] as const;
type Tab = (typeof TABS)[number];

export default function Project() {
  const { projectId = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const projects = useProjects();
  const asked = params.get('tab');
  const tab: Tab = TABS.find((t) => t === asked) ?? 'flags';
  const askedPage = Number(params.get('page'));
  const page = Number.isInteger(askedPage) && askedPage > 0 ? askedPage : 1;

  if (projects.isPending) return <PageLoader />;
  if (projects.isError) return <QueryError error={projects.error} />;
  const project = projects.data.find((p) => p.id === projectId);
  if (!project) {
    return (
      <Page title="Project not found">
        <Text>
          There is no project {projectId}, or you may not see it.{' '}
          <Anchor component={Link} to="/projects" underline="always">
            All projects
          </Anchor>
        </Text>
      </Page>
    );
  }
  const newFlag = session.can('createFeature', { project: project.id }) && (
    <CreateFlag
      project={project.id}
      trigger={(open) => (
        <Button leftSection={<IconPlus size={16} />} onClick={open}>
          New flag
        </Button>
      )}
    />
  );
  const actions = (
    <>
      <ProjectFavoriteStar project={project.id} name={project.name} favorite={project.favorite ?? false} />
      {newFlag}
    </>
  );
  return (
    <Stack gap="xs">
      <ProjectBreadcrumbs name={project.name} />
      <Page
        title={project.name}
        description={
          <>
            <Code>{project.id}</Code>
            {project.description && <> · {project.description}</>}
          </>
        }
        actions={actions}
      >
        <Tabs value={tab} onChange={(value) => setParams(value && value !== 'flags' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="flags">Flags</Tabs.Tab>
            <Tabs.Tab value="members">Members</Tabs.Tab>
            <Tabs.Tab value="change-requests">Change requests</Tabs.Tab>
            <Tabs.Tab value="settings">Settings</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="flags" pt="md">
            <Stack gap="sm">
              <ProjectFlags project={project.id} name={project.name} page={page} onPage={(p) => setParams(p > 1 ? { page: String(p) } : {})} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="members" pt="md">
            <Stack gap="md">
              <ProjectMembers project={project.id} name={project.name} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="change-requests" pt="md">
            <Section title="Change request configuration">
              <Text c="gray.7" size="sm">
                Which environments of {project.name} require change requests, and how many approvals each needs.{' '}
                <Anchor component={Link} to={`/change-requests?project=${encodeURIComponent(project.id)}`} underline="always">
                  The project's change requests
                </Anchor>
              </Text>
              <ChangeRequestConfig project={project.id} name={project.name} />
            </Section>
          </Tabs.Panel>
          <Tabs.Panel value="settings" pt="md">
            <Stack gap="lg">
              <ProjectSettings project={project} />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Page>
    </Stack>
  );
}
