import { Badge, Group, Switch } from '@mantine/core';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { EnvironmentDialog } from '../components/environment-form';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange, useEnvironments } from '../queries';
import { useSession } from '../session';
import { confirmDone } from '../components/confirm-done';

export default function Environments() {
  const session = useSession();
  const environments = useEnvironments();
  const toggle = useChange(
    ({ environment, on }: { environment: string; on: boolean }) =>
      on
        ? ok(api.POST('/api/admin/environments/{environment}/on', { params: { path: { environment } } }))
        : ok(api.POST('/api/admin/environments/{environment}/off', { params: { path: { environment } } })),
    ['environments'],
  );
  const remove = useChange((environment: string) => ok(api.DELETE('/api/admin/environments/{environment}', { params: { path: { environment } } })), ['environments']);
  const mayChange = session.can('enableEnvironment');
  return (
    <Page title="Environments" actions={<NewButton label="New environment" allowed={session.can('createEnvironment')} dialog={(close) => <EnvironmentDialog onClose={close} />} />}>
      <ListTable
        label="Environments"
        query={environments}
        rowKey={(e) => e.name}
        empty="No environments yet — create one with New environment, then add it to the projects that use it."
        columns={[
          { label: 'Name', cell: (e) => <strong>{e.name}</strong> },
          {
            label: 'Type',
            cell: (e) => (
              <Badge variant="default" tt="none">
                {e.type}
              </Badge>
            ),
          },
          {
            label: 'Enabled',
            cell: (e) =>
              mayChange && !e.protected ? (
                <Switch
                  aria-label={`${e.name} enabled`}
                  checked={e.enabled}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    toggle.mutate({ environment: e.name, on }, { onSuccess: () => confirmDone(`${e.name} ${on ? 'enabled' : 'disabled'}.`) });
                  }}
                />
              ) : e.enabled ? (
                'yes'
              ) : (
                'no'
              ),
          },
          { label: 'Sort order', cell: (e) => e.sortOrder },
          { label: 'Projects', cell: (e) => e.projectCount },
          { label: 'API tokens', cell: (e) => e.apiTokenCount },
          { label: 'Flags on', cell: (e) => e.enabledToggleCount },
          {
            label: 'Actions',
            cell: (e) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateEnvironment') && (
                  <DialogButton label="Edit" ariaLabel={`Edit ${e.name}`} dialog={(close) => <EnvironmentDialog environment={e} onClose={close} />} />
                )}
                {session.can('deleteEnvironment') && !e.protected && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${e.name}?`} done={`${e.name} deleted.`} onConfirm={() => remove.mutateAsync(e.name)}>
                    Every flag's configuration in {e.name} is removed with it.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
