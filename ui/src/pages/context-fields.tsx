import { Group } from '@mantine/core';
import { api, ok } from '../api';
import { ContextFieldDialog } from '../components/context-field-form';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange, useContextFields } from '../queries';
import { useSession } from '../session';

export default function ContextFields() {
  const session = useSession();
  const fields = useContextFields();
  const remove = useChange((contextField: string) => ok(api.DELETE('/api/admin/context/{contextField}', { params: { path: { contextField } } })), ['context-fields']);
  return (
    <Page
      title="Context fields"
      description="What SDKs tell about a request, for constraints to test."
      actions={<NewButton label="New context field" allowed={session.can('createContextField')} dialog={(close) => <ContextFieldDialog onClose={close} />} />}
    >
      <ListTable
        label="Context fields"
        query={fields}
        rowKey={(f) => f.name}
        empty="No context fields yet — create one to target flags by your own context, such as a tenant or a plan."
        columns={[
          { label: 'Name', cell: (f) => <strong>{f.name}</strong> },
          { label: 'Description', cell: (f) => f.description },
          { label: 'Legal values', cell: (f) => f.legalValues.map((v) => v.value).join(', ') },
          { label: 'Stickiness', cell: (f) => (f.stickiness ? 'yes' : 'no') },
          { label: 'Used by flags', cell: (f) => f.usedInFeatures ?? 0 },
          {
            label: 'Actions',
            cell: (f) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateContextField') && <DialogButton label="Edit" ariaLabel={`Edit ${f.name}`} dialog={(close) => <ContextFieldDialog field={f} onClose={close} />} />}
                {session.can('deleteContextField') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${f.name}?`} done={`${f.name} deleted.`} onConfirm={() => remove.mutateAsync(f.name)}>
                    Constraints on {f.name} stop matching anything SDKs send.
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
