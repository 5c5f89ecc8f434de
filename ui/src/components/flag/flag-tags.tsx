import { CloseButton, Group, Pill, Select, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useTagTypes } from '../../queries';
import { confirmDone } from '../confirm-done';
import { AddPopover } from '../forms';

type Tag = components['schemas']['Tag'];

/** A flag's tags; added and removed in place when the user may. */
export function FlagTags({ project, feature, tags, editable }: { project: string; feature: string; tags: Tag[]; editable: boolean }) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['flag', project, feature] });
    await queryClient.invalidateQueries({ queryKey: ['tags'] });
  };
  const remove = useMutation({
    mutationFn: (tag: Tag) => ok(api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', { params: { path: { featureName: feature, type: tag.type, value: tag.value } } })),
    onSuccess: (_, tag) => {
      confirmDone(`Tag ${tag.type}: ${tag.value} removed.`);
      return refresh();
    },
  });
  return (
    <Group gap="xs" aria-label="Tags" role="group">
      {tags.map((tag) => (
        <Pill key={`${tag.type}:${tag.value}`} size="md">
          {tag.type}: {tag.value}
          {editable && <CloseButton size="xs" ml={4} aria-label={`Remove tag ${tag.type}: ${tag.value}`} onClick={() => remove.mutate(tag)} />}
        </Pill>
      ))}
      {editable && <AddTag feature={feature} onAdded={refresh} />}
    </Group>
  );
}

function AddTag({ feature, onAdded }: { feature: string; onAdded: () => Promise<void> }) {
  const types = useTagTypes();
  const [type, setType] = useState<string | null>('simple');
  const [value, setValue] = useState('');
  const add = useMutation({
    mutationFn: (tag: Tag) => ok(api.POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName: feature } }, body: tag })),
    onSuccess: async (_, tag) => {
      setValue('');
      confirmDone(`Tag ${tag.type}: ${tag.value} added.`);
      await onAdded();
    },
  });
  return (
    <AddPopover label="Add tag" width={240} onSubmit={async () => value.trim() && (await add.mutateAsync({ type: type ?? 'simple', value: value.trim() }))}>
      <Select label="Tag type" data={(types.data ?? []).map((t) => t.name)} value={type} onChange={setType} allowDeselect={false} comboboxProps={{ withinPortal: false }} />
      <TextInput label="Value" value={value} onChange={(e) => setValue(e.currentTarget.value)} required />
    </AddPopover>
  );
}
