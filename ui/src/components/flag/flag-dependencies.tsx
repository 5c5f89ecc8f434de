import { CloseButton, Group, Pill, Select, Switch, TagsInput, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { confirmDone } from '../confirm-done';
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
    onSuccess: (_, parent) => confirmDone(`${feature} no longer depends on ${parent}.`),
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
  // Only the chosen parent is read, for its variants: a project may hold thousands of flags.
  const parentFlag = useQuery({
    queryKey: ['flag', project, parent],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/features/{featureName}', { params: { path: { projectId: project, featureName: parent ?? '' } } })),
    enabled: parent !== null,
  });
  const add = useMutation({
    mutationFn: (name: string) =>
      ok(
        api.POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', {
          params: { path: { projectId: project, featureName: feature } },
          body: { feature: name, enabled, ...(enabled && variants.length > 0 && { variants }) },
        }),
      ),
    onSuccess: async (_, name) => {
      confirmDone(`${feature} now depends on ${name}.`);
      setParent(null);
      setVariants([]);
      await onAdded();
    },
  });
  return (
    <AddPopover label="Add dependency" width={260} disabled={!parent} onSubmit={async () => parent && (await add.mutateAsync(parent))}>
      <ParentPicker project={project} feature={feature} value={parent} onChange={setParent} />
      <Switch label="Parent must be on" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
      {enabled && (
        <TagsInput
          label="Parent variants"
          description="Any variant when empty"
          data={variantNamesOf(parentFlag.data)}
          value={variants}
          onChange={setVariants}
          comboboxProps={{ withinPortal: false }}
        />
      )}
    </AddPopover>
  );
}

/** How many of the project's flags the parent picker offers for what was typed. */
const PARENTS_OFFERED = 20;

/** Another flag of the project, found by the flag search as the user types. */
function ParentPicker({ project, feature, value, onChange }: { project: string; feature: string; value: string | null; onChange: (value: string | null) => void }) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 200);
  const found = useQuery({
    queryKey: ['parent-search', project, query],
    queryFn: async () =>
      (await ok(api.GET('/api/admin/search/features', { params: { query: { project: `IS:${project}`, limit: String(PARENTS_OFFERED + 1), ...(query && { query }) } } })))
        .features,
    placeholderData: keepPreviousData,
  });
  const names = (found.data ?? [])
    .map((f) => f.name)
    .filter((name) => name !== feature)
    .slice(0, PARENTS_OFFERED);
  return (
    <Select
      label="Parent flag"
      placeholder="Type to search"
      searchable
      data={names}
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={setSearch}
      value={value}
      onChange={onChange}
      comboboxProps={{ withinPortal: false }}
      required
    />
  );
}

/** The variant names a flag has in any environment, its own or its strategies', to suggest as parent variants. */
const variantNamesOf = (flag: Feature | undefined) =>
  [...new Set((flag?.environments ?? []).flatMap((e) => [...e.variants, ...e.strategies.flatMap((s) => s.variants ?? [])].map((v) => v.name)))].sort();
