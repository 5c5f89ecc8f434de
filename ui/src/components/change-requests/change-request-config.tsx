// Which environments of a project require change requests, and how many approvals each request there needs
// (getChangeRequestConfig); changed per environment where the user may (updateChangeRequestConfig).
import { Badge, NumberInput, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useChange } from '../../queries';
import { useSession } from '../../session';
import { DialogButton } from '../dialog-button';
import { FormDialog } from '../forms';
import { ListTable } from '../list';

type EnvironmentConfig = components['schemas']['ChangeRequestEnvironmentConfig'];

/** The project's configuration, under the key the flag page reads it by too (to propose instead of writing). */
export const configKey = (project: string) => ['change-request-config', project];

/** `name` is the project's name, which the table is named after (its id when absent). */
export function ChangeRequestConfig({ project, name = project }: { project: string; name?: string }) {
  const session = useSession();
  const config = useQuery({
    queryKey: configKey(project),
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId: project } } })),
  });
  const editable = (row: EnvironmentConfig) => session.can('updateChangeRequestConfig', { project, environment: row.environment });
  return (
    <ListTable
      label={`Change request configuration of ${name}`}
      query={config}
      rowKey={(row) => row.environment}
      empty="The project has no environments."
      columns={[
        { label: 'Environment', cell: (row) => row.environment },
        { label: 'Type', cell: (row) => row.type },
        {
          label: 'Change requests',
          cell: (row) =>
            row.changeRequestEnabled ? (
              <Badge variant="light" tt="none">
                Required
              </Badge>
            ) : (
              <Text size="sm">Not required</Text>
            ),
        },
        { label: 'Approvals', cell: (row) => (row.changeRequestEnabled ? row.requiredApprovals : '—') },
        (config.data ?? []).some(editable) && {
          label: 'Actions',
          cell: (row) =>
            editable(row) && (
              <DialogButton
                label="Edit"
                ariaLabel={`Edit change requests in ${row.environment}`}
                dialog={(close) => <ConfigDialog project={project} name={name} row={row} onClose={close} />}
              />
            ),
        },
      ]}
    />
  );
}

function ConfigDialog({ project, name, row, onClose }: { project: string; name: string; row: EnvironmentConfig; onClose: () => void }) {
  const [enabled, setEnabled] = useState(row.changeRequestEnabled);
  const [approvals, setApprovals] = useState<number | string>(row.requiredApprovals);
  const save = useChange(
    () =>
      ok(
        api.PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', {
          params: { path: { projectId: project, environment: row.environment } },
          body: { changeRequestsEnabled: enabled, requiredApprovals: Number(approvals) },
        }),
      ),
    configKey(project),
  );
  const valid = Number.isInteger(Number(approvals)) && Number(approvals) >= 1 && Number(approvals) <= 10;
  return (
    <FormDialog
      title={`Change requests in ${row.environment}`}
      submitLabel="Save"
      onClose={onClose}
      disabled={!valid}
      onSubmit={() => save.mutateAsync(undefined)}
      done={`Change requests in ${row.environment} of ${name} saved.`}
    >
      <Switch
        label="Require change requests"
        description={`Flag changes in ${row.environment} wait for approval; only those allowed to skip change requests write directly`}
        checked={enabled}
        data-autofocus
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
      <NumberInput
        label="Required approvals"
        description="Distinct approvers each request needs, 1 to 10"
        min={1}
        max={10}
        allowDecimal={false}
        allowNegative={false}
        value={approvals}
        onChange={setApprovals}
        error={valid ? undefined : 'Between 1 and 10'}
      />
    </FormDialog>
  );
}
