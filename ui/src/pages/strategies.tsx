import { Badge, Button, Group, Text } from '@mantine/core';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { StrategyDialog } from '../components/strategy-form';
import { useChange, useStrategies } from '../queries';
import { useSession } from '../session';
import { confirmDone } from '../components/confirm-done';

export default function Strategies() {
  const session = useSession();
  const strategies = useStrategies();
  const path = (strategyName: string) => ({ params: { path: { strategyName } } });
  const deprecate = useChange(
    ({ name, deprecated }: { name: string; deprecated: boolean }) =>
      deprecated ? ok(api.POST('/api/admin/strategies/{strategyName}/reactivate', path(name))) : ok(api.POST('/api/admin/strategies/{strategyName}/deprecate', path(name))),
    ['strategies'],
  );
  const remove = useChange((name: string) => ok(api.DELETE('/api/admin/strategies/{strategyName}', path(name))), ['strategies']);
  return (
    <Page
      title="Strategies"
      description="How a flag decides who gets it; custom strategies are evaluated by SDKs that implement them."
      actions={<NewButton label="New strategy" allowed={session.can('createStrategy')} dialog={(close) => <StrategyDialog onClose={close} />} />}
    >
      <ListTable
        label="Strategies"
        query={strategies}
        rowKey={(s) => s.name}
        empty="No strategies."
        columns={[
          {
            label: 'Strategy',
            cell: (s) => (
              <Group gap="xs">
                <Text fw={600}>{s.displayName ?? s.title ?? s.name}</Text>
                {!s.editable && <Badge variant="default">built in</Badge>}
                {s.deprecated && (
                  <Badge color="red" variant="outline">
                    deprecated
                  </Badge>
                )}
              </Group>
            ),
          },
          { label: 'Name', cell: (s) => s.name },
          { label: 'Description', cell: (s) => s.description },
          { label: 'Parameters', cell: (s) => s.parameters.map((p) => `${p.name} (${p.type})`).join(', ') },
          {
            label: 'Actions',
            cell: (s) => (
              <Group gap="xs">
                {s.editable && session.can('updateStrategy') && (
                  <DialogButton label="Edit" ariaLabel={`Edit ${s.name}`} dialog={(close) => <StrategyDialog strategy={s} onClose={close} />} />
                )}
                {session.can('deprecateStrategy') && (
                  <Button size="xs" variant="default" onClick={() => deprecate.mutate({ name: s.name, deprecated: s.deprecated }, { onSuccess: () => confirmDone(`${s.name} ${s.deprecated ? 'reactivated' : 'deprecated'}.`) })}>
                    {s.deprecated ? 'Reactivate' : 'Deprecate'}
                  </Button>
                )}
                {s.editable && session.can('deleteStrategy') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${s.name}?`} done={`${s.name} deleted.`} onConfirm={() => remove.mutateAsync(s.name)}>
                    A strategy can be deleted once no flag uses it.
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
