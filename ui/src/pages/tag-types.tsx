import { Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange, useTagTypes } from '../queries';
import { useSession } from '../session';

export default function TagTypes() {
  const session = useSession();
  const tagTypes = useTagTypes();
  const remove = useChange((typeName: string) => ok(api.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName } } })), ['tag-types']);
  return (
    <Page title="Tag types" actions={<NewButton label="New tag type" allowed={session.can('createTagType')} dialog={(close) => <CreateTagType onClose={close} />} />}>
      <ListTable
        label="Tag types"
        query={tagTypes}
        rowKey={(t) => t.name}
        empty="No tag types."
        columns={[
          { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
          { label: 'Description', cell: (t) => t.description },
          {
            label: 'Actions',
            cell: (t) =>
              session.can('deleteTagType') && (
                <ConfirmButton label="Delete" size="xs" title={`Delete ${t.name}?`} onConfirm={() => remove.mutateAsync(t.name)}>
                  A tag type can be deleted once no flag carries a tag of it.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Page>
  );
}

function CreateTagType({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useChange(() => ok(api.POST('/api/admin/tag-types', { body: { name: name.trim(), ...(description.trim() && { description: description.trim() }) } })), ['tag-types']);
  return (
    <FormDialog title="New tag type" submitLabel="Create tag type" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
    </FormDialog>
  );
}
