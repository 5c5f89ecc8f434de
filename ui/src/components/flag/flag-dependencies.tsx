import { CloseButton, Group, Pill, Select, Switch, TagsInput, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { AddPopover } from '../forms';

type Dependency = components['schemas']['Dependency'];
type Feature = components['schemas']['Feature'];

const describe = (d: Dependency) => `${d.feature}${d.enabled ? '' : ' (off)'}${d.variants?.length ? `: ${d.variants.join(', ')}` : ''}`;

/** The parent flags this flag depends on; added and removed in place when the user may. */
export function FlagDependencies(props: { project: string; feature: string; dependencies: Dependency[]; canAdd: boolean; canRemove: boolean }) {
  const { project, feature, dependencies, canAdd, canRemove } = props;
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['flag', project, feature] });
  const remove = useMutation({
    mutationFn: (parent: string) =>
      ok(api.DELETE('/api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}', { params: { path: { projectId: project, featureName: feature, parent } } })),
    onSettled: refresh,
  });
  if (!canAdd && dependencies.length === 0) return null;
  return (
    <Group gap="xs" aria-label="Dependencies" role="group">
      <Text size="sm">Depends on:</Text>
      {dependencies.length === 0 && (
        <Text size="sm" c="gray.7">
          nothing
        </Text>
      )}
      {dependencies.map((d) => (
        <Pill key={d.feature} size="md">
          {describe(d)}
          {canRemove && <CloseButton size="xs" ml={4} aria-label={`Remove dependency on ${d.feature}`} onClick={() => remove.mutate(d.feature)} />}
        </Pill>
      ))}
      {canAdd && <AddDependency project={project} feature={feature} onAdded={refresh} />}
    </Group>
  );
}

function AddDependency({ project, feature, onAdded }: { project: string; feature: string; onAdded: () => Promise<void> }) {
  const [parent, setParent] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(true);
  const [variants, setVariants] = useState<string[]>([]);
  // The project's flags, read only once the form is open: the parents to choose from and their variants.
  const flags = useQuery({
    queryKey: ['project-features', project],
    queryFn: async () => (await ok(api.GET('/api/admin/projects/{projectId}/features', { params: { path: { projectId: project } } }))).features,
  });
  const parents = (flags.data ?? []).filter((f) => f.name !== feature);
  const parentVariants = variantNamesOf(parents.find((f) => f.name === parent));
  const add = useMutation({
    mutationFn: (name: string) =>
      ok(
        api.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
          params: { path: { projectId: project, featureName: feature } },
          body: { feature: name, enabled, ...(enabled && variants.length > 0 && { variants }) },
        }),
      ),
    onSuccess: async () => {
      setParent(null);
      setVariants([]);
      await onAdded();
    },
  });
  return (
    <AddPopover label="Add dependency" width={260} disabled={!parent} onSubmit={async () => parent && (await add.mutateAsync(parent))}>
      <Select label="Parent flag" searchable data={parents.map((f) => f.name)} value={parent} onChange={setParent} comboboxProps={{ withinPortal: false }} required />
      <Switch label="Parent must be on" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      {enabled && (
        <TagsInput
          label="Parent variants"
          description="Any variant when empty"
          data={parentVariants}
          value={variants}
          onChange={setVariants}
          comboboxProps={{ withinPortal: false }}
        />
      )}
    </AddPopover>
  );
}

/** The variant names a flag has in any environment, its own or its strategies', to suggest as parent variants. */
const variantNamesOf = (flag: Feature | undefined) =>
  [...new Set((flag?.environments ?? []).flatMap((e) => [...e.variants, ...e.strategies.flatMap((s) => s.variants ?? [])].map((v) => v.name)))].sort();
