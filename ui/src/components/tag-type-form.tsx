// A tag type's dialog: empty to create one (createTagType), or prefilled with a tag type to change its
// description, icon and colour (updateTagType; every field is sent, an empty one clears it). The name is chosen once.
import { ColorInput, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { FormDialog } from './forms';

type TagType = components['schemas']['TagType'];

const COLOR = /^#[0-9A-Fa-f]{6}$/;

export function TagTypeDialog({ tagType, onClose }: { tagType?: TagType; onClose: () => void }) {
  const [name, setName] = useState(tagType?.name ?? '');
  const [description, setDescription] = useState(tagType?.description ?? '');
  const [icon, setIcon] = useState(tagType?.icon ?? '');
  const [color, setColor] = useState(tagType?.color ?? '');
  const colorProblem = color.trim() === '' || COLOR.test(color.trim()) ? undefined : 'A colour is written #RRGGBB';
  const save = useChange(() => {
    const body = { description: description.trim() || null, icon: icon.trim() || null, color: color.trim() || null };
    return tagType
      ? ok(api.PUT('/api/admin/tag-types/{typeName}', { params: { path: { typeName: tagType.name } }, body }))
      : ok(api.POST('/api/admin/tag-types', { body: { name: name.trim(), ...body } }));
  }, ['tag-types']);
  return (
    <FormDialog
      title={tagType ? `Edit tag type ${tagType.name}` : 'New tag type'}
      submitLabel={tagType ? 'Save tag type' : 'Create tag type'}
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      done={tagType ? `Tag type ${name.trim()} saved.` : `Tag type ${name.trim()} created.`}
      disabled={colorProblem !== undefined}
    >
      {tagType ? (
        <TextInput label="Name" description="A tag type cannot be renamed" value={name} readOnly />
      ) : (
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      )}
      <Textarea label="Description" maxLength={1000} data-autofocus={tagType ? true : undefined} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <TextInput label="Icon" description="Free text, such as the name of an icon" maxLength={1000} value={icon} onChange={(e) => setIcon(e.currentTarget.value)} />
      <ColorInput label="Colour" placeholder="None" format="hex" withEyeDropper={false} value={color} onChange={setColor} error={colorProblem} />
    </FormDialog>
  );
}
