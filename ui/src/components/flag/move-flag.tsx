// Moving a flag to another project (changeFeatureProject). The service wants MOVE_FEATURE_TOGGLE in both projects, so
// only the projects where the user holds it are offered; it refuses a flag with dependencies (the dialog stays open
// with its message). Once moved, the page follows the flag to its new address.
import { Button, List, Select, Text } from '@mantine/core';
import { IconFolderShare } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { flagPath } from '../../paths';
import { useChange, useProjects } from '../../queries';
import { useSession } from '../../session';
import { confirmDone } from '../confirm-done';
import { FormDialog } from '../forms';

type Feature = components['schemas']['Feature'];
type Project = components['schemas']['Project'];

export function MoveFlag({ flag }: { flag: Feature }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconFolderShare size={16} />} onClick={() => setOpen(true)}>
        Move
      </Button>
      {open && <MoveFlagDialog flag={flag} onClose={() => setOpen(false)} />}
    </>
  );
}

function MoveFlagDialog({ flag, onClose }: { flag: Feature; onClose: () => void }) {
  const session = useSession();
  const projects = useProjects();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<string | null>(null);
  const targets = (projects.data ?? []).filter((p) => p.id !== flag.project && session.can('changeFeatureProject', { project: p.id }));
  const chosen = targets.find((p) => p.id === target);
  const move = useChange(
    (newProjectId: string) =>
      ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/changeProject', { params: { path: { projectId: flag.project, featureName: flag.name } }, body: { newProjectId } })),
    ['flags'],
    ['projects'],
  );
  const submit = async () => {
    if (!chosen) return;
    await move.mutateAsync(chosen.id);
    queryClient.removeQueries({ queryKey: ['flag', flag.project, flag.name] });
    confirmDone(`${flag.name} moved to ${chosen.name}.`);
    navigate(flagPath(chosen.id, flag.name), { replace: true });
  };
  return (
    <FormDialog title={`Move ${flag.name}`} submitLabel="Move flag" onClose={onClose} onSubmit={submit} disabled={!chosen}>
      <Select
        label="Target project"
        placeholder={projects.isPending ? 'Loading projects…' : 'Pick a project'}
        description="The projects where you may move flags"
        data={targets.map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }))}
        value={target}
        onChange={setTarget}
        nothingFoundMessage="No other project"
        searchable
        data-autofocus
      />
      {chosen && <WhatHappens flag={flag} target={chosen} />}
    </FormDialog>
  );
}

/** What the move does to the flag's environments, and to who sees it. */
function WhatHappens({ flag, target }: { flag: Feature; target: Project }) {
  const current = flag.environments.map((e) => e.name);
  const dropped = current.filter((e) => !target.environments.includes(e));
  const added = target.environments.filter((e) => !current.includes(e));
  return (
    <div aria-live="polite">
      <Text size="sm">
        {flag.name} leaves {flag.project} for {target.id}: its address changes, and SDKs whose tokens cover only {flag.project} stop seeing it.
      </Text>
      <List size="sm" mt="xs">
        <List.Item>{dropped.length > 0 ? `Dropped with their strategies: ${dropped.join(', ')} (not in ${target.id}).` : 'Every environment of the flag stays, with its strategies.'}</List.Item>
        {added.length > 0 && <List.Item>Added, off: {added.join(', ')}.</List.Item>}
      </List>
    </div>
  );
}
