// A page of a project's archived flags: each revived (reviveFeature) or deleted for good (deleteArchivedFeature),
// or several ticked and handled together (reviveFeatures, deleteFeatures). A control is offered only when the user
// may use it in the project; afterwards the flag list and the archive are read again.
import { Button, Checkbox, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { useSession } from '../session';
import { ConfirmButton } from './feedback';
import { confirmDone } from './confirm-done';
import { when } from './forms';
import { ListTable, type Rows } from './list';

type SearchedFeature = components['schemas']['SearchedFeature'];

const FLAG_LISTS = [
  ['flags', 'search'],
  ['flags', 'archive'],
];

const listed = (names: string[]) => names.join(', ');

export function ArchivedFlags({ project, flags }: { project: string; flags: Rows<SearchedFeature> }) {
  const session = useSession();
  const scope = { project };
  const may = {
    revive: session.can('reviveFeature', scope),
    delete: session.can('deleteArchivedFeature', scope),
    reviveSeveral: session.can('reviveFeatures', scope),
    deleteSeveral: session.can('deleteFeatures', scope),
  };
  const [ticked, setTicked] = useState<string[]>([]);
  const names = (flags.data ?? []).map((f) => f.name);
  const selected = ticked.filter((name) => names.includes(name));
  const tick = (name: string, on: boolean) => setTicked((current) => (on ? [...current, name] : current.filter((n) => n !== name)));

  const revive = useChange((featureName: string) => ok(api.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName } } })), ...FLAG_LISTS);
  const remove = useChange((featureName: string) => ok(api.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } })), ...FLAG_LISTS);
  const path = { params: { path: { projectId: project } } };
  const reviveSeveral = useChange((features: string[]) => ok(api.POST('/api/admin/projects/{projectId}/revive', { ...path, body: { features } })), ...FLAG_LISTS);
  const removeSeveral = useChange((features: string[]) => ok(api.POST('/api/admin/projects/{projectId}/delete', { ...path, body: { features } })), ...FLAG_LISTS);

  // A refusal is shown by the mutation's notification; the `.catch(() => {})` below only keeps it from going unhandled.
  const reviveOne = async (name: string) => {
    await revive.mutateAsync(name);
    confirmDone(`${name} is revived.`);
  };
  const removeOne = async (name: string) => {
    await remove.mutateAsync(name);
    confirmDone(`${name} is deleted for good.`);
  };
  const reviveSelected = async () => {
    await reviveSeveral.mutateAsync(selected);
    setTicked([]);
    confirmDone(`Revived ${listed(selected)}.`);
  };
  const removeSelected = async () => {
    await removeSeveral.mutateAsync(selected);
    setTicked([]);
    confirmDone(`Deleted ${listed(selected)} for good.`);
  };

  const selectable = may.reviveSeveral || may.deleteSeveral;
  const all = names.length > 0 && selected.length === names.length;
  return (
    <>
      {selectable && names.length > 0 && (
        <Group gap="sm" mih={36}>
          <Checkbox
            label="Select every flag on this page"
            checked={all}
            indeterminate={selected.length > 0 && !all}
            onChange={(e) => setTicked(e.currentTarget.checked ? names : [])}
          />
          {selected.length > 0 && (
            <>
              <Text size="sm">{selected.length} selected</Text>
              {may.reviveSeveral && (
                <Button size="xs" variant="light" loading={reviveSeveral.isPending} onClick={() => reviveSelected().catch(() => {})}>
                  Revive selected
                </Button>
              )}
              {may.deleteSeveral && (
                <ConfirmButton label="Delete selected" size="xs" title={`Delete ${selected.length} flags for good?`} confirmLabel="Delete for good" onConfirm={removeSelected}>
                  This cannot be undone: {listed(selected)} will be gone for good.
                </ConfirmButton>
              )}
            </>
          )}
        </Group>
      )}
      <ListTable
        label="Archived flags"
        query={flags}
        rowKey={(f) => f.name}
        empty={`No archived flags in ${project}.`}
        columns={[
          selectable && {
            label: 'Select',
            cell: (f) => <Checkbox aria-label={`Select ${f.name}`} checked={selected.includes(f.name)} onChange={(e) => tick(f.name, e.currentTarget.checked)} />,
          },
          { label: 'Name', cell: (f) => <strong>{f.name}</strong> },
          { label: 'Type', cell: (f) => f.type },
          { label: 'Archived', cell: (f) => when(f.archivedAt) },
          (may.revive || may.delete) && {
            label: 'Actions',
            cell: (f) => (
              <Group gap="xs" wrap="nowrap">
                {may.revive && (
                  <Button size="xs" variant="light" aria-label={`Revive ${f.name}`} loading={revive.isPending && revive.variables === f.name} onClick={() => reviveOne(f.name).catch(() => {})}>
                    Revive
                  </Button>
                )}
                {may.delete && (
                  <ConfirmButton label="Delete permanently" size="xs" title={`Delete ${f.name} for good?`} confirmLabel="Delete for good" onConfirm={() => removeOne(f.name)}>
                    This cannot be undone: {f.name} will be gone for good, and its name free for a new flag.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
    </>
  );
}
