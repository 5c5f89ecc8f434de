import { ColorSwatch, Group, Text } from '@mantine/core';
import { api, ok } from '../api';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { TagTypeDialog } from '../components/tag-type-form';
import { useChange, useTagTypes } from '../queries';
import { useSession } from '../session';

export default function TagTypes() {
  const session = useSession();
  const tagTypes = useTagTypes();
  const remove = useChange((typeName: string) => ok(api.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName } } })), ['tag-types']);
  return (
    <Page title="Tag types" actions={<NewButton label="New tag type" allowed={session.can('createTagType')} dialog={(close) => <TagTypeDialog onClose={close} />} />}>
      <ListTable
        label="Tag types"
        query={tagTypes}
        rowKey={(t) => t.name}
        empty="No tag types yet — create one to tag flags."
        columns={[
          { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
          { label: 'Description', cell: (t) => t.description },
          { label: 'Icon', cell: (t) => t.icon ?? '' },
          {
            label: 'Colour',
            cell: (t) =>
              t.color && (
                <Group gap={6} wrap="nowrap">
                  <ColorSwatch color={t.color} size={14} aria-hidden />
                  <Text size="sm" ff="monospace">
                    {t.color}
                  </Text>
                </Group>
              ),
          },
          {
            label: 'Actions',
            cell: (t) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateTagType') && <DialogButton label="Edit" ariaLabel={`Edit ${t.name}`} dialog={(close) => <TagTypeDialog tagType={t} onClose={close} />} />}
                {session.can('deleteTagType') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${t.name}?`} done={`${t.name} deleted.`} onConfirm={() => remove.mutateAsync(t.name)}>
                    A tag type can be deleted once no flag carries a tag of it.
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
