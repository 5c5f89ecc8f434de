// An archived flag's page, read-only: its name, project, when it was archived, and its configuration as it was
// archived (the flag search finds it in the archive, whole), with a Revive button for whoever may revive it.
import { Alert, Badge, Group, Pill, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconArrowBackUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useChange } from '../../queries';
import { useSession } from '../../session';
import { ConfirmButton, Empty, PageLoader, QueryError } from '../feedback';
import { EnvironmentFrame } from './environment-frame';
import { Created, FlagPage, searchedFlag, TimeAgo } from './flag-header';
import { StrategyCard } from './strategy-card';
import { WeightBar } from './weight-bar';

type SearchedFeatureEnvironment = components['schemas']['SearchedFeatureEnvironment'];

/** The flag `name` from the archive of `project`; `notFound` (the active flag's 404) when it is not there either. */
export function ArchivedFlag({ project, name, notFound }: { project: string; name: string; notFound: unknown }) {
  const session = useSession();
  // The flag search finds it in the archive with its configuration and creator (reading the whole project's archive is not needed).
  const archived = useQuery({ queryKey: ['flag', project, name, 'archived'], queryFn: () => searchedFlag(project, name, true) });
  // Afterwards the flag's page reads it again, and shows it active.
  const revive = useChange(() => ok(api.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName: name } } })), ['flags'], ['flag', project, name]);

  if (archived.isPending) return <PageLoader />;
  if (archived.isError) return <QueryError error={archived.error} />;
  const f = archived.data;
  if (!f) return <QueryError error={notFound} />;
  return (
    <FlagPage
      flag={f}
      actions={
        session.can('reviveFeature', { project: f.project }) && (
          <ConfirmButton label="Revive" color="blue" leftSection={<IconArrowBackUp size={16} />} title={`Revive ${f.name}?`} onConfirm={() => revive.mutateAsync(undefined)} done={`${f.name} is revived.`}>
            The flag comes back in {f.project} with its strategies and variants, off in every environment.
          </ConfirmButton>
        )
      }
    >
      <Alert color="gray" icon={<IconArchive size={18} />} title={<>Archived {f.archivedAt ? <TimeAgo at={f.archivedAt} /> : ''}</>}>
        SDKs do not get this flag. This is its configuration as it was archived; nothing here can be changed unless it is revived.
      </Alert>
      <Group gap="lg">
        <Text size="sm">Type {f.type}</Text>
        <Created project={f.project} name={f.name} at={f.createdAt} by={f.createdBy.name} />
        {f.stale && (
          <Badge color="red.9" variant="outline">
            stale
          </Badge>
        )}
      </Group>
      {f.tags.length > 0 && (
        <Group gap="xs" aria-label="Tags" role="group">
          {f.tags.map((tag) => (
            <Pill key={`${tag.type}:${tag.value}`} size="md">
              {tag.type}: {tag.value}
            </Pill>
          ))}
        </Group>
      )}
      <Title order={2} size="h4">
        Environments when archived
      </Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {f.environments.map((environment) => (
          <ArchivedEnvironment key={environment.name} environment={environment} />
        ))}
      </SimpleGrid>
    </FlagPage>
  );
}

function ArchivedEnvironment({ environment }: { environment: SearchedFeatureEnvironment }) {
  return (
    <EnvironmentFrame
      environment={environment}
      state={
        <Badge color={environment.enabled ? 'teal.9' : 'gray.7'} variant="outline" tt="none">
          {environment.enabled ? 'was on' : 'was off'}
        </Badge>
      }
    >
      <Stack gap="xs">
        {environment.strategies.length === 0 && <Empty>No strategy.</Empty>}
        {environment.strategies.map((strategy) => (
          <StrategyCard key={strategy.id} strategy={strategy} />
        ))}
        {environment.variants.length > 0 && <WeightBar variants={environment.variants} label={`Variants in ${environment.name}`} />}
      </Stack>
    </EnvironmentFrame>
  );
}
