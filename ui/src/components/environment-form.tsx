// An environment's dialog: empty to create one (createEnvironment), or prefilled with an environment to change its
// type and sort order (updateEnvironment, which also moves it in every list of environments). The name is chosen
// once; enabling and disabling is the list's switch.
import { NumberInput, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { FormDialog } from './forms';

type Environment = components['schemas']['Environment'];

const TYPES = ['development', 'test', 'preproduction', 'production'];

export function EnvironmentDialog({ environment, onClose }: { environment?: Environment; onClose: () => void }) {
  const [name, setName] = useState(environment?.name ?? '');
  const [type, setType] = useState(environment?.type ?? 'development');
  const [sortOrder, setSortOrder] = useState<number | string>(environment?.sortOrder ?? '');
  const save = useChange(() => {
    const body = { type, ...(typeof sortOrder === 'number' && { sortOrder }) };
    return environment
      ? ok(api.PUT('/api/admin/environments/update/{environment}', { params: { path: { environment: environment.name } }, body }))
      : ok(api.POST('/api/admin/environments', { body: { name: name.trim(), ...body } }));
  }, ['environments']);
  return (
    <FormDialog
      title={environment ? `Edit environment ${environment.name}` : 'New environment'}
      submitLabel={environment ? 'Save environment' : 'Create environment'}
      onClose={onClose}
      onSubmit={() => save.mutateAsync()}
      done={environment ? `Environment ${name.trim()} saved.` : `Environment ${name.trim()} created.`}
    >
      {environment ? (
        <TextInput label="Name" description="An environment cannot be renamed" value={name} readOnly />
      ) : (
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
      )}
      <Select
        label="Type"
        description="Enabling a flag in a production environment makes it live"
        data={[...new Set([...TYPES, type])]}
        value={type}
        onChange={(v) => v && setType(v)}
        allowDeselect={false}
        data-autofocus={environment ? true : undefined}
      />
      <NumberInput
        label="Sort order"
        description={environment ? 'Lists of environments follow it, lowest first' : 'Lists of environments follow it, lowest first; last when left empty'}
        required={Boolean(environment)}
        allowDecimal={false}
        min={-100000}
        max={100000}
        value={sortOrder}
        onChange={setSortOrder}
      />
    </FormDialog>
  );
}
