import { Checkbox, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton } from '../components/forms';
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
      actions={<NewButton label="New context field" allowed={session.can('createContextField')} dialog={(close) => <CreateField onClose={close} />} />}
    >
      <ListTable
        label="Context fields"
        query={fields}
        rowKey={(f) => f.name}
        empty="No context fields."
        columns={[
          { label: 'Name', cell: (f) => <strong>{f.name}</strong> },
          { label: 'Description', cell: (f) => f.description },
          { label: 'Legal values', cell: (f) => f.legalValues.map((v) => v.value).join(', ') },
          { label: 'Stickiness', cell: (f) => (f.stickiness ? 'yes' : 'no') },
          { label: 'Used by flags', cell: (f) => f.usedInFeatures ?? 0 },
          {
            label: 'Actions',
            cell: (f) =>
              session.can('deleteContextField') && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${f.name}?`} onConfirm={() => remove.mutateAsync(f.name)}>
                  Constraints on {f.name} stop matching anything SDKs send.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateField({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [stickiness, setStickiness] = useState(false);
  const [legalValues, setLegalValues] = useState<string[]>([]);
  const create = useChange(
    () =>
      ok(
        api.POST('/api/admin/context', {
          body: { name: name.trim(), description: description.trim() || null, stickiness, legalValues: legalValues.map((value) => ({ value })) },
        }),
      ),
    ['context-fields'],
  );
  return (
    <FormDialog title="New context field" submitLabel="Create context field" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <TagsInput label="Legal values" description="Optional: the values constraints choose from" value={legalValues} onChange={setLegalValues} acceptValueOnBlur />
      <Checkbox label="Can be used for stickiness" checked={stickiness} onChange={(e) => setStickiness(e.currentTarget.checked)} />
    </FormDialog>
  );
}
