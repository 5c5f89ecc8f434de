// What a flag's page says about where the flag is and where it came from: breadcrumbs (Projects › project › flag)
// and when and by whom it was created (the flag's own read has no creator: the flag search names it); its name copied.
// `FlagPage` frames the active and the archived flag's pages alike.
import { Anchor, Breadcrumbs, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../../api';
import { timeAgo } from '../../lib/strategy-words.js';
import { useProjects } from '../../queries';
import { Page } from '../page';

/** Projects › <project's name> › <flag>. */
export function FlagBreadcrumbs({ project, name }: { project: string; name: string }) {
  const projects = useProjects();
  const projectName = projects.data?.find((p) => p.id === project)?.name ?? project;
  return (
    <nav aria-label="Breadcrumbs">
      <Breadcrumbs separator="›" separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor component={Link} to="/projects" size="sm">
          Projects
        </Anchor>
        <Anchor component={Link} to={`/projects/${encodeURIComponent(project)}`} size="sm">
          {projectName}
        </Anchor>
        <Text size="sm" aria-current="page" style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}

/** An instant in words ("3 minutes ago"), the exact time on hover. */
export function TimeAgo({ at }: { at: string }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {timeAgo(at)}
    </time>
  );
}

/** The flag as the flag search shows it (with its creator), active or `archived`, found by its exact name; null when it is not there. */
export async function searchedFlag(project: string, name: string, archived: boolean) {
  const found = await ok(
    api.GET('/api/admin/search/features', {
      params: { query: { query: name, project: `IS:${project}`, limit: '100', ...(archived && { archived: 'IS:true' as const }) } },
    }),
  );
  return found.features.find((f) => f.name === name) ?? null;
}

/** "Created 3 days ago by alice": `by` when known, else read from the flag search. */
export function Created({ project, name, at, by }: { project: string; name: string; at: string; by?: string }) {
  const creator = useQuery({
    queryKey: ['flag-creator', project, name],
    queryFn: async () => (await searchedFlag(project, name, false))?.createdBy.name ?? null,
    enabled: by === undefined,
    staleTime: Infinity,
  });
  const who = by ?? creator.data;
  return (
    <Text size="sm">
      Created <TimeAgo at={at} />
      {who ? ` by ${who}` : ''}
    </Text>
  );
}

/** Copies the flag's name; says "Copied" for a moment. */
export function CopyName({ name }: { name: string }) {
  return (
    <CopyButton value={name}>
      {({ copied, copy }) => (
        <Button variant="subtle" color={copied ? 'teal.9' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy}>
          {copied ? 'Copied' : 'Copy name'}
        </Button>
      )}
    </CopyButton>
  );
}

/** A flag's page: breadcrumbs, then the page titled with its name and described, Copy name first among its actions. */
export function FlagPage({ flag, actions, children }: { flag: { project: string; name: string; description?: string | null }; actions: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <FlagBreadcrumbs project={flag.project} name={flag.name} />
      <Page
        title={flag.name}
        description={flag.description || undefined}
        actions={
          <Group gap="xs">
            <CopyName name={flag.name} />
            {actions}
          </Group>
        }
      >
        {children}
      </Page>
    </Stack>
  );
}
