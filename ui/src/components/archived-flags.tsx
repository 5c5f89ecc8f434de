// A page of archived flags, of one project or of every project: each revived (reviveFeature) or deleted for good
// (deleteArchivedFeature), or several ticked and handled together (reviveFeatures, deleteFeatures, once per project
// they belong to). A control is offered only when the user may use it in the flag's project; afterwards the flag
// lists and the archive are read again. Each flag links to its (read-only) page, each project to its page.
import { Anchor, Button, Checkbox, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { flagPath } from '../paths';
import { useChange } from '../queries';
import { useSession } from '../session';
import { confirmDone } from './confirm-done';
import { ConfirmButton } from './feedback';
import { when } from './forms';
import { ListTable, type Rows } from './list';
import { projectPath } from '../paths';

type SearchedFeature = components['schemas']['SearchedFeature'];

const FLAG_LISTS = [['flags']];

const listed = (names: string[]) => names.join(', ');

/** The flags' names grouped by the project they are in, in the order given. */
function byProject(flags: SearchedFeature[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const f of flags) groups.set(f.project, [...(groups.get(f.project) ?? []), f.name]);
  return [...groups];
}

/**
 * `project` is the project shown, or null for every project (a Project column then says where each flag is);
 * `projectNames` names the projects by id.
 */
export function ArchivedFlags({ project, projectNames, flags }: { project: string | null; projectNames: Map<string, string>; flags: Rows<SearchedFeature> }) {
  const session = useSession();
  const may = (operation: 'reviveFeature' | 'deleteArchivedFeature' | 'reviveFeatures' | 'deleteFeatures', f: SearchedFeature) => session.can(operation, { project: f.project });
  const nameOf = (id: string) => projectNames.get(id) ?? id;
  const [ticked, setTicked] = useState<string[]>([]);
  const rows = flags.data ?? [];
  const selectableRows = rows.filter((f) => may('reviveFeatures', f) || may('deleteFeatures', f));
  const selectedRows = selectableRows.filter((f) => ticked.includes(f.name));
  const selected = selectedRows.map((f) => f.name);
  const tick = (name: string, on: boolean) => setTicked((current) => (on ? [...current, name] : current.filter((n) => n !== name)));

  const revive = useChange((featureName: string) => ok(api.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName } } })), ...FLAG_LISTS);
  const remove = useChange((featureName: string) => ok(api.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } })), ...FLAG_LISTS);
  // Several flags are handled per project, one call each.
  const reviveSeveral = useChange(async (chosen: SearchedFeature[]) => {
    for (const [projectId, features] of byProject(chosen)) await ok(api.POST('/api/admin/projects/{projectId}/revive', { params: { path: { projectId } }, body: { features } }));
  }, ...FLAG_LISTS);
  const removeSeveral = useChange(async (chosen: SearchedFeature[]) => {
    for (const [projectId, features] of byProject(chosen)) await ok(api.POST('/api/admin/projects/{projectId}/delete', { params: { path: { projectId } }, body: { features } }));
  }, ...FLAG_LISTS);

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
    await reviveSeveral.mutateAsync(selectedRows);
    setTicked([]);
    confirmDone(`Revived ${listed(selected)}.`);
  };
  const removeSelected = async () => {
    await removeSeveral.mutateAsync(selectedRows);
    setTicked([]);
    confirmDone(`Deleted ${listed(selected)} for good.`);
  };

  const selectable = selectableRows.length > 0;
  const all = selected.length === selectableRows.length && selectable;
  const mayReviveSelected = selectedRows.every((f) => may('reviveFeatures', f));
  const mayDeleteSelected = selectedRows.every((f) => may('deleteFeatures', f));
  return (
    <>
      {selectable && (
        <Group gap="sm" mih={36}>
          <Checkbox
            label="Select every flag on this page"
            checked={all}
            indeterminate={selected.length > 0 && !all}
            onChange={(e) => setTicked(e.currentTarget.checked ? selectableRows.map((f) => f.name) : [])}
          />
          {selected.length > 0 && (
            <>
              <Text size="sm">{selected.length} selected</Text>
              {mayReviveSelected && (
                <Button size="xs" variant="light" loading={reviveSeveral.isPending} onClick={() => reviveSelected().catch(() => {})}>
                  Revive selected
                </Button>
              )}
              {mayDeleteSelected && (
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
        empty={project ? `No archived flags in ${nameOf(project)}.` : 'No archived flags.'}
        columns={[
          selectable && {
            label: 'Select',
            cell: (f) =>
              (may('reviveFeatures', f) || may('deleteFeatures', f)) && (
                <Checkbox aria-label={`Select ${f.name}`} checked={selected.includes(f.name)} onChange={(e) => tick(f.name, e.currentTarget.checked)} />
              ),
          },
          {
            label: 'Name',
            cell: (f) => (
              <Anchor component={Link} to={flagPath(f.project, f.name)} fw={600}>
                {f.name}
              </Anchor>
            ),
          },
          !project && {
            label: 'Project',
            cell: (f) => (
              <Anchor component={Link} to={projectPath(f.project)}>
                {nameOf(f.project)}
              </Anchor>
            ),
          },
          { label: 'Type', cell: (f) => f.type },
          { label: 'Archived', cell: (f) => when(f.archivedAt) },
          rows.some((f) => may('reviveFeature', f) || may('deleteArchivedFeature', f)) && {
            label: 'Actions',
            cell: (f) => (
              <Group gap="xs" wrap="nowrap">
                {may('reviveFeature', f) && (
                  <Button size="xs" variant="light" aria-label={`Revive ${f.name}`} loading={revive.isPending && revive.variables === f.name} onClick={() => reviveOne(f.name).catch(() => {})}>
                    Revive
                  </Button>
                )}
                {may('deleteArchivedFeature', f) && (
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
