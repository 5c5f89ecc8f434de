// A context field's dialog: empty to create one (createContextField), or prefilled with a field to change its
// description, stickiness and legal values (updateContextField, whose `legalValues` replaces the whole list). The
// name is chosen once: a context field cannot be renamed.
import { ActionIcon, Button, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { FormDialog } from './forms';

type ContextField = components['schemas']['ContextField'];
type LegalValue = components['schemas']['LegalValue'];

/** The legal values as the API takes them: rows left blank dropped, text trimmed, no empty description. */
function legalValuesBody(rows: LegalValue[]): LegalValue[] {
  return rows
    .map((row) => ({ value: row.value.trim(), description: row.description?.trim() ?? '' }))
    .filter((row) => row.value !== '' || row.description !== '')
    .map(({ value, description }) => (description ? { value, description } : { value }));
}

/** What the service would refuse in the legal values, in words; undefined when it will take them. */
function legalValuesProblem(rows: LegalValue[]): string | undefined {
  const values = legalValuesBody(rows).map((row) => row.value);
  if (values.includes('')) return 'A legal value with a description needs a value.';
  const repeated = values.find((value, index) => values.indexOf(value) !== index);
  return repeated === undefined ? undefined : `"${repeated}" is listed twice.`;
}

export function ContextFieldDialog({ field, onClose }: { field?: ContextField; onClose: () => void }) {
  const [name, setName] = useState(field?.name ?? '');
  const [description, setDescription] = useState(field?.description ?? '');
  const [stickiness, setStickiness] = useState(field?.stickiness ?? false);
  const [legalValues, setLegalValues] = useState<LegalValue[]>(field?.legalValues ?? []);
  const problem = legalValuesProblem(legalValues);
  const save = useChange(() => {
    const body = { description: description.trim() || null, stickiness, legalValues: legalValuesBody(legalValues) };
    return field
      ? ok(api.PUT('/api/admin/context/{contextField}', { params: { path: { contextField: field.name } }, body }))
      : ok(api.POST('/api/admin/context', { body: { name: name.trim(), ...body } }));
  }, ['context-fields']);
  return (
    <FormDialog
      title={field ? `Edit context field ${field.name}` : 'New context field'}
      submitLabel={field ? 'Save context field' : 'Create context field'}
      size="lg"
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      done={field ? `Context field ${name.trim()} saved.` : `Context field ${name.trim()} created.`}
      disabled={problem !== undefined}
    >
      {field ? (
        <TextInput label="Name" description="A context field cannot be renamed" value={name} readOnly />
      ) : (
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      )}
      <Textarea label="Description" maxLength={250} data-autofocus={field ? true : undefined} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <LegalValuesEditor rows={legalValues} onChange={setLegalValues} problem={problem} />
      <Checkbox label="Can be used for stickiness" checked={stickiness} onChange={(e) => setStickiness(e.currentTarget.checked)} />
    </FormDialog>
  );
}

function LegalValuesEditor({ rows, onChange, problem }: { rows: LegalValue[]; onChange: (rows: LegalValue[]) => void; problem: string | undefined }) {
  const set = (index: number, change: Partial<LegalValue>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Stack gap="xs" role="group" aria-label="Legal values">
      <div>
        <Text size="sm" fw={500}>
          Legal values
        </Text>
        <Text size="xs" c="dimmed">
          Optional: the values constraints choose from
        </Text>
      </div>
      {rows.map((row, index) => (
        <Group key={index} align="flex-end" gap="sm" wrap="nowrap">
          <TextInput aria-label={`Legal value ${index + 1}`} placeholder="Value" maxLength={100} value={row.value} onChange={(e) => set(index, { value: e.currentTarget.value })} w={160} />
          <TextInput
            aria-label={`Description of legal value ${index + 1}`}
            placeholder="Description (optional)"
            maxLength={250}
            value={row.description ?? ''}
            onChange={(e) => set(index, { description: e.currentTarget.value })}
            flex={1}
          />
          <ActionIcon variant="subtle" color="red" aria-label={`Remove legal value ${row.value || index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))} mb={4}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {problem && (
        <Text size="sm" c="red.8" role="status">
          {problem}
        </Text>
      )}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...rows, { value: '' }])}>
          Add legal value
        </Button>
      </Group>
    </Stack>
  );
}
