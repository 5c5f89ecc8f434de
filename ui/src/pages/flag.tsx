import { Anchor, Badge, Group, SimpleGrid, Stack, Switch, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, ApiError, ok } from '../api';
import { ConfirmButton, PageLoader, QueryError } from '../components/feedback';
import { confirmDone } from '../components/confirm-done';
import { EditFlag } from '../components/flag/edit-flag';
import { EnvironmentCard } from '../components/flag/environment-card';
import { FlagDependencies } from '../components/flag/flag-dependencies';
import { FlagEvents } from '../components/flag/flag-events';
import { FlagTags } from '../components/flag/flag-tags';
import { FlagUsage } from '../components/flag/flag-usage';
import { VariantsEditor } from '../components/flag/variants-editor';
import { CompleteFlag } from '../components/flag/complete-flag';
import { FlagFavoriteStar } from '../components/favorite-star';
import { MoveFlag } from '../components/flag/move-flag';
import { ArchivedFlag } from '../components/flag/archived-flag';
import { Created, FlagPage } from '../components/flag/flag-header';
import { describeStage } from '../lib/lifecycle.js';
import { useSession } from '../session';

export default function Flag() {
  const { projectId = '', featureName = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = { projectId, featureName };
  const flag = useQuery({
    queryKey: ['flag', projectId, featureName],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path } })),
  });
  const scope = { project: projectId };

  const stale = useMutation({
    mutationFn: (value: boolean) =>
      ok(api.PATCH('/api/admin/projects/{projectId}/features/{featureName}', { params: { path }, body: [{ op: 'replace', path: '/stale', value }] })),
    onSuccess: (_, value) => confirmDone(value ? `${featureName} is marked stale.` : `${featureName} is no longer stale.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['flag', projectId, featureName] }),
  });
  // Set once the flag is archived: its queries are dropped when the page is gone, not before (a query dropped while
  // the page still shows it is fetched again, and the flag is gone: a 404).
  const archived = useRef(false);
  useEffect(
    () => () => {
      if (archived.current) queryClient.removeQueries({ queryKey: ['flag', projectId, featureName] });
    },
    [queryClient, projectId, featureName],
  );
  const archive = useMutation({
    mutationFn: () => ok(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}', { params: { path } })),
    onSuccess: () => {
      archived.current = true;
      confirmDone(`${featureName} is archived.`);
      void navigate(`/flags?project=${encodeURIComponent(projectId)}`);
      void queryClient.invalidateQueries({ queryKey: ['flags'] });
    },
  });

  if (flag.isPending) return <PageLoader />;
  // A flag that is not among the project's active ones may be in its archive: shown read-only, to revive.
  if (flag.isError && flag.error instanceof ApiError && flag.error.status === 404) return <ArchivedFlag project={projectId} name={featureName} notFound={flag.error} />;
  if (flag.isError) return <QueryError error={flag.error} />;
  const f = flag.data;
  const tab = params.get('tab') ?? 'environments';

  return (
    <FlagPage
      flag={f}
      actions={
        <>
          <FlagFavoriteStar project={f.project} name={f.name} favorite={f.favorite ?? false} />
          {session.can('updateFeature', scope) && <EditFlag flag={f} />}
          {session.can('changeFeatureProject', scope) && <MoveFlag flag={f} />}
          {session.can('completeFeature', scope) && <CompleteFlag project={f.project} feature={f.name} completed={f.lifecycle?.stage === 'completed'} />}
          {session.can('archiveFeature', scope) && (
            <ConfirmButton label="Archive" leftSection={<IconArchive size={16} />} title={`Archive ${f.name}?`} onConfirm={() => archive.mutateAsync()}>
              SDKs stop seeing the flag at once. It can be revived from the <Anchor component={Link} to={`/archive?project=${encodeURIComponent(f.project)}`}>archive</Anchor>.
            </ConfirmButton>
          )}
        </>
      }
    >
      <Group gap="lg">
        <Text size="sm">Type {f.type}</Text>
        <Created project={f.project} name={f.name} at={f.createdAt} />
        {f.impressionData && (
          <Badge variant="outline" tt="none">
            impression data
          </Badge>
        )}
        {f.lifecycle && (
          <Badge variant="light" tt="none" aria-label="Lifecycle stage">
            {describeStage(f.lifecycle)}
          </Badge>
        )}
        {session.can('patchFeature', scope) ? (
          <Switch
            label="Stale"
            checked={stale.isPending ? stale.variables : f.stale}
            disabled={stale.isPending}
            onChange={(e) => stale.mutate(e.currentTarget.checked)}
            color="red.9"
          />
        ) : (
          f.stale && (
            <Badge color="red.9" variant="outline">
              stale
            </Badge>
          )
        )}
      </Group>
      <FlagTags project={f.project} feature={f.name} tags={f.tags} editable={session.can('addFeatureTag', scope)} />
      <FlagDependencies project={f.project} feature={f.name} dependencies={f.dependencies} canAdd={session.can('addDependency', scope)} canRemove={session.can('deleteDependency', scope)} />
      <Tabs value={tab} onChange={(value) => setParams(value && value !== 'environments' ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="environments">Environments</Tabs.Tab>
          <Tabs.Tab value="variants">Variants</Tabs.Tab>
          <Tabs.Tab value="usage">Usage</Tabs.Tab>
          {session.can('getFeatureEvents') && <Tabs.Tab value="events">Events</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="environments" pt="md">
          {/* The tab shows this heading's words; the environments' own headings (h3) come under it. */}
          <VisuallyHidden component="h2">Environments</VisuallyHidden>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            {f.environments.map((environment) => (
              <EnvironmentCard key={environment.name} project={f.project} feature={f.name} environment={environment} />
            ))}
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="variants" pt="md">
          <Stack>
            <VariantsEditor project={f.project} feature={f.name} environments={f.environments} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="usage" pt="md">
          <FlagUsage feature={f.name} environments={f.environments.map((e) => e.name)} />
        </Tabs.Panel>
        {session.can('getFeatureEvents') && (
          <Tabs.Panel value="events" pt="md">
            <FlagEvents feature={f.name} />
          </Tabs.Panel>
        )}
      </Tabs>
    </FlagPage>
  );
}
